package anonymize

import (
	_ "embed"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Redacted stands for a token of free text that is neither a stand-in, a
// number nor a word of the vocabulary.
const Redacted = "‹redacted›"

// vocabularyFile holds, one a line, in lower case, the words the scheduler
// and schedscope write into a recording's free text (plugins' reasons,
// preemption's and the framework's messages, queue events). A test records
// every embedded fixture and lesson and fails on a word not in it.
//
//go:embed vocabulary.txt
var vocabularyFile string

var vocabulary = func() map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(vocabularyFile) {
		out[w] = true
	}
	return out
}()

// InVocabulary reports whether w (any case) is a word of the vocabulary.
func InVocabulary(w string) bool { return vocabulary[strings.ToLower(w)] }

// A Text cleans free text of the names of one recording: each occurrence
// of a mapped name becomes its stand-in, then every token left that is
// neither a stand-in, a string a rule kept (a plugin's name, a resource's,
// Kubernetes' own label keys), a number or quantity, nor a word of the
// vocabulary is replaced by Redacted. What comes out holds no token it
// cannot account for.
type Text struct {
	names map[string]string
	// classes holds, for a string that is the name of things of several
	// classes (a pod and its claim named alike), each one's stand-in:
	// the word before it in the text says which is meant.
	classes  map[string]map[string]string
	standins map[string]bool
	kept     map[string]bool
	redacted int
	unknown  map[string]bool
	// cleaned holds what Clean made of each string, with the tokens it
	// redacted (a rejection's reason repeats on every node).
	cleaned map[string]cleaned
}

type cleaned struct {
	out      string
	redacted int
}

// newText makes the cleaner of m's names, once m has assigned them.
func newText(m *Map) *Text {
	t := &Text{names: map[string]string{}, classes: map[string]map[string]string{}, standins: map[string]bool{}, kept: map[string]bool{}, unknown: map[string]bool{},
		cleaned: map[string]cleaned{}}
	// A string of two classes (a node and a label value alike) is
	// replaced, in free text, by the stand-in of the first class in
	// order; either hides it.
	for _, class := range slices.Sorted(func(yield func(string) bool) {
		for c := range m.to {
			if !yield(c) {
				return
			}
		}
	}) {
		for from, to := range m.to[class] {
			t.name(from, class, to)
		}
	}
	for key := range m.owners {
		parts := strings.SplitN(key, "/", 3)
		t.name(parts[2], classOf(parts[0]), m.objectName(parts[0], parts[1], parts[2]))
	}
	for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		t.kept[ns] = true
	}
	// A string a rule keeps in one place (the default namespace, a
	// resource's name) is left as it is in free text, even where it is
	// also a name mapped elsewhere (a label value "default"): it tells
	// nothing, and "default/web" stays the default namespace's.
	for s := range m.kept {
		t.kept[s] = true
	}
	return t
}

// name notes that from, of class, stands as to.
func (t *Text) name(from, class, to string) {
	t.standins[to] = true
	if t.classes[from] == nil {
		t.classes[from] = map[string]string{}
	}
	if _, ok := t.classes[from][class]; ok {
		return // an owner's made name: kept the first
	}
	t.classes[from][class] = to
	if _, ok := t.names[from]; !ok {
		t.names[from] = to
	}
}

// hintClass is the class of the name a word announces ("node node-a",
// "persistentvolumeclaim \"cache\"").
var hintClass = map[string]string{
	"node": classNode, "nodes": classNode, "pod": "pod", "pods": "pod", "namespace": classNamespace,
	"persistentvolumeclaim": "pvc", "pvc": "pvc", "persistentvolume": "pv", "pv": "pv", "storageclass": "storageclass",
	"resourceclaim": "claim", "deviceclass": "deviceclass", "deployment": "deploy", "replicaset": "rs",
	"statefulset": "sts", "daemonset": "ds", "job": "job", "poddisruptionbudget": "pdb", "pdb": "pdb",
	"priorityclass": "priority", "gate": classGate, "gates": classGate,
}

