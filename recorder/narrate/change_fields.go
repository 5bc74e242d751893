package narrate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/input"
)

// ChangeFields says what a what-if change does as Change does, but names
// the fields a patch or an edit touches instead of quoting what was
// written: "patch the pod at spec.containers[0].env". It is the wording
// of what leaves the machine (a trace's schedscope.whatif): of what a user
// wrote it keeps only the names of nodes, pods and plugins, which a
// snapshot keeps too, never a value, a file's name or a label's key.
func ChangeFields(c recorder.Change) string {
	switch c := c.(type) {
	case recorder.PatchPod:
		return "patch the pod" + at(patchFields(c.Patch))
	case recorder.ReplacePod:
		return "replace the pod with a manifest"
	case recorder.EditPod:
		return "edit the pod" + at(editFields(c.Shown, c.Edited))
	case recorder.PatchNode:
		return "patch node " + input.Quote(c.Node) + at(patchFields(c.Patch))
	case recorder.EditNode:
		return "edit node " + input.Quote(c.Node) + at(editFields(c.Shown, c.Edited))
	case recorder.AddNode:
		return "add a node from a manifest"
	case recorder.UseConfig:
		return "use another scheduler configuration"
	}
	return Change(c)
}

// fieldsShown bounds how many fields ChangeFields names.
const fieldsShown = 6

// at words the fields a change touches: " at spec.a, spec.b and 2 more
// field(s)", or nothing when none is known.
func at(fields []string) string {
	if len(fields) == 0 {
		return ""
	}
	if len(fields) <= fieldsShown {
		return " at " + strings.Join(fields, ", ")
	}
	return fmt.Sprintf(" at %s and %d more field(s)", strings.Join(fields[:fieldsShown], ", "), len(fields)-fieldsShown)
}

// patchFields names the fields a patch (JSON or YAML) sets, each once, in
// key order; none when it does not decode.
func patchFields(patch string) []string {
	tree, err := decodeTree([]byte(patch))
	if err != nil {
		return nil
	}
	var fields []string
	var walk func(path []any, v any)
	walk = func(path []any, v any) {
		next := func(p any) []any { return append(slices.Clip(path), p) }
		switch v := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				if !strings.HasPrefix(k, "$") { // a directive ($patch, $setElementOrder/…) names no field
					walk(next(k), v[k])
				}
			}
			if len(v) > 0 {
				return
			}
		case []any:
			for i, e := range v {
				walk(next(i), e)
			}
			if len(v) > 0 {
				return
			}
		}
		fields = addField(fields, path)
	}
	walk(nil, tree)
	return fields
}

// editFields names the fields an edit changed, each once (FieldChanges).
func editFields(shown, edited []byte) []string {
	b, errB := decodeTree(shown)
	a, errA := decodeTree(edited)
	if errB != nil || errA != nil {
		return nil
	}
	var fields []string
	fieldChanges(nil, b, a, func(path []any, _ string) { fields = addField(fields, path) })
	return fields
}

// addField adds to fields the named part of path (namedPart), unless it is
// there already or names nothing.
func addField(fields []string, path []any) []string {
	name := FieldPath(namedPart(path))
	if name == "" || slices.Contains(fields, name) {
		return fields
	}
	return append(fields, name)
}

// keyedByUser are the fields whose keys a user chooses: a path ends at them.
var keyedByUser = map[string]bool{"labels": true, "annotations": true, "nodeSelector": true}

// namedPart is the part of a field path made of fields' names: it ends
// before a key that is not a plain name (nvidia.com/gpu), after a field keyed by the user
// (metadata.labels, not the label), and before a second list position (a
// container's env, not the variable): spec.containers[0].env.
func namedPart(path []any) []any {
	lists := 0
	for i, p := range path {
		switch p := p.(type) {
		case int:
			if lists++; lists > 1 {
				return path[:i]
			}
		case string:
			if !plainKey.MatchString(p) {
				return path[:i]
			}
			if keyedByUser[p] {
				return path[:i+1]
			}
		}
	}
	return path
}
