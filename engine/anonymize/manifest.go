package anonymize

import (
	"bytes"
	"fmt"
	"strings"

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
		b, err := yaml.Marshal(obj)
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
