package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

const podGroupNode = `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
`

// TestPodGroupGateStarts: with GenericWorkload on, the engine starts and a
// pod in no group is scheduled and recorded as with the gate off; a fixture
// with a pod group loads (scheduling.k8s.io/v1beta1 is served), says in one
// warning that pod-group cycles are not recorded as such yet, and the run
// ends.
func TestPodGroupGateStarts(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	res, cycles := runFixture(t, "one.yaml", []byte(podGroupNode+"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: pause}]\n"), Options{})
	if len(cycles) != 1 || res.Bindings["default/p"] != "n1" {
		t.Errorf("got %d cycles and bindings %v, want one cycle binding p to n1", len(cycles), res.Bindings)
	}
	data := []byte(podGroupNode + `apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: g}
spec:
  schedulingPolicy: {gang: {minCount: 2}}
---
apiVersion: v1
kind: Pod
metadata: {name: alone}
spec:
  containers: [{name: c, image: pause}]
---
apiVersion: v1
kind: Pod
metadata: {name: m1}
spec:
  schedulingGroup: {podGroupName: g}
  containers: [{name: c, image: pause}]
---
apiVersion: v1
kind: Pod
metadata: {name: m2}
spec:
  schedulingGroup: {podGroupName: g}
  containers: [{name: c, image: pause}]
`)
	fx, err := fixture.Load("group.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	for _, w := range fx.Warnings {
		if strings.Contains(w, "pod-group cycle") {
			warned = append(warned, w)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "GenericWorkload") {
		t.Errorf("warnings %q, want one naming GenericWorkload and pod-group cycles", fx.Warnings)
	}
	if _, err := fixture.Load("alpha.yaml", []byte(podGroupNode+"apiVersion: scheduling.k8s.io/v1alpha3\nkind: PodGroup\nmetadata: {name: g}\n")); err == nil || !strings.Contains(err.Error(), "scheduling.k8s.io/v1beta1 only") {
		t.Errorf("a v1alpha3 PodGroup with the gate on: %v, want refused (an Alpha API schedscope does not serve)", err)
	}
	res, _ = runFixture(t, "group.yaml", data, Options{})
	if res.Bindings["default/alone"] != "n1" {
		t.Errorf("bindings %v, want alone on n1", res.Bindings)
	}
}

// TestPodGroupKindsRefused: kube-apiserver serves Workload, PodGroup and
// CompositePodGroup only with GenericWorkload on; a fixture holding one is
// refused with its line, as a create would be.
func TestPodGroupKindsRefused(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"podgroup v1beta1", "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\n",
			`pg.yaml:6: no matches for kind "PodGroup" in version "scheduling.k8s.io/v1beta1": kube-apiserver serves it only with the GenericWorkload feature gate`},
		{"workload v1alpha3", "apiVersion: scheduling.k8s.io/v1alpha3\nkind: Workload\nmetadata: {name: w}\n",
			`pg.yaml:6: no matches for kind "Workload" in version "scheduling.k8s.io/v1alpha3"`},
		{"priority class is served", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 10\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fixture.Load("pg.yaml", []byte(podGroupNode+tt.doc))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("fixture.Load: %v", err)
			case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n")):
				t.Errorf("fixture.Load error %v, want one line starting %q", err, tt.want)
			}
		})
	}
}

// TestSchedulingGroupDroppedAsUpstream: with GenericWorkload off,
// kube-apiserver drops a pod's spec.schedulingGroup on create, and the pod is
// scheduled alone in an ordinary cycle.
func TestSchedulingGroupDroppedAsUpstream(t *testing.T) {
	data := []byte(podGroupNode + "apiVersion: v1\nkind: Pod\nmetadata: {name: member}\nspec:\n  schedulingGroup: {podGroupName: g}\n  containers: [{name: c, image: pause}]\n")
	fx, err := fixture.Load("member.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(fx.Pending) != 1 || fx.Pending[0].Spec.SchedulingGroup != nil {
		t.Fatalf("pending pods %v: want member without spec.schedulingGroup", fx.Pending)
	}
	res, cycles := runFixture(t, "member.yaml", data, Options{})
	if len(cycles) != 1 || res.Bindings["default/member"] != "n1" {
		t.Errorf("got %d cycles and bindings %v, want one cycle binding member to n1", len(cycles), res.Bindings)
	}
}

