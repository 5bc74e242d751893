package narrate

import (
	"strings"
	"testing"

	"github.com/schedscope/schedscope/recorder"
)

// A change is worded by the fields it touches, never by what was written.
func TestChangeFieldsNamesNoValue(t *testing.T) {
	const secret = "SENTINEL"
	tests := []struct {
		name string
		c    recorder.Change
		want string
	}{
		{"env", recorder.PatchPod{Patch: `{"spec":{"containers":[{"name":"c","env":[{"name":"SENTINEL","value":"SENTINEL"}]}]}}`},
			"patch the pod at spec.containers[0].env, spec.containers[0].name"},
		{"yaml and a directive", recorder.PatchPod{Patch: "metadata:\n  annotations: {SENTINEL: SENTINEL}\nspec:\n  $setElementOrder/containers: [{name: SENTINEL}]\n  priority: 7"},
			"patch the pod at metadata.annotations, spec.priority"},
		{"a resource's name", recorder.PatchPod{Patch: `{"spec":{"containers":[{"name":"c","resources":{"limits":{"SENTINEL.com/gpu":1}}}]}}`},
			"patch the pod at spec.containers[0].name, spec.containers[0].resources.limits"},
		{"a label's key", recorder.PatchNode{Node: "n1", Patch: `{"metadata":{"labels":{"SENTINEL.io/x":"SENTINEL"}}}`}, "patch node n1 at metadata.labels"},
		{"not a patch", recorder.PatchPod{Patch: `{SENTINEL`}, "patch the pod"},
		{"edit", recorder.EditNode{Node: "n1", Shown: []byte("spec: {taints: []}\n"), Edited: []byte("spec: {taints: [{key: SENTINEL, effect: NoSchedule}]}\n"), Source: "SENTINEL.yaml"},
			"edit node n1 at spec.taints[0]"},
		{"a file", recorder.UseConfig{Path: "/SENTINEL/config.yaml"}, "use another scheduler configuration"},
		{"many fields", recorder.PatchPod{Patch: `{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1}`}, "patch the pod at a, b, c, d, e, f and 2 more field(s)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ChangeFields(tt.c)
			if got != tt.want || strings.Contains(got, secret) {
				t.Errorf("ChangeFields = %q, want %q", got, tt.want)
			}
		})
	}
}
