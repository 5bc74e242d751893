package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"
)

// ReplicasAnnotation on a Node or Pod in a fixture stamps out that many copies,
// named <name>-<i>. It describes large clusters compactly; kubectl apply creates
// only the one object it sees.
const ReplicasAnnotation = "schedscope.io/replicas"

// Fixture is a cluster loaded from a manifest: the objects present from the start
// and a timeline of what follows, in document order: the pods that arrive to be
// scheduled and the changes to other objects between them.
type Fixture struct {
	Name string
	// Objects are created before scheduling starts (nodes, running pods,
	// classes, ...): every document before the first pending pod, and every
	// bound pod.
	Objects []runtime.Object
	// Pending are pods without spec.nodeName, in arrival order.
	Pending []*v1.Pod
	// Steps are the other documents after the first pending pod, in
	// document order, each placed among Pending by Step.After.
	Steps []Step
	// Warnings are things a real cluster would do differently, worth telling the user.
	Warnings []string
}

var strictCodecs = serializer.NewCodecFactory(clientgoscheme.Scheme, serializer.EnableStrict)

// LoadFixtureFile reads a fixture manifest; errors name the file and line.
func LoadFixtureFile(path string) (*Fixture, error) {
	data, err := readBounded(path, maxFixtureBytes, "fixture")
	if err != nil {
		return nil, err
	}
	return LoadFixture(path, data)
}

// maxFixtureBytes bounds a fixture file; large clusters are described with
// schedscope.io/replicas, not by listing every node.
const maxFixtureBytes = 64 << 20

// readBounded reads at most limit bytes of path (a file, a pipe, a device),
// so that /dev/zero or a runaway file fails with one line instead of
// exhausting memory.
func readBounded(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAllBounded(path, f, limit, what)
}

func readAllBounded(name string, r io.Reader, limit int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %d MiB: too big for a %s", name, limit>>20, what)
	}
	return data, nil
}

// ReadManifestFile reads one object's manifest (a Pod or Node a what-if
// adds or swaps in), bounded as a scheduler configuration is.
func ReadManifestFile(path string) ([]byte, error) {
	return readBounded(path, maxConfigBytes, "manifest")
}

// LoadFixtureReader reads a fixture manifest from r (such as standard
// input), bounded as LoadFixtureFile is; errors name it name.
func LoadFixtureReader(name string, r io.Reader) (*Fixture, error) {
	data, err := readAllBounded(name, r, maxFixtureBytes, "fixture")
	if err != nil {
		return nil, err
	}
	return LoadFixture(name, data)
}

// LoadFixture decodes a multi-document manifest and admits its objects as an
// API server would. name is used in errors.
func LoadFixture(name string, data []byte) (*Fixture, error) {
	objs, lines, err := decodeManifest(name, data)
	if err != nil {
		return nil, err
	}
	return newFixture(name, objs, lines)
}

// NewFixture admits objects, as decoded from a manifest, into a fixture.
func NewFixture(name string, objs []runtime.Object) (*Fixture, error) {
	return newFixture(name, objs, nil)
}

// newFixture admits objs; lines, if known, holds the line each object's
// document starts on, for errors.
func newFixture(name string, objs []runtime.Object, lines []int) (*Fixture, error) {
	if len(objs) == 0 {
		return nil, fmt.Errorf("%s: the fixture holds no objects; it needs Nodes and Pods (see fixtures/default.yaml)", name)
	}
	f := &Fixture{Name: name}
	if err := admit(f, objs); err != nil {
		var oe *objectError
		if errors.As(err, &oe) {
			if oe.index < len(lines) {
				return nil, fmt.Errorf("%s:%d: %v", name, lines[oe.index], oe.err)
			}
			return nil, fmt.Errorf("%s: document %d: %v", name, oe.index+1, oe.err)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i, s := range f.Steps {
		if s.index < len(lines) {
			f.Steps[i].Source = fmt.Sprintf("%s:%d", name, lines[s.index])
		}
	}
	return f, nil
}

// objectError is an error in the index-th object of a fixture.
type objectError struct {
	index int
	err   error
}

func (e *objectError) Error() string { return e.err.Error() }

// maxFixtureObjects bounds how many objects a fixture may expand to with
// schedscope.io/replicas, over all its documents.
const maxFixtureObjects = 100000

// DecodeManifest decodes a multi-document manifest strictly and stamps out
// schedscope.io/replicas copies, without defaulting or admission: the objects
// are as a client would send them.
func DecodeManifest(name string, data []byte) ([]runtime.Object, error) {
	objs, _, err := decodeManifest(name, data)
	return objs, err
}

// decodeManifest is DecodeManifest that also returns the line each object's
// document starts on.
func decodeManifest(name string, data []byte) ([]runtime.Object, []int, error) {
	docs := splitDocuments(data)
	decoder := strictCodecs.UniversalDeserializer()
	var objs []runtime.Object
	var lines []int
	for _, d := range docs {
		if len(bytes.TrimSpace(stripComments(d.body))) == 0 {
			continue
		}
		obj, err := decodeDocument(decoder, d.body)
		if err != nil {
			line, msg := d.line, err.Error()
			// YAML errors count lines from the start of the document.
			if m := yamlLine.FindStringSubmatchIndex(msg); m != nil {
				if n, convErr := strconv.Atoi(msg[m[2]:m[3]]); convErr == nil {
					line = d.line + n - 1 - leadingBlankLines(d.body)
					msg = strings.Replace(msg, msg[m[0]:m[1]+1], "", 1)
				}
			}
			return nil, nil, fmt.Errorf("%s:%d: %s", name, line, strings.TrimSpace(msg))
		}
		expanded, err := expandReplicas(obj, maxFixtureObjects-len(objs))
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %v", name, d.line, err)
		}
		objs = append(objs, expanded...)
		for range expanded {
			lines = append(lines, d.line)
		}
	}
	return objs, lines, nil
}

type document struct {
	line int
	body []byte
}

// splitDocuments splits a multi-document YAML stream at "---" lines, keeping the
// line number where each document starts.
func splitDocuments(data []byte) []document {
	var docs []document
	var cur []byte
	start := 1
	for i, l := range strings.SplitAfter(string(data), "\n") {
		trimmed := strings.TrimRight(l, "\r\n")
		if trimmed == "---" || strings.HasPrefix(trimmed, "--- ") {
			docs = append(docs, document{line: start, body: cur})
			cur, start = nil, i+2
			continue
		}
		cur = append(cur, l...)
	}
	docs = append(docs, document{line: start, body: cur})
	// Point each document at its first line with content.
	for i := range docs {
		for _, l := range strings.SplitAfter(string(docs[i].body), "\n") {
			t := strings.TrimSpace(l)
			if t != "" && !strings.HasPrefix(t, "#") {
				break
			}
			docs[i].line++
		}
	}
	return docs
}

func stripComments(b []byte) []byte {
	var out []byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		if t := bytes.TrimSpace(l); len(t) > 0 && t[0] != '#' {
			out = append(out, l...)
			out = append(out, '\n')
		}
	}
	return out
}

