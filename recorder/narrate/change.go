package narrate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/input"
)

// Change says what a what-if change does, in one line: the words of
// whatif's output, the TUI's menu and status bar, and a fork's list of
// changes. What a user wrote (a patch, a name, a file) is quoted bounded
// (input.Quote), so the line stays short however large the patch; an edit
// is worded field by field (EditedFields).
func Change(c recorder.Change) string {
	switch c := c.(type) {
	case recorder.PatchPod:
		if c.Why != "" {
			return c.Why
		}
		if c.Pod != "" {
			return "patch pod " + input.Quote(c.Pod) + " with " + input.Quote(c.Patch)
		}
		return "patch the pod with " + input.Quote(c.Patch)
	case recorder.ReplacePod:
		return "replace the pod with " + input.Quote(c.Source)
	case recorder.EditPod:
		if len(c.Shown) == 0 {
			return "edit the pod with " + input.Quote(c.Source)
		}
		return "edit the pod: " + EditedFields(c.Shown, c.Edited, editWords)
	case recorder.PatchNode:
		if c.Why != "" {
			return c.Why
		}
		return "patch node " + input.Quote(c.Node) + " with " + input.Quote(c.Patch)
	case recorder.EditNode:
		if len(c.Shown) == 0 {
			return "edit node " + input.Quote(c.Node) + " with " + input.Quote(c.Source)
		}
		return "edit node " + input.Quote(c.Node) + ": " + EditedFields(c.Shown, c.Edited, editWords)
	case recorder.RemoveNode:
		return "remove node " + input.Quote(c.Node)
	case recorder.AddNode:
		return "add node " + input.Quote(c.Source)
	case recorder.CopyNode:
		return "add node " + input.Quote(c.Node) + " (a copy of " + input.Quote(c.From) + ")"
	case recorder.Evict:
		pods := make([]string, len(c.Pods))
		for i, p := range c.Pods {
			pods[i] = input.Quote(p)
		}
		if len(pods) == 1 {
			return "evict pod " + pods[0]
		}
		return "evict pods " + strings.Join(pods, ", ")
	case recorder.UseConfig:
		return "use scheduler configuration " + input.Quote(c.Path)
	case recorder.SetWeight:
		return fmt.Sprintf("set the Score weight of %s to %d", input.Quote(c.Plugin), c.Weight)
	case recorder.Disable:
		if c.Point == "" {
			return "disable " + input.Quote(c.Plugin) + " at every extension point"
		}
		return "disable " + input.Quote(c.Plugin) + " at " + input.Quote(c.Point)
	case recorder.Enable:
		return "enable " + input.Quote(c.Plugin) + " at " + input.Quote(c.Point)
	case recorder.SetPercentage:
		return fmt.Sprintf("set percentageOfNodesToScore to %d", c.Percent)
	case recorder.SetMinCount:
		return fmt.Sprintf("set the gang's minCount to %d", c.MinCount)
	case nil:
		return "no change"
	}
	return c.Kind()
}

// editWords bounds the words of an edit.
const editWords = 160

// EditedFields words what an edit changed between the manifest shown and
// the one edited, field by field (FieldChanges), in at most limit
// characters: "spec.containers[0].resources.requests.cpu: 12 → 1; and 2 more".
func EditedFields(shown, edited []byte, limit int) string {
	b, errB := decodeTree(shown)
	a, errA := decodeTree(edited)
	if errB != nil || errA != nil {
		return "an edited manifest"
	}
	changes := FieldChanges(b, a)
	if len(changes) == 0 {
		return "no field changed"
	}
	out := changes[0]
	for i, c := range changes[1:] {
		more := fmt.Sprintf("; and %d more", len(changes)-1-i)
		if len([]rune(out+"; "+c)) > limit-len(more) {
			return out + more
		}
		out += "; " + c
	}
	if len([]rune(out)) > limit {
		out = string([]rune(out)[:limit-1]) + "…"
	}
	return out
}

// decodeTree decodes a YAML or JSON manifest into maps, lists and scalars
// as JSON has them, numbers as written.
func decodeTree(manifest []byte) (any, error) {
	var v any
	if err := yaml.Unmarshal(manifest, &v); err != nil {
		return nil, err
	}
	js, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(js))
	d.UseNumber()
	var out any
	err = d.Decode(&out)
	return out, err
}
