package commands

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
)

// A pod held by a scheduling gate, one for another scheduler and one too big
// for the cluster: explain accounts for each with the reason a person can
// act on, although two of them never get a cycle.
const storyFixture = `apiVersion: v1
kind: Node
metadata: {name: node-1, labels: {kubernetes.io/hostname: node-1}}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 500m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: gated}
spec:
  schedulingGates: [{name: example.com/quota}]
  containers: [{name: c, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata: {name: other}
spec:
  schedulerName: my-scheduler
  containers: [{name: c, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata: {name: big}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: "3"}}}]
`

func TestExplainAccountsForEveryPod(t *testing.T) {
	path := writeTemp(t, "story.yaml", storyFixture)
	out, errOut, code := run(t, "explain", "-f", path, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	doc := checkExport(t, out, -1)
	got := map[string]export.PodState{}
	for _, p := range doc.Pods {
		got[p.Pod.Name] = p
	}
	want := map[string]string{"web": recorder.PodBound, "gated": recorder.PodGated, "other": recorder.PodNoProfile, "big": recorder.PodUnschedulable}
	for name, state := range want {
		if got[name].State != state {
			t.Errorf("%s: state %q, want %q (%+v)", name, got[name].State, state, got[name])
		}
	}
	if g := got["gated"]; g.Reason != "SchedulingGated" || g.Message != "Scheduling is blocked due to non-empty scheduling gates" || len(g.Seqs) != 0 {
		t.Errorf("gated: %+v", g)
	}
	if b := got["big"]; len(b.Seqs) == 0 || !strings.Contains(b.Message, "Insufficient cpu") {
		t.Errorf("big: %+v", b)
	}

	// Asking about the first pod stops the run once it is bound (the pods
	// after it cannot preempt it): its story is the whole run's.
	out, errOut, code = run(t, "explain", "-f", path, "--pod", "web", "-o", "json")
	if code != 0 {
		t.Fatalf("--pod web: exit %d: %s", code, errOut)
	}
	web := checkExport(t, out, -1)
	if len(web.Pods) != 1 || web.Pods[0].Pod.Name != "web" || web.Pods[0].State != recorder.PodBound ||
		!cmp.Equal(web.Pods[0].Seqs, got["web"].Seqs) || web.Pods[0].Node != got["web"].Node {
		t.Errorf("--pod web: pods %+v, want web as the whole run left it: %+v", web.Pods, got["web"])
	}
	if web.Cluster != nil {
		t.Errorf("--pod web: the cluster as the run stopped is given as its end: %+v", web.Cluster)
	}
	out, _, _ = run(t, "explain", "-f", path, "--pod", "web")
	if !strings.Contains(out, "the run stopped once nothing left could change web's story: the 3 pending pod(s) after it did not arrive") {
		t.Errorf("--pod web does not say the run stopped early:\n%s", out[max(0, len(out)-400):])
	}
	// Asking about a pod that never got a cycle explains it.
	out, errOut, code = run(t, "explain", "-f", path, "--pod", "gated")
	if code != 0 {
		t.Fatalf("--pod gated: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "default/gated  Gated: Scheduling is blocked due to non-empty scheduling gates") ||
		!strings.Contains(out, "held by scheduling gate example.com/quota") {
		t.Errorf("--pod gated:\n%s", out)
	}
	// The text ends with every pod not bound; --exit-code names them.
	out, errOut, code = run(t, "explain", "-f", path, "--exit-code")
	if code != 1 || !strings.Contains(errOut, "3 pod(s) ended without a node: default/big (Unschedulable), default/gated (Gated), default/other (NoProfile)") {
		t.Errorf("--exit-code: exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "pods not bound (3 of 4):") || !strings.Contains(out, `no profile serves schedulerName "my-scheduler"`) {
		t.Errorf("text summary:\n%s", out[max(0, len(out)-800):])
	}
	// A pod that does not exist is still an error naming the pods there are.
	if _, errOut, code := run(t, "explain", "-f", path, "--pod", "ghost"); code != 1 || !strings.Contains(errOut, `no cycle for pod "ghost"`) {
		t.Errorf("--pod ghost: exit %d, %q", code, errOut)
	}
}

// A pod on a cluster with no nodes fails with no plugin to wait for: the
// queue keeps retrying it after backoff alone, and the run ends with it in
// backoffQ. explain says so, with the backoff the queue computed.
const noNodesFixture = `apiVersion: v1
kind: Pod
metadata: {name: lonely}
spec:
  containers: [{name: c, image: nginx}]
`

func TestExplainPodInBackoff(t *testing.T) {
	path := writeTemp(t, "no-nodes.yaml", noNodesFixture)
	out, errOut, code := run(t, "explain", "-f", path, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	doc := checkExport(t, out, -1)
	if len(doc.Pods) != 1 {
		t.Fatalf("pods %+v, want one", doc.Pods)
	}
	p := doc.Pods[0]
	if p.State != recorder.PodBackoff || p.Reason != "Unschedulable" || p.Message != "no nodes available to schedule pods" || p.Attempts != len(p.Seqs) || p.Attempts == 0 || p.BackoffUntil.IsZero() {
		t.Errorf("pod %+v, want Backoff after its attempts with the PodScheduled message", p)
	}
	last := p.Queue[len(p.Queue)-1]
	if last.To != recorder.QueueBackoff || last.Event != "ScheduleAttemptFailure" || !last.BackoffUntil.Equal(p.BackoffUntil) {
		t.Errorf("last queue event %+v, want the move to backoffQ after the failure", last)
	}
	out, _, _ = run(t, "explain", "-f", path)
	if !strings.Contains(out, "default/lonely  Backoff until ") || !strings.Contains(out, "(after 1 attempt(s)): no nodes available to schedule pods") ||
		!strings.Contains(out, "last queue event: ScheduleAttemptFailure → Backoff until") {
		t.Errorf("text:\n%s", out[max(0, len(out)-600):])
	}
}

// Pods that hold a node without a cycle of their own, or are gone, say so:
// a pod that arrived bound, a preemption victim, and a pod the timeline
// deletes after it was bound; none of them is listed as not bound.
func TestExplainPodsThatAreNotWaiting(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    map[string]string // pod → state
		message map[string]string // pod → part of its message
	}{
		{"../../../fixtures/preemption.yaml",
			map[string]string{"urgent": recorder.PodBound, "filler-1": recorder.PodPreempted, "filler-2": recorder.PodPreBound},
			map[string]string{"filler-1": "evicted by preemption in cycle 1, to make room for default/urgent on node-1", "filler-2": "arrived bound to node-2"}},
		{"../../../engine/e2e/testdata/timeline/node-changes.yaml",
			map[string]string{"ssd-1": recorder.PodDeleted, "ssd-2": recorder.PodBound},
			map[string]string{"ssd-1": "node-changes.yaml:62)"}},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			out, errOut, code := run(t, "explain", "-f", tc.fixture, "-o", "json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			doc := checkExport(t, out, -1)
			got := map[string]export.PodState{}
			for _, p := range doc.Pods {
				got[p.Pod.Name] = p
			}
			for name, state := range tc.want {
				if got[name].State != state || !strings.Contains(got[name].Message, tc.message[name]) {
					t.Errorf("%s: %q %q, want %q with %q", name, got[name].State, got[name].Message, state, tc.message[name])
				}
			}
			text, _, _ := run(t, "explain", "-f", tc.fixture)
			for name := range tc.want {
				if i := strings.Index(text, "pods not bound"); i >= 0 && strings.Contains(text[i:], "default/"+name+"  ") {
					t.Errorf("%s is listed among the pods not bound:\n%s", name, text[i:])
				}
			}
		})
	}
}

// explain --pod tells the pod's story in text: big-job fails, the node the
// timeline adds wakes it (NodeResourcesFit's hint), and the queue pops it
// from backoffQ at once, activeQ being empty, as kube-scheduler does.
func TestExplainPodStory(t *testing.T) {
	out, errOut, code := run(t, "explain", "-f", "autoscaler.yaml", "--pod", "big-job")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, story, ok := strings.Cut(out, "story of default/big-job (Bound on big-1):\n")
	if !ok {
		t.Fatalf("no story:\n%s", out)
	}
	var steps []string
	for _, l := range strings.Split(strings.TrimSpace(story), "\n") {
		if f := strings.Fields(l); len(f) > 1 {
			steps = append(steps, strings.Join(f[1:], " ")) // without the time
		}
	}
	want := []string{
		"added → Active",
		"cycle 1 (attempt 1): Unschedulable: 0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
		"ScheduleAttemptFailure → Unschedulable",
		"NodeAdd → NodeResourcesFit said Queue → Backoff until",
		"cycle 2 (attempt 2; taken from backoffQ before its backoff ended, as activeQ was empty): bound to big-1",
		"left the queue, assigned to a node",
	}
	if len(steps) != len(want) {
		t.Fatalf("story has %d steps, want %d:\n%s", len(steps), len(want), story)
	}
	for i := range want {
		if !strings.HasPrefix(steps[i], want[i]) {
			t.Errorf("step %d: %q, want %q…", i+1, steps[i], want[i])
		}
	}
}

// replay --no-tui accounts for the pods a recording holds as explain does
// (those with a cycle or a queue event), in JSON and in text.
func TestReplayAccountsForRecordedPods(t *testing.T) {
	path := writeTemp(t, "story.yaml", storyFixture)
	rec := filepath.Join(t.TempDir(), "story.rec")
	if _, errOut, code := run(t, "record", "-f", path, "-o", rec); code != 0 {
		t.Fatalf("record: %s", errOut)
	}
	explained := map[string]export.PodState{}
	out, _, _ := run(t, "explain", "-f", path, "-o", "json")
	for _, p := range checkExport(t, out, -1).Pods {
		explained[p.Pod.Name] = p
	}
	out, errOut, code := run(t, "replay", rec, "--no-tui", "-o", "json")
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errOut)
	}
	got := map[string]string{}
	for _, p := range checkExport(t, out, -1).Pods {
		got[p.Pod.Name] = p.State
		if e := explained[p.Pod.Name]; e.State != p.State || len(e.Seqs) != len(p.Seqs) {
			t.Errorf("%s: replay %s %v, explain %s %v", p.Pod.Name, p.State, p.Seqs, e.State, e.Seqs)
		}
	}
	// "other" (no profile serves it) never reached the queue: a recording
	// does not hold it.
	want := map[string]string{"web": recorder.PodBound, "gated": recorder.PodGated, "big": recorder.PodUnschedulable}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("replayed pods (-want +got):\n%s", diff)
	}
	text, _, _ := run(t, "replay", rec, "--no-tui")
	if !strings.Contains(text, "pods not bound (2 of 3):") || !strings.Contains(text, "default/big  Unschedulable: 0/1 nodes are available: 1 Insufficient cpu.") {
		t.Errorf("text ends:\n%s", text[max(0, len(text)-500):])
	}
	out, _, _ = run(t, "replay", rec, "--no-tui", "-o", "json", "--pod", "big")
	if pods := checkExport(t, out, -1).Pods; len(pods) != 1 || pods[0].Pod.Name != "big" {
		t.Errorf("--pod big: pods %+v", pods)
	}
}