var yamlLine = regexp.MustCompile(`yaml: line (\d+):`)

func leadingBlankLines(b []byte) int {
	n := 0
	for _, l := range strings.SplitAfter(string(b), "\n") {
		t := strings.TrimSpace(l)
		if t != "" && !strings.HasPrefix(t, "#") {
			break
		}
		n++
	}
	return n
}

func decodeDocument(decoder runtime.Decoder, body []byte) (runtime.Object, error) {
	var meta struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := yaml.Unmarshal(body, &meta); err != nil {
		return nil, fmt.Errorf("malformed YAML: %v", strings.TrimPrefix(oneLine(err), "error converting YAML to JSON: "))
	}
	if meta.Kind == "" || meta.APIVersion == "" {
		return nil, errors.New("document has no apiVersion or kind")
	}
	obj, _, err := decoder.Decode(body, nil, nil)
	if err != nil {
		if runtime.IsNotRegisteredError(err) {
			return nil, fmt.Errorf("unsupported kind %s %s", meta.APIVersion, meta.Kind)
		}
		return nil, fmt.Errorf("%s: %v", meta.Kind, oneLine(err))
	}
	return obj, nil
}

func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// expandReplicas stamps out obj's replicas; room is how many objects the
// fixture may still hold.
func expandReplicas(obj runtime.Object, room int) ([]runtime.Object, error) {
	var annotations map[string]string
	var name string
	switch o := obj.(type) {
	case *v1.Node:
		annotations, name = o.Annotations, o.Name
	case *v1.Pod:
		annotations, name = o.Annotations, o.Name
	default:
		return []runtime.Object{obj}, nil
	}
	v, ok := annotations[ReplicasAnnotation]
	if !ok {
		if room < 1 {
			return nil, fmt.Errorf("the fixture expands to more than %d objects", maxFixtureObjects)
		}
		return []runtime.Object{obj}, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maxFixtureObjects {
		return nil, fmt.Errorf("metadata.annotations[%s] of %q: want a whole number from 1 to %d, got %q", ReplicasAnnotation, name, maxFixtureObjects, v)
	}
	if n > room {
		return nil, fmt.Errorf("metadata.annotations[%s] of %q: %d copies would make the fixture more than %d objects", ReplicasAnnotation, name, n, maxFixtureObjects)
	}
	width := len(strconv.Itoa(n))
	out := make([]runtime.Object, 0, n)
	for i := 1; i <= n; i++ {
		c := obj.DeepCopyObject()
		suffix := fmt.Sprintf("%0*d", width, i)
		switch o := c.(type) {
		case *v1.Node:
			o.Name = name + "-" + suffix
			delete(o.Annotations, ReplicasAnnotation)
			if o.Labels != nil {
				if _, ok := o.Labels[v1.LabelHostname]; ok {
					o.Labels[v1.LabelHostname] = o.Name
				}
			}
		case *v1.Pod:
			o.Name = name + "-" + suffix
			delete(o.Annotations, ReplicasAnnotation)
		}
		out = append(out, c)
	}
	return out, nil
}

// priorityClasses the API server creates on its own.
func builtinPriorityClasses() []*schedulingv1.PriorityClass {
	return []*schedulingv1.PriorityClass{
		{ObjectMeta: metaName("system-node-critical"), Value: 2000001000},
		{ObjectMeta: metaName("system-cluster-critical"), Value: 2000000000},
	}
}
