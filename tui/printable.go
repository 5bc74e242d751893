package tui

import (
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/recorder/visible"
)

// printable returns s safe to draw on a terminal: C0 and C1 control
// characters, DEL and invalid UTF-8 cannot move the cursor, break a line,
// clear the screen or restyle the text any more, and bidirectional controls
// and other invisible format characters cannot reorder or hide it. A tab
// becomes a space; the other C0 controls and DEL become their Control
// Pictures (a newline reads ␊, ESC reads ␛), and C1 controls and invalid
// bytes become �: each one cell wide, so that a table keeps its columns. The
// other characters a terminal would not show (visible.Hidden: U+202E, the
// isolates U+2066 to U+2069, the marks U+200E and U+200F, line separators…)
// are shown as the text output shows them, as \u202e (visible.Escape).
func printable(s string) string {
	clean := true
	for _, r := range s {
		if r < 0x20 || r >= 0x7f && r <= 0x9f || r == utf8.RuneError || r > 0x9f && visible.Hidden(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20:
			b.WriteRune(0x2400 + r) // ␀ … ␟
		case r == 0x7f:
			b.WriteRune('␡')
		case r > 0x7f && r <= 0x9f, r == utf8.RuneError:
			b.WriteRune('�')
		case visible.Hidden(r):
			b.WriteString(visible.Escape(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// sanitizer makes what a source delivers printable before the TUI keeps it:
// this is the one place where strings from a recording (or a live engine or
// cluster) enter the TUI, so no view has to guard its own. Values that are
// already printable are kept, not copied; a node set, shared by many cycles,
// is cleaned once.
type sanitizer struct {
	nodeSets map[*recorder.NodeSet]*recorder.NodeSet
	// bearing caches whether a type can hold a string at all, so that long
	// runs of numbers are never walked.
	bearing map[reflect.Type]bool
}

func newSanitizer() *sanitizer {
	return &sanitizer{nodeSets: map[*recorder.NodeSet]*recorder.NodeSet{}, bearing: map[reflect.Type]bool{}}
}

// event returns ev with every string in it printable.
func (s *sanitizer) event(ev source.Event) source.Event {
	switch {
	case ev.Header != nil:
		ev.Header = clean(s, ev.Header)
	case ev.Cycle != nil:
		c := *ev.Cycle
		nodes := c.Nodes
		c.Nodes = nil
		if nodes != nil {
			cleanSet, ok := s.nodeSets[nodes]
			if !ok {
				cleanSet = clean(s, nodes)
				if len(s.nodeSets) >= 64 {
					clear(s.nodeSets) // a replay reads sets again; keep a few
				}
				s.nodeSets[nodes] = cleanSet
			}
			nodes = cleanSet
		}
		if cc := clean(s, &c); cc != &c || nodes != ev.Cycle.Nodes {
			cc.Nodes = nodes
			ev.Cycle = cc
		}
	case ev.Observed != nil:
		ev.Observed = clean(s, ev.Observed)
	case ev.Queue != nil:
		ev.Queue = clean(s, ev.Queue)
	case ev.PodGroup != nil:
		ev.PodGroup = clean(s, ev.PodGroup)
	case ev.State != nil:
		ev.State = clean(s, ev.State)
	case ev.NeverAttempted != nil:
		ev.NeverAttempted = *clean(s, &ev.NeverAttempted)
	case ev.Cluster != nil:
		ev.Cluster = clean(s, ev.Cluster)
	}
	return ev
}

// clean returns v with every string reachable from it printable: v itself
// when there was nothing to change, otherwise a copy (v is never modified;
// the source may still be reading it).
func clean[T any](s *sanitizer, v *T) *T {
	out, changed := s.value(reflect.ValueOf(v))
	if !changed {
		return v
	}
	return out.Interface().(*T)
}

// value cleans v, reporting whether anything changed; unchanged values are
// returned as they are.
func (s *sanitizer) value(v reflect.Value) (reflect.Value, bool) {
	if !s.bears(v.Type()) {
		return v, false
	}
	switch v.Kind() {
	case reflect.String:
		p := printable(v.String())
		if p == v.String() {
			return v, false
		}
		return reflect.ValueOf(p).Convert(v.Type()), true
	case reflect.Pointer:
		if v.IsNil() {
			return v, false
		}
		e, changed := s.value(v.Elem())
		if !changed {
			return v, false
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(e)
		return p, true
	case reflect.Struct:
		var out reflect.Value
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			f, changed := s.value(v.Field(i))
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(v.Type()).Elem()
				out.Set(v) // keeps unexported fields
			}
			out.Field(i).Set(f)
		}
		if !out.IsValid() {
			return v, false
		}
		return out, true
	case reflect.Slice, reflect.Array:
		var out reflect.Value
		for i := range v.Len() {
			e, changed := s.value(v.Index(i))
			if !changed {
				continue
			}
			if !out.IsValid() {
				if v.Kind() == reflect.Slice {
					out = reflect.MakeSlice(v.Type(), v.Len(), v.Len())
				} else {
					out = reflect.New(v.Type()).Elem()
				}
				reflect.Copy(out, v)
			}
			out.Index(i).Set(e)
		}
		if !out.IsValid() {
			return v, false
		}
		return out, true
	case reflect.Map:
		changed := false
		type entry struct{ k, v reflect.Value }
		var entries []entry
		for it := v.MapRange(); it.Next(); {
			k, kc := s.value(it.Key())
			e, ec := s.value(it.Value())
			changed = changed || kc || ec
			entries = append(entries, entry{k, e})
		}
		if !changed {
			return v, false
		}
		out := reflect.MakeMapWithSize(v.Type(), len(entries))
		for _, e := range entries {
			out.SetMapIndex(e.k, e.v)
		}
		return out, true
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		e, changed := s.value(v.Elem())
		if !changed {
			return v, false
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(e)
		return out, true
	}
	return v, false
}

// bears tells whether a value of type t can hold a string in an exported
// place.
func (s *sanitizer) bears(t reflect.Type) bool {
	if b, ok := s.bearing[t]; ok {
		return b
	}
	s.bearing[t] = true // a type that refers to itself is walked, to be safe
	var b bool
	switch t.Kind() {
	case reflect.String, reflect.Interface:
		b = true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		b = s.bears(t.Elem())
	case reflect.Map:
		b = s.bears(t.Key()) || s.bears(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && s.bears(f.Type) {
				b = true
				break
			}
		}
	}
	s.bearing[t] = b
	return b
}

// usage returns u with every node name and every string of the nodes' use
// (pods, resource names) printable, so that the node detail finds a node
// by the printable name its cycle shows: u itself when nothing needed
// cleaning.
func (s *sanitizer) usage(u *recorder.Usage) *recorder.Usage {
	if u == nil {
		return nil
	}
	set := &recorder.NodeSet{}
	var uses []recorder.NodeUse
	changed := false
	for name, nu := range u.All() {
		cleanName, cleanUse := printable(name), clean(s, &nu)
		changed = changed || cleanName != name || cleanUse != &nu
		cu := *cleanUse
		cu.Node = len(set.Names)
		set.Names = append(set.Names, cleanName)
		uses = append(uses, cu)
	}
	if !changed {
		return u
	}
	out := recorder.NewUsage()
	out.Apply(&recorder.Cycle{Nodes: set, NodeUse: uses})
	return out
}

// entries returns es with every string printable, es itself when nothing
// needed cleaning (the common case, checked without reflection: a replay
// sends every cycle's entry).
func (s *sanitizer) entries(es []recorder.CycleEntry) []recorder.CycleEntry {
	var out []recorder.CycleEntry
	for i := range es {
		e := es[i]
		changed := false
		for _, p := range []*string{&e.Pod.Namespace, &e.Pod.Name, &e.Profile, &e.Result, &e.Node, &e.NominatedNode} {
			if c := printable(*p); c != *p {
				*p, changed = c, true
			}
		}
		cloned := false
		for k, p := range e.Plugins {
			if c := printable(p); c != p {
				if !cloned {
					e.Plugins, cloned = slices.Clone(e.Plugins), true
				}
				e.Plugins[k], changed = c, true
			}
		}
		if changed && out == nil {
			out = slices.Clone(es)
		}
		if out != nil {
			out[i] = e
		}
	}
	if out == nil {
		return es
	}
	return out
}
