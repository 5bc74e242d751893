package commands

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/recorder/export/html"
	"github.com/schedscope/schedscope/recorder/export/markdown"
)

// fragmentedFixture is three nodes of 2 cpu, each with 1500m requested:
// 1500m free in all, 500m on any one, and a pod that asks 1.
const fragmentedFixture = `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}, capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}, capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: n3}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}, capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: busy-1, namespace: default}
spec: {nodeName: n1, containers: [{name: c, image: busybox, resources: {requests: {cpu: 1500m}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: busy-2, namespace: default}
spec: {nodeName: n2, containers: [{name: c, image: busybox, resources: {requests: {cpu: 1500m}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: busy-3, namespace: default}
spec: {nodeName: n3, containers: [{name: c, image: busybox, resources: {requests: {cpu: 1500m}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: one-cpu, namespace: default}
spec: {containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]}
`

// The numbers behind "Insufficient cpu" are where the verdict is, in every
// output: the pod's request, the node's allocatable, what is requested
// there already, by how much it is short; and the cycle says when the
// cluster has enough in all but no node does.
func TestResourceRejectionsCarryTheirNumbers(t *testing.T) {
	hugeNodeA := "cpu: the pod asks 12, the node has 3500m free (4 allocatable − 500m requested): 8500m short"
	hugeCycle := "cpu: the pod asks 12; the 3 nodes NodeResourcesFit rejected have 8500m free in all, at most 4 on one (node-b): the pod is larger than any of them (8 allocatable at most)"
	fixture := filepath.Join(t.TempDir(), "fragmented.yaml")
	writeFile(t, fixture, fragmentedFixture, 0o600)
	fragmented := "cpu: the pod asks 1; the 3 nodes NodeResourcesFit rejected have 1500m free in all, at most 500m on one (n1): fragmented, enough cpu in all but not on any one node"
	rec := record(t, "default")
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"explain", []string{"explain"}, []string{hugeNodeA, hugeCycle}},
		{"explain --pod", []string{"explain", "--pod", "huge"}, []string{hugeNodeA, hugeCycle}},
		{"explain markdown", []string{"explain", "-o", "markdown"}, []string{"Insufficient cpu; Insufficient memory — " + markdown.Cell(hugeNodeA), "- " + markdown.Cell(hugeCycle)}},
		{"explain html", []string{"explain", "-o", "html"}, []string{html.Esc(hugeNodeA), "<li>" + html.Esc(hugeCycle) + "</li>"}},
		{"explain json", []string{"explain", "-o", "json"}, []string{
			`"shortfalls": [`, `"resource": "cpu",`, `"asked": 12000,`, `"allocatable": 4000,`, `"requested": 500,`, `"free": 3500,`, `"short": 8500`,
			`"tooLarge": true,`, `"text": "` + hugeCycle + `"`}},
		{"replay", []string{"replay", rec, "--no-tui"}, []string{hugeNodeA, hugeCycle}},
		{"replay --pod", []string{"replay", rec, "--no-tui", "--pod", "huge"}, []string{hugeNodeA, hugeCycle}},
		{"replay markdown", []string{"replay", rec, "--no-tui", "-o", "markdown"}, []string{markdown.Cell(hugeNodeA)}},
		{"replay json", []string{"replay", rec, "--no-tui", "-o", "json"}, []string{`"short": 8500`, `"text": "` + hugeCycle + `"`}},
		{"fragmented", []string{"explain", "-f", fixture}, []string{fragmented,
			"cpu: the pod asks 1, the node has 500m free (2 allocatable − 1500m requested): 500m short"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := run(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, want := range tc.want {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q", want)
				}
			}
			if strings.Contains(tc.name, "json") {
				checkExport(t, out, -1)
			}
		})
	}
}

// TestDeviceRejectionsCarryTheirNumbers: a node DynamicResources rejected
// says, in the incident documents as in explain's text, what each request
// of the pod's claims asked and what the node had free.
func TestDeviceRejectionsCarryTheirNumbers(t *testing.T) {
	fixture := filepath.Join("..", "..", "..", "engine", "testdata", "dra-devices.yaml")
	nodeB := "claim default/three-gpus, request gpus: asks 3 devices of class gpu, the node has 1 free (3 published − 2 allocated): 2 short"
	for _, tc := range []struct {
		format, want string
	}{
		{"text", nodeB},
		{"markdown", "DynamicResources: cannot allocate all claims — " + markdown.Cell(nodeB)},
		{"html", html.Esc(nodeB)},
	} {
		t.Run(tc.format, func(t *testing.T) {
			out, errOut, code := run(t, "explain", "-f", fixture, "-o", tc.format)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("output lacks %q", tc.want)
			}
		})
	}
}
