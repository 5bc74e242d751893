package anonymize

import (
	"bytes"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/schedscope/schedscope/engine/fixture"
)

// Manifest decodes a fixture's manifests (as a client sends them: no
// defaulting, schedscope.io/replicas stamped out) and writes them again,
// in the same order, anonymized; name is used in errors.
func Manifest(name string, data []byte) ([]byte, *Map, error) {
	objs, err := fixture.DecodeManifest(name, data)
	if err != nil {
		return nil, nil, err
	}
	out, m := Objects(objs)
	var buf bytes.Buffer
	buf.WriteString(Header)
	if d := m.Dropped(); len(d) > 0 {
		fmt.Fprintf(&buf, "# Left out (kinds schedscope cannot anonymize): %s.\n", strings.Join(d, ", "))
	}
	for _, obj := range out {
		gvks, _, err := fixture.Scheme.ObjectKinds(obj)
		if err != nil || len(gvks) == 0 {
			return nil, nil, fmt.Errorf("%s: unknown type %T", name, obj)
		}
		obj.GetObjectKind().SetGroupVersionKind(gvks[0])
		doc, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		b, err := yaml.Marshal(withoutEmptyStatus(obj, doc))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		buf.WriteString("---\n")
		buf.Write(b)
	}
	return buf.Bytes(), m, nil
}

// Header says, at the top of an anonymized manifest, what was replaced.
const Header = "# Anonymized by schedscope: names, namespaces, custom label keys, label values, taints,\n" +
	"# images and volume identifiers are stand-ins, mapped the same wherever they appear;\n" +
	"# resources, priorities and well-known topology keys are kept, so the scheduler decides as it did.\n"

// withoutEmptyStatus leaves out of an object's document what a typed
// object writes though it holds nothing: null fields (a nil slice or
// pointer whose field has no omitempty), an empty spec or status, and a
// node's daemon endpoints and system info when every field of them is its
// zero value (those structs are not pointers, so they are written whole).
// Each is decoded again to the same zero value, so the scheduler reads the
// same object.
func withoutEmptyStatus(obj runtime.Object, doc map[string]any) map[string]any {
	if n, ok := obj.(*v1.Node); ok {
		if st, ok := doc["status"].(map[string]any); ok {
			if n.Status.NodeInfo == (v1.NodeSystemInfo{}) {
				delete(st, "nodeInfo")
			}
			if n.Status.DaemonEndpoints == (v1.NodeDaemonEndpoints{}) {
				delete(st, "daemonEndpoints")
			}
		}
	}
	withoutNulls(doc)
	for _, k := range []string{"spec", "status"} {
		if m, ok := doc[k].(map[string]any); ok && len(m) == 0 {
			delete(doc, k)
		}
	}
	return doc
}

// withoutNulls deletes, through maps and lists, the fields whose value is
// null: a typed object decodes an absent field and a null one alike.
func withoutNulls(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
				continue
			}
			withoutNulls(e)
		}
	case []any:
		for _, e := range v {
			withoutNulls(e)
		}
	}
}
