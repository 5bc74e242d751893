package narrate

import (
	"strings"
	"testing"
)

// TestEditedFields words edits by field path: the two edits the issue
// found misdescribed line by line (a label added with cpu lowered; a taint
// removed with cpu raised), and the edges.
func TestEditedFields(t *testing.T) {
	pod := "metadata:\n  name: web\n  labels: {app: web}\nspec:\n  containers:\n  - name: c\n    resources:\n      requests: {cpu: \"12\", memory: 1Gi}\n"
	node := "metadata: {name: n1}\nspec:\n  taints:\n  - {key: gpu, effect: NoSchedule}\n  - {key: spot, effect: NoSchedule}\nstatus:\n  allocatable: {cpu: \"8\", memory: 64Gi}\n"
	tests := []struct {
		name          string
		before, after string
		limit         int
		want          string
	}{
		{"a label added and cpu lowered", pod,
			strings.Replace(strings.Replace(pod, "{app: web}", "{app: web, team: ml}", 1), `cpu: "12"`, "cpu: 1", 1), 160,
			"metadata.labels.team: + ml; spec.containers[0].resources.requests.cpu: 12 → 1"},
		{"a taint removed and cpu raised", node,
			strings.Replace(strings.Replace(node, "  - {key: gpu, effect: NoSchedule}\n", "", 1), `cpu: "8"`, `cpu: "16"`, 1), 160,
			"spec.taints[0]: − {effect: NoSchedule, key: gpu}; status.allocatable.cpu: 8 → 16"},
		{"a key that is not a plain name", "metadata: {name: a}\n", "metadata:\n  name: a\n  labels: {app.kubernetes.io/name: web}\n", 160,
			`metadata.labels: + {app.kubernetes.io/name: web}`},
		{"a string and a number with the same text", `a: "1"`, "a: 1", 160, "no field changed"},
		{"reformatted only", pod, strings.ReplaceAll(pod, "{app: web}", "\n    app: web"), 160, "no field changed"},
		{"cut at a change", "a: 1\nb: 1\nc: 1\n", "a: 2\nb: 2\nc: 2\n", 24, "a: 1 → 2; and 2 more"},
		{"not YAML", "a: 1\n", "a: [\n", 160, "an edited manifest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EditedFields([]byte(tt.before), []byte(tt.after), tt.limit); got != tt.want {
				t.Errorf("EditedFields = %q, want %q", got, tt.want)
			}
		})
	}
}