// TestPodGroupCycles: with GenericWorkload on, each pod-group cycle is
// recorded as one: a gang that binds (train), a gang whose members fit but
// whose minCount cannot be met (infer: two placed tentatively, the third
// fits nowhere beside them, all reverted), each member linked to its own
// cycle with the earlier members it counted as assumed; a gang short of
// members (batch) gets no cycle. Recording changes no decision: the
// bindings are those of the run with recording off.
func TestPodGroupCycles(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	data, err := os.ReadFile(filepath.Join("testdata", "gang.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var groups []*recorder.PodGroupCycle
	var queue []*recorder.QueueEvent
	res, cycles := runFixture(t, "gang.yaml", data, Options{
		OnPodGroup: func(g *recorder.PodGroupCycle) { groups = append(groups, g) },
		OnQueue:    func(ev *recorder.QueueEvent) { queue = append(queue, ev) },
	})
	bare, _ := runFixture(t, "gang.yaml", data, Options{DisableRecording: true})
	if diff := cmp.Diff(bare.Bindings, res.Bindings); diff != "" {
		t.Errorf("bindings with recording differ from the bare scheduler's (-bare +recorded):\n%s", diff)
	}
	wantBindings := map[string]string{"default/train-0": "s1", "default/train-1": "s2", "default/infer-0": "", "default/infer-1": "", "default/infer-2": "", "default/batch-0": ""}
	if diff := cmp.Diff(wantBindings, res.Bindings); diff != "" {
		t.Errorf("bindings (-want +got):\n%s", diff)
	}
	bySeq := map[int]*recorder.Cycle{}
	for _, c := range cycles {
		bySeq[c.Seq] = c
	}
	type member struct {
		Pod, Node, Code string
		Assumed         []recorder.Placement
	}
	type group struct {
		Group, Policy string
		MinCount      int32
		Members       []member
		Result        string
		Reverted      []recorder.Placement
		LastFeasible  string
		Condition     string
	}
	var got []group
	for _, g := range groups {
		gg := group{Group: g.Group.Key(), Policy: g.Policy, MinCount: g.MinCount, Result: g.Outcome.Result, Reverted: g.Reverted()}
		if n := len(g.Feasible); n > 0 {
			gg.LastFeasible = g.Feasible[n-1].Code
		}
		if g.Condition != nil {
			gg.Condition = g.Condition.Type + "=" + g.Condition.Status
		}
		for _, m := range g.Members {
			gg.Members = append(gg.Members, member{Pod: m.Pod.Name, Node: m.Node, Code: m.Code, Assumed: m.Assumed})
			c := bySeq[m.Cycle]
			if c == nil || c.Pod.Key() != m.Pod.Key() {
				t.Errorf("group %s member %s links cycle %d, which is not its cycle", g.Group.Key(), m.Pod.Name, m.Cycle)
				continue
			}
			if recorder.GroupOf(groups, c.Seq) != g {
				t.Errorf("cycle %d of %s: GroupOf does not find group cycle %d", c.Seq, m.Pod.Name, g.Seq)
			}
			if m.Node != "" && (c.Selection == nil || c.Selection.Node != m.Node) {
				t.Errorf("member %s placed on %q, its cycle selected %v", m.Pod.Name, m.Node, c.Selection)
			}
		}
		got = append(got, gg)
	}
	want := []group{
		{Group: "default/train", Policy: recorder.PolicyGang, MinCount: 2, Result: recorder.ResultBound, LastFeasible: recorder.CodeSuccess,
			Condition: "PodGroupInitiallyScheduled=True",
			Members: []member{
				{Pod: "train-0", Node: "s1", Code: recorder.CodeSuccess},
				{Pod: "train-1", Node: "s2", Code: recorder.CodeSuccess, Assumed: []recorder.Placement{{Pod: "train-0", Node: "s1"}}},
			}},
		{Group: "default/infer", Policy: recorder.PolicyGang, MinCount: 3, Result: recorder.ResultUnschedulable, LastFeasible: recorder.CodeUnschedulable,
			Condition: "PodGroupInitiallyScheduled=False",
			Reverted:  []recorder.Placement{{Pod: "infer-0", Node: "s1"}, {Pod: "infer-1", Node: "s2"}},
			Members: []member{
				{Pod: "infer-0", Node: "s1", Code: recorder.CodeSuccess},
				{Pod: "infer-1", Node: "s2", Code: recorder.CodeSuccess, Assumed: []recorder.Placement{{Pod: "infer-0", Node: "s1"}}},
				{Pod: "infer-2", Code: recorder.CodeUnschedulable, Assumed: []recorder.Placement{{Pod: "infer-0", Node: "s1"}, {Pod: "infer-1", Node: "s2"}}},
			}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pod-group cycles (-want +got):\n%s", diff)
	}
	if len(groups) == 2 {
		infer := groups[1]
		if !strings.Contains(infer.Outcome.Message, "minCount (3) cannot be satisfied: 2 scheduled, 0 remaining") {
			t.Errorf("infer's outcome message %q, want minCount's verdict", infer.Outcome.Message)
		}
		if f := infer.Members[0].Final; !strings.HasPrefix(f, "pod group is unschedulable, minCount (3)") {
			t.Errorf("infer-0 went back to the queue with %q, want the group's message", f)
		}
	}
	// The queue moves a group as a whole: those events name the group, and
	// make no pod of it; a gang short of members is held in PreEnqueue.
	groupEvents := map[string]int{}
	for _, ev := range queue {
		if ev.PodGroup != nil {
			groupEvents[ev.PodGroup.Key()]++
		} else if ev.Pod.UID == "" {
			t.Errorf("queue event %+v names no pod UID and no pod group", *ev)
		}
	}
	if groupEvents["default/infer"] == 0 || groupEvents["default/batch"] == 0 {
		t.Errorf("queue events of pod groups %v, want infer's and batch's", groupEvents)
	}
	fx, err := fixture.Load("gang.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	had := map[string]bool{}
	for _, c := range cycles {
		had[c.Pod.Key()] = true
	}
	waiting := fx.NeverAttempted(recorder.Header{Profiles: []recorder.Profile{{SchedulerName: "default-scheduler"}}}, func(k string) bool { return had[k] }, nil)
	wantWait := []recorder.PodState{{Pod: recorder.PodRef{Namespace: "default", Name: "batch-0"}, State: recorder.PodGated, Seqs: []int{},
		WaitingFor: &recorder.GroupWait{Group: recorder.PodGroupRef{Namespace: "default", Name: "batch"}, MinCount: 2, Members: 1}}}
	if diff := cmp.Diff(wantWait, waiting, cmpopts.IgnoreFields(recorder.PodRef{}, "UID")); diff != "" {
		t.Errorf("pods never attempted (-want +got):\n%s", diff)
	}
}

// TestQueueLogPodGroupSeam: the queue's move lines name the entity's type
// (v1.37.1: "type" pod, podgroup or compositepodgroup); a pod group's key
// is kept apart from a pod's of the same name.
func TestQueueLogPodGroupSeam(t *testing.T) {
	tests := []struct {
		name     string
		typ      fwk.EntityKeyType
		wantKey  string
		wantPods bool
	}{
		{"pod", fwk.PodKeyType, "default/g", true},
		{"pod group", fwk.PodGroupKeyType, groupKeyPrefix + "default/g", false},
		{"composite pod group", fwk.CompositePodGroupKeyType, groupKeyPrefix + "default/g", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, ok := parseQueueLog(logMoved, []any{"type", tt.typ, "entity", klog.ObjectRef{Namespace: "default", Name: "g"}, "event", "BackoffComplete", "queue", "Active"})
			if !ok || l.key != tt.wantKey || l.group == tt.wantPods {
				t.Errorf("parseQueueLog: %+v, %v; want key %q", l, ok, tt.wantKey)
			}
			if g := groupOf(l.key); (g == nil) != tt.wantPods || g != nil && g.Key() != "default/g" {
				t.Errorf("groupOf(%q) = %v", l.key, g)
			}
		})
	}
}

// TestPodGroupPreemptionDryRunNotRecorded: a group PostFilter that preempts
// re-runs the members' algorithm (upstream's pgSchedulingFunc); those dry
// runs are no cycles: every cycle of a member is a member's cycle of a
// recorded group cycle, and the PostFilter's verdict is the group's.
func TestPodGroupPreemptionDryRunNotRecorded(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	data, err := os.ReadFile(filepath.Join("testdata", "gang-preemption.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var groups []*recorder.PodGroupCycle
	_, cycles := runFixture(t, "gang-preemption.yaml", data, Options{OnPodGroup: func(g *recorder.PodGroupCycle) { groups = append(groups, g) }})
	if len(groups) == 0 || groups[0].PostFilter == nil || groups[0].PostFilter.Code != recorder.CodeSuccess || !groups[0].Outcome.WaitingOnPreemption {
		t.Fatalf("group cycles %+v, want the first waiting on its PostFilter's preemption", groups)
	}
	for _, c := range cycles {
		if recorder.GroupOf(groups, c.Seq) == nil {
			t.Errorf("cycle %d of %s (attempt %d) is no group cycle's member: a PostFilter dry run recorded as a cycle", c.Seq, c.Pod.Name, c.Attempt)
		}
	}
}

// TestPodGroupPreemptionBinds: a gang that fits only by preempting is
// retried once its victims are gone and binds, as kube-scheduler's retry
// on the backoff timer does (engine/e2e TestPodGroupsMatchRealScheduler,
// gang-preemption): the run does not end on the group's first failure.
func TestPodGroupPreemptionBinds(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	data, err := os.ReadFile(filepath.Join("testdata", "gang-preemption.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var groups []*recorder.PodGroupCycle
	res, _ := runFixture(t, "gang-preemption.yaml", data, Options{OnPodGroup: func(g *recorder.PodGroupCycle) { groups = append(groups, g) }})
	got := []string{res.Bindings["default/hi-0"], res.Bindings["default/hi-1"]}
	if got[0] == "" || got[1] == "" || got[0] == got[1] {
		t.Errorf("hi-0 and hi-1 bound to %q, want each on its own node once low-1 and low-2 are gone", got)
	}
	if n := len(groups); n < 2 || groups[0].Outcome.Result != recorder.ResultUnschedulable || !groups[0].Outcome.WaitingOnPreemption || groups[n-1].Outcome.Result != recorder.ResultBound {
		var seen []string
		for _, g := range groups {
			seen = append(seen, g.Outcome.Result+" "+g.Outcome.Message)
		}
		t.Errorf("pod-group cycles %q: want the first waiting on its preemption, the last bound", seen)
	}
}

// TestPodGroupRetriedAfterStep: a gang that failed is retried on its
// backoff timer whatever happens; when a step of the timeline adds the node
// it lacked, the run waits for that retry, which binds the gang.
func TestPodGroupRetriedAfterStep(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	member := func(name string) string {
		return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name + "}\nspec:\n  schedulingGroup: {podGroupName: g}\n  containers: [{name: c, image: pause, resources: {requests: {cpu: \"3\"}}}]\n"
	}
	data := []byte(podGroupNode + "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\nspec:\n  schedulingPolicy: {gang: {minCount: 2}}\n" +
		member("m1") + member("m2") +
		"---\napiVersion: v1\nkind: Node\nmetadata: {name: n2}\nstatus: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n")
	var groups []*recorder.PodGroupCycle
	res, _ := runFixture(t, "step.yaml", data, Options{OnPodGroup: func(g *recorder.PodGroupCycle) { groups = append(groups, g) }})
	want := map[string]string{"default/m1": "n1", "default/m2": "n2"}
	if diff := cmp.Diff(want, res.Bindings); diff != "" {
		t.Errorf("bindings (-want +got):\n%s", diff)
	}
	if len(groups) < 2 || groups[0].Outcome.Result != recorder.ResultUnschedulable {
		t.Errorf("got %d pod-group cycles, want the first unschedulable (one node) and a retry after n2 was added", len(groups))
	}
}

// TestSuggestPodGroup: for a gang that fails though two of its members fit
// (gang.yaml's infer, minCount 3), each suggestion is confirmed by a run
// in which the group binds: minCount lowered to the two its cycle placed,
// the third's cpu request lowered to the 300m s1 had free with infer-0
// assumed there, or a node like s1 added for the third; a group that binds, and one that
// ran no cycle, get a note and nothing to try.
func TestSuggestPodGroup(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	data, err := os.ReadFile(filepath.Join("testdata", "gang.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.Load("gang.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := SuggestPodGroup(ctx, fx, recorder.PodGroupRef{Namespace: "default", Name: "infer"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		Kind, Node, LikeNode string
		MinCount             int32
		Pod, Requests        string
		Bound                int
	}
	var gots []got
	for _, s := range res.Suggestions {
		n := 0
		for _, node := range s.Bindings {
			if node != "" {
				n++
			}
		}
		requests := ""
		if s.Requests != nil {
			requests = fmt.Sprint(s.Requests)
		}
		gots = append(gots, got{s.Kind, s.Node, s.LikeNode, s.MinCount, s.Pod, requests, n})
		if s.Cycle == nil || s.Cycle.Outcome.Result != recorder.ResultBound {
			t.Errorf("suggestion %+v: its run's last cycle of infer is %+v, want Bound", s, s.Cycle)
		}
	}
	want := []got{
		{Kind: GroupChangeMinCount, MinCount: 2, Bound: 2},
		{Kind: GroupChangeMemberRequest, Node: "s1", Pod: "default/infer-2", Requests: "map[cpu:300m]", Bound: 3},
		{Kind: GroupChangeAddNode, Node: "s1-copy", LikeNode: "s1", Bound: 3},
	}
	if diff := cmp.Diff(want, gots); diff != "" {
		t.Errorf("suggestions (-want +got):\n%s", diff)
	}
	if res.Tried != 3 || res.Unconfirmed != 0 || res.Baseline == nil || res.Baseline.Outcome.Result != recorder.ResultUnschedulable {
		t.Errorf("tried %d, unconfirmed %d, baseline %+v: want 3 tried, all confirmed, from infer's failed cycle", res.Tried, res.Unconfirmed, res.Baseline)
	}
	for _, tt := range []struct{ group, note string }{
		{"train", "the group binds as it is"},
		{"batch", "the group ran no pod-group cycle"},
	} {
		res, err := SuggestPodGroup(ctx, fx, recorder.PodGroupRef{Namespace: "default", Name: tt.group}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(res.Note, tt.note) || res.Tried != 0 {
			t.Errorf("%s: note %q after %d tried, want %q and nothing tried", tt.group, res.Note, res.Tried, tt.note)
		}
	}
}

// TestMembersSeeEarlierMembersInTheirNodeUse: a member's cycle records the
// node use it filtered on, the earlier members of its pod-group cycle on
// their tentative nodes included (kube-scheduler assumes them in its
// snapshot and keeps the nodes' generations), and the first cycle after a
// failed group no longer holds the reverted placements.
func TestMembersSeeEarlierMembersInTheirNodeUse(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	data, err := os.ReadFile(filepath.Join("testdata", "gang.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// A pod in no group, after the failed gang: its cycle follows the
	// group's.
	data = append(data, []byte("\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: late}\nspec:\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m}}}]\n")...)
	var groups []*recorder.PodGroupCycle
	_, cycles := runFixture(t, "gang.yaml", data, Options{
		OnPodGroup: func(g *recorder.PodGroupCycle) { groups = append(groups, g) },
	})
	slices.SortFunc(cycles, func(a, b *recorder.Cycle) int { return a.Seq - b.Seq })
	index := map[int]int{}
	for i, c := range cycles {
		index[c.Seq] = i
	}
	on := func(u *recorder.Usage, node, pod string) bool {
		nu, _ := u.Node(node)
		return slices.ContainsFunc(nu.Pods, func(p recorder.PodRef) bool { return p.Name == pod })
	}
	checked, reverted := 0, 0
	for _, g := range groups {
		var placed []recorder.GroupMember
		for _, m := range g.Members {
			i, ok := index[m.Cycle]
			if !ok {
				continue
			}
			u := recorder.UsageAt(cycles, i)
			for _, p := range placed {
				checked++
				if !on(u, p.Node, p.Pod.Name) {
					nu, _ := u.Node(p.Node)
					t.Errorf("group %s: cycle %d of %s records %s's pods as %v, without %s assumed there", g.Group.Key(), m.Cycle, m.Pod.Name, p.Node, nu.Pods, p.Pod.Name)
				}
			}
			if m.Node != "" {
				placed = append(placed, m)
			}
		}
		if g.Outcome.Result == recorder.ResultBound || len(placed) == 0 {
			continue
		}
		// The first cycle after the group's last member's.
		last := index[g.Members[len(g.Members)-1].Cycle]
		if last+1 >= len(cycles) {
			continue
		}
		u := recorder.UsageAt(cycles, last+1)
		for _, p := range placed {
			reverted++
			if on(u, p.Node, p.Pod.Name) {
				t.Errorf("group %s failed, yet cycle %d still records %s on %s", g.Group.Key(), cycles[last+1].Seq, p.Pod.Name, p.Node)
			}
		}
	}
	if checked == 0 || reverted == 0 {
		t.Fatalf("checked %d assumed and %d reverted placements: gang.yaml should have a member after a placed one, and a failed group with a cycle after it", checked, reverted)
	}
}

// TestSuggestPodGroupEvicts: a gang whose members fit only where running
// pods they cannot preempt are (gang-victims.yaml) is offered the fewest
// pods to evict, the lower priority first among sets as small: web-1 on
// s1 and cache on s2 (web-2 alone would leave s2 short), each marked as a
// pod the members could not preempt; the run without them binds both
// members.
func TestSuggestPodGroupEvicts(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	data, err := os.ReadFile(filepath.Join("testdata", "gang-victims.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.Load("gang-victims.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := SuggestPodGroup(context.Background(), fx, recorder.PodGroupRef{Namespace: "default", Name: "hi"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Baseline == nil || res.Baseline.Outcome.Result != recorder.ResultUnschedulable {
		t.Fatalf("baseline %+v, want hi unschedulable (nothing it may preempt)", res.Baseline)
	}
	i := slices.IndexFunc(res.Suggestions, func(s GroupSuggestion) bool { return s.Kind == GroupChangeEvict })
	if i < 0 {
		t.Fatalf("no eviction among the suggestions %+v (%d tried, %d unconfirmed)", res.Suggestions, res.Tried, res.Unconfirmed)
	}
	s := res.Suggestions[i]
	want := []GroupVictim{
		{Pod: "default/cache", Node: "s2", Priority: 100},
		{Pod: "default/web-1", Node: "s1", Priority: 0},
	}
	if diff := cmp.Diff(want, s.Victims); diff != "" {
		t.Errorf("victims (-want +got):\n%s", diff)
	}
	if s.Cycle == nil || s.Cycle.Outcome.Result != recorder.ResultBound {
		t.Errorf("the run without the victims: hi's cycle %+v, want Bound", s.Cycle)
	}
	if got := []string{s.Bindings["default/hi-0"], s.Bindings["default/hi-1"]}; got[0] == "" || got[1] == "" || got[0] == got[1] {
		t.Errorf("hi-0 and hi-1 bound to %q, want one on each node", got)
	}
}