// explain ends an unschedulable pod's lines with the command that searches
// what would let it be scheduled, with the flags that decide its cycles;
// and a pod that arrived bound gets a story that says why it has no cycle.
func TestExplainPointsOnward(t *testing.T) {
	out, errOut, code := run(t, "explain", "--arrival", "burst")
	if code != 0 || !strings.Contains(out, "what would let it be scheduled: kubectl schedscope suggest --arrival burst --pod default/huge\n") {
		t.Errorf("exit %d, stderr %q; no suggest command for default/huge:\n%s", code, errOut, out)
	}
	path := writeTemp(t, "bound.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"10\"}}\n---\n"+
		"apiVersion: v1\nkind: Pod\nmetadata: {name: running}\nspec: {nodeName: n1, containers: [{name: c, image: i}]}\n---\n"+
		"apiVersion: v1\nkind: Pod\nmetadata: {name: new}\nspec: {containers: [{name: c, image: i}]}\n")
	out, errOut, code = run(t, "explain", "-f", path, "--pod", "running")
	if code != 0 || !strings.Contains(out, "story of default/running (PreBound on n1):\n  no scheduling cycle: it arrived bound to its node") {
		t.Errorf("exit %d, stderr %q; no story for the pod that arrived bound:\n%s", code, errOut, out)
	}
}