// lookup is the stand-in of the name from, the word before it being prev.
func (t *Text) lookup(from, prev string) (string, bool) {
	if t.kept[from] {
		return "", false
	}
	to, ok := t.names[from]
	if ok && len(t.classes[from]) > 1 {
		if s, ok := t.classes[from][hintClass[prev]]; ok {
			return s, true
		}
	}
	return to, ok
}

// Redactions counts the tokens Clean replaced by Redacted so far.
func (t *Text) Redactions() int { return t.redacted }

// Unknown lists the tokens redacted so far, in lower case, sorted.
func (t *Text) Unknown() []string {
	out := make([]string, 0, len(t.unknown))
	for w := range t.unknown {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}

// tokenRune says whether r belongs to a token: letters and digits of any
// script, and the characters names join their parts with.
func tokenRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._:/@-_", r)
}

// Clean returns s with its names replaced and its unknown tokens redacted.
func (t *Text) Clean(s string) string {
	if s == "" || t.kept[s] || t.standins[s] {
		return s
	}
	if c, ok := t.cleaned[s]; ok {
		t.redacted += c.redacted // its words are in unknown already
		return c.out
	}
	before, in := t.redacted, s
	var b strings.Builder
	prev := ""
	for len(s) > 0 {
		i := strings.IndexFunc(s, tokenRune)
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		s = s[i:]
		j := strings.IndexFunc(s, func(r rune) bool { return !tokenRune(r) })
		if j < 0 {
			j = len(s)
		}
		b.WriteString(t.token(s[:j], prev))
		prev = strings.ToLower(s[:j])
		s = s[j:]
	}
	t.cleaned[in] = cleaned{b.String(), t.redacted - before}
	return b.String()
}

// token cleans one run of token characters: the whole, less the
// punctuation around it, if it is a name or allowed; else its parts split
// at / : @ (namespace/name, a key and its value), then at dots; a part
// that is none of these is redacted whole (a hyphenated part is not split:
// web-7d9f8 is one name).
func (t *Text) token(w, prev string) string {
	if to, ok := t.lookup(w, prev); ok {
		return to
	}
	core := strings.TrimRight(w, ".:/@-_")
	tail := w[len(core):]
	trimmed := strings.TrimLeft(core, ".:/@-_")
	head := core[:len(core)-len(trimmed)]
	core = trimmed
	if core == "" {
		return w
	}
	if to, ok := t.lookup(core, prev); ok {
		return head + to + tail
	}
	if t.allowed(core) {
		return w
	}
	for _, sep := range []string{"/", ":", "@", "."} {
		if !strings.Contains(core, sep) || sep == "." && ipv4.MatchString(core) {
			continue
		}
		parts := strings.Split(core, sep)
		for i, p := range parts {
			if p != "" {
				parts[i] = t.token(p, prev)
			}
		}
		return head + strings.Join(parts, sep) + tail
	}
	t.redacted++
	t.unknown[strings.ToLower(core)] = true
	return head + Redacted + tail
}

var (
	quantity = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(m|k|Ki|Mi|Gi|Ti|Pi|Ei|K|M|G|T|P|E|n|u|ns|us|µs|ms|s|h|x)?$`)
	duration = regexp.MustCompile(`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`)
	ipv4     = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$`)
)

// allowed says whether a token may stay as it is.
func (t *Text) allowed(w string) bool {
	if t.standins[w] || t.kept[w] || vocabulary[strings.ToLower(w)] {
		return true
	}
	return !ipv4.MatchString(w) && (quantity.MatchString(w) || duration.MatchString(w))
}

// walk cleans every string of v (fields, elements, map keys and values)
// in place: a field no rule maps is free text.
func (t *Text) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			t.walk(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				t.walk(f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			t.walk(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			k := reflect.New(v.Type().Key()).Elem()
			k.Set(iter.Key())
			t.walk(k)
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(iter.Value())
			t.walk(e)
			out.SetMapIndex(k, e)
		}
		v.Set(out)
	case reflect.String:
		v.SetString(t.Clean(v.String()))
	}
}
