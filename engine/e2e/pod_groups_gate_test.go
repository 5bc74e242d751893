package e2e

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/util/wait"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/klog/v2"
	schedulingapi "k8s.io/kubernetes/pkg/apis/scheduling"
	"k8s.io/kubernetes/pkg/features"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// The flags a control plane with pod groups runs with: kube-apiserver
// serves scheduling.k8s.io/v1beta1 (Workload, PodGroup) only when asked,
// and both it and kube-scheduler take the GenericWorkload gate. The gate
// is process-wide here (one process runs both, and schedscope's engine):
// the tests set it for their duration as well.
var (
	podGroupAPIServerFlags = []string{"--runtime-config=scheduling.k8s.io/v1beta1=true", "--feature-gates=GenericWorkload=true"}
	podGroupSchedulerFlags = []string{"--feature-gates=GenericWorkload=true"}
)

// podState is what the API server shows of a pod after scheduling: its
// node, or its PodScheduled condition.
type podState struct {
	Node      string
	Condition string // status/reason: message, "" when it has none
}

// groupState is a PodGroup's PodGroupInitiallyScheduled condition as the
// API server shows it, "" when it has none.
type groupState = string

func conditionString(status, reason, message string) string {
	return status + "/" + reason + ": " + message
}

// scoreLine is kube-scheduler's V(10) line giving a node's final score for
// a pod (schedule_one.go, prioritizeNodes).
var scoreLine = regexp.MustCompile(`"Calculated node's final score for pod".*?pod="([^"]+)".*?node="([^"]+)" score=(-?\d+)`)

// firstScores reads each pod's first scoring from kube-scheduler's log:
// pod → node → final score. A failed group is retried, and its PostFilter
// runs its members' algorithm again; the first scoring of a member is its
// first group cycle's.
func firstScores(log string) map[string]map[string]int64 {
	out := map[string]map[string]int64{}
	for _, m := range scoreLine.FindAllStringSubmatch(log, -1) {
		pod, node := m[1], m[2]
		score, _ := strconv.ParseInt(m[3], 10, 64)
		if out[pod] == nil {
			out[pod] = map[string]int64{}
		}
		if _, seen := out[pod][node]; !seen {
			out[pod][node] = score
		}
	}
	return out
}

// TestPodGroupsMatchRealScheduler applies each manifest under
// testdata/podgroups to a real kube-apiserver serving pod groups, with the
// real kube-scheduler v1.37.1 running with GenericWorkload on, and checks
// that schedscope's engine, under the same gate, ends the same: each pod's
// node or PodScheduled condition, each PodGroup's
// PodGroupInitiallyScheduled condition, gang members held in PreEnqueue
// waiting for members (no condition, no cycle). Each member's tentative
// placement in its group's first cycle (bound or reverted) is checked
// against the final scores kube-scheduler logs for it at V(10): the
// scheduler logs no placement of a failed group, but the highest score it
// logs for a member is where the member went.
func TestPodGroupsMatchRealScheduler(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	paths, _ := filepath.Glob("testdata/podgroups/*.yaml")
	if len(paths) == 0 {
		t.Fatal("no manifest under testdata/podgroups")
	}
	placements := 0
	defer func() {
		if placements == 0 && !t.Failed() {
			t.Errorf("no member's tentative placement was compared with kube-scheduler's log: the log lines were not found")
		}
	}()
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".yaml"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			real, realGroups, log := playPodGroups(t, path, data)
			ours, ourGroups, groups, cycles := simulatePodGroups(t, path, data)
			if diff := cmp.Diff(real, ours); diff != "" {
				t.Errorf("pods (-kube-scheduler +schedscope):\n%s", diff)
			}
			if diff := cmp.Diff(realGroups, ourGroups); diff != "" {
				t.Errorf("PodGroup conditions (-kube-scheduler +schedscope):\n%s", diff)
			}
			for _, k := range sortedKeys(real) {
				t.Logf("%s: %+v", k, real[k])
			}
			for _, k := range sortedKeys(realGroups) {
				t.Logf("%s: %s", k, realGroups[k])
			}
			placements += checkTentativePlacements(t, firstScores(log), groups, cycles)
			t.Logf("%d pods and %d pod groups compared; %d pod-group cycles recorded", len(real), len(realGroups), len(groups))
		})
	}
}

// playPodGroups runs a manifest on the real control plane and returns what
// the API server shows once kube-scheduler has settled, and its log.
func playPodGroups(t *testing.T, path string, data []byte) (map[string]podState, map[string]groupState, string) {
	t.Helper()
	objs, err := fixture.DecodeManifest(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return playPodGroupObjects(t, objs)
}

// playPodGroupObjects is playPodGroups for a manifest's objects.
func playPodGroupObjects(t *testing.T, objs []runtime.Object) (map[string]podState, map[string]groupState, string) {
	t.Helper()
	return playPodGroupObjectsWith(t, objs, podGroupAPIServerFlags, podGroupSchedulerFlags, "schedule_one=10")
}

// playPodGroupObjectsWith is playPodGroupObjects with the control plane's
// flags given (kube-apiserver's, then kube-scheduler's), the klog vmodule
// the log is kept at, and what else to read from it once it has settled.
func playPodGroupObjectsWith(t *testing.T, objs []runtime.Object, apiServerFlags, schedulerFlags []string, vmodule string, after ...func(context.Context, *controlPlane)) (map[string]podState, map[string]groupState, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var err error
	var groupNames []string
	for _, o := range objs {
		if m, err := apimeta.Accessor(o); err == nil && isPodGroup(o) {
			groupNames = append(groupNames, m.GetName())
		}
	}
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	cp := startControlPlane(t, apiServerFlags...)
	pending := applyObjects(t, ctx, cp, objs)
	cp.startScheduler(t, ctx, schedulerFlags...)

	// From here on kube-scheduler's own lines are kept, its scoring at V(10).
	// A command run earlier in this process may have routed klog through
	// schedscope's own logger (engine.QuietUpstreamLogs, for good): klog's
	// output is its own while this runs, and klog is left as a command
	// leaves it after.
	klog.ClearLogger()
	t.Cleanup(func() { klog.SetLogger(engine.UpstreamLogger()) })
	var log lockedBuffer
	klog.SetOutput(&log)
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	if err := fs.Set("vmodule", vmodule); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = fs.Set("vmodule", "")
		klog.SetOutput(discardWriter{})
	})

	// The pods arrive one by one, as schedscope's run gives them: each
	// once the one before is bound or has its PodScheduled condition, or
	// has waited a second (a gang member held in PreEnqueue until its
	// group has minCount members). All at once, a Basic group's members
	// may be taken in one cycle or several, and the PodGroup's condition
	// differs: kube-scheduler patches it from the PodGroup its snapshot
	// holds, and a member failing right after others bound can set it
	// False over a True its informer has not yet seen.
	for _, p := range pending {
		if err := admitted(ctx, func() error {
			_, err := cp.client.CoreV1().Pods(p.Namespace).Create(ctx, p.DeepCopy(), metav1.CreateOptions{})
			return err
		}); err != nil {
			t.Fatalf("creating pod %s: %v", p.Name, err)
		}
		_ = wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, time.Second, true, func(ctx context.Context) (bool, error) {
			cur, err := cp.client.CoreV1().Pods(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			return cur.Spec.NodeName != "" || podScheduledSet(cur), nil
		})
	}
	read := func() (map[string]podState, map[string]groupState, bool) {
		pods := map[string]podState{}
		settled := true
		for _, p := range pending {
			cur, err := cp.client.CoreV1().Pods(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			st := podState{Node: cur.Spec.NodeName}
			if st.Node == "" {
				for _, c := range cur.Status.Conditions {
					if c.Type == v1.PodScheduled {
						st.Condition = conditionString(string(c.Status), c.Reason, c.Message)
					}
				}
				if cur.Status.NominatedNodeName != "" {
					// Waiting on its preemption's victims, which no
					// kubelet finishes here: finish them, as one would.
					finishVictims(t, ctx, cp)
					settled = false
				}
			}
			pods[p.Namespace+"/"+p.Name] = st
		}
		groups := map[string]groupState{}
		for _, name := range groupNames {
			pg, err := cp.client.SchedulingV1beta1().PodGroups("default").Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var s groupState
			if c := apimeta.FindStatusCondition(pg.Status.Conditions, schedulingapi.PodGroupInitiallyScheduled); c != nil {
				s = conditionString(string(c.Status), c.Reason, c.Message)
			}
			groups["default/"+name] = s
		}
		return pods, groups, settled
	}
	// Settled: no pod waits on a preemption, and what the API server shows
	// stays the same for three seconds, over a failed group's first retries
	// (about 1.5 s apart) and any member held in PreEnqueue.
	var pods map[string]podState
	var groups map[string]groupState
	var last string
	stableSince := time.Now()
	err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 90*time.Second, true, func(ctx context.Context) (bool, error) {
		p, g, settled := read()
		now := fmt.Sprint(p, g)
		if now != last || !settled {
			last, stableSince = now, time.Now()
		}
		pods, groups = p, g
		return settled && time.Since(stableSince) >= 3*time.Second, nil
	})
	if err != nil {
		t.Fatalf("kube-scheduler did not settle: %v\nlast seen: %v %v", err, pods, groups)
	}
	for _, f := range after {
		f(ctx, cp)
	}
	return pods, groups, log.String()
}

// simulatePodGroups runs a manifest in schedscope's engine and returns what
// its in-memory API server shows, as playPodGroups does, with the recorded
// pod-group cycles and cycles.
func simulatePodGroups(t *testing.T, path string, data []byte) (map[string]podState, map[string]groupState, []*recorder.PodGroupCycle, []*recorder.Cycle) {
	t.Helper()
	fx, err := fixture.Load(path, data)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var groups []*recorder.PodGroupCycle
	res, cycles := runFixtureWith(t, fx, false, engine.Options{OnPodGroup: func(g *recorder.PodGroupCycle) {
		mu.Lock()
		groups = append(groups, g)
		mu.Unlock()
	}})
	mu.Lock()
	defer mu.Unlock()
	sort.Slice(groups, func(i, j int) bool { return groups[i].Seq < groups[j].Seq })
	pods := map[string]podState{}
	for _, p := range fx.Pending {
		key := p.Namespace + "/" + p.Name
		st := podState{Node: res.Bindings[key]}
		if st.Node == "" {
			// The condition the pod's last cycle left: its outcome's
			// message, as FailureHandler writes it; or, when a pod-group
			// cycle took it later without reaching it (PlacementFeasible
			// gave up first), the message that cycle sent it back with.
			var last *recorder.Cycle
			for _, c := range cycles {
				if c.Pod.Key() == key {
					last = c
					st.Condition = conditionString("False", v1.PodReasonUnschedulable, c.Outcome.Message)
				}
			}
			for _, g := range groups {
				for _, m := range g.Members {
					if m.Pod.Key() == key && m.Cycle == 0 && m.Final != "" && (last == nil || g.Start.After(last.Start)) {
						st.Condition = conditionString("False", v1.PodReasonUnschedulable, m.Final)
					}
				}
			}
		}
		pods[key] = st
	}
	out := map[string]groupState{}
	for _, o := range fx.Objects {
		if m, err := apimeta.Accessor(o); err == nil && isPodGroup(o) {
			ns := m.GetNamespace()
			if ns == "" {
				ns = "default"
			}
			out[ns+"/"+m.GetName()] = ""
		}
	}
	for _, g := range groups {
		if c := g.Condition; c != nil {
			out[g.Group.Key()] = conditionString(c.Status, c.Reason, c.Message)
		}
		// A CompositePodGroup's cycle: the conditions of its leaves.
		for _, h := range g.Hierarchy {
			if c := h.Condition; c != nil {
				out[g.Group.Namespace+"/"+h.Name] = conditionString(c.Status, c.Reason, c.Message)
			}
		}
	}
	return pods, out, groups, cycles
}

// podScheduledSet reports whether the scheduler has set pod's PodScheduled
// condition.
func podScheduledSet(pod *v1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == v1.PodScheduled {
			return true
		}
	}
	return false
}

func isPodGroup(o runtime.Object) bool {
	return strings.HasSuffix(fmt.Sprintf("%T", o), ".PodGroup")
}

// checkTentativePlacements compares each member's placement in its
// group's first cycle with the final scores kube-scheduler logged for it:
// the same nodes scored the same, and the member placed on a node of
// highest score.
func checkTentativePlacements(t *testing.T, real map[string]map[string]int64, groups []*recorder.PodGroupCycle, cycles []*recorder.Cycle) (checked int) {
	t.Helper()
	bySeq := map[int]*recorder.Cycle{}
	for _, c := range cycles {
		bySeq[c.Seq] = c
	}
	firstOf := map[string]bool{}
	for _, g := range groups {
		if firstOf[g.Group.Key()] {
			continue
		}
		firstOf[g.Group.Key()] = true
		for _, m := range g.Members {
			c := bySeq[m.Cycle]
			if m.Node == "" || c == nil || c.Score == nil || len(c.Score.Nodes) == 0 {
				continue
			}
			ours := map[string]int64{}
			for i, n := range c.Score.Nodes {
				ours[c.NodeName(n)] = c.Score.Totals[i]
			}
			theirs := real[m.Pod.Key()]
			if diff := cmp.Diff(theirs, ours); diff != "" {
				t.Errorf("group %s, member %s: final scores (-kube-scheduler's V(10) log +schedscope):\n%s", g.Group.Key(), m.Pod.Name, diff)
				continue
			}
			var best int64 = -1 << 62
			for _, s := range theirs {
				best = max(best, s)
			}
			if theirs[m.Node] != best {
				t.Errorf("group %s, member %s: schedscope placed it on %s (score %d), kube-scheduler's best score was %d", g.Group.Key(), m.Pod.Name, m.Node, theirs[m.Node], best)
			}
			t.Logf("group %s (%s), member %s: tentatively on %s, scores %v as kube-scheduler logged them", g.Group.Key(), g.Outcome.Result, m.Pod.Name, m.Node, theirs)
			checked++
		}
	}
	return checked
}

// TestPodGroupSuggestionsConfirmedByRealScheduler: each change
// SuggestPodGroup finds for gangs.yaml's infer (a gang that fails though
// two of its members fit) and gang-victims.yaml's hi (a gang that fits
// only where running pods it may not preempt are: the pods to evict),
// made to the manifest and applied to a real control plane, lets
// kube-scheduler bind the group as schedscope's confirming run did: the
// PodGroup's condition True, the members on the nodes the run put them on.
func TestPodGroupSuggestionsConfirmedByRealScheduler(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	for _, tc := range []struct{ path, group, kind string }{
		{"testdata/podgroups/gangs.yaml", "infer", ""},
		{"testdata/podgroups/gang-victims.yaml", "hi", engine.GroupChangeEvict},
	} {
		t.Run(tc.group, func(t *testing.T) { confirmGroupSuggestions(t, tc.path, tc.group, tc.kind) })
	}
}

// confirmGroupSuggestions applies each suggestion for group in the
// manifest at path to a real control plane; kind, when set, is a kind of
// suggestion that must be among them.
func confirmGroupSuggestions(t *testing.T, path, group, kind string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.Load(path, data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := engine.SuggestPodGroup(context.Background(), fx, recorder.PodGroupRef{Namespace: "default", Name: group}, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Suggestions) == 0 {
		t.Fatalf("no suggestion for %s (tried %d): nothing to confirm", group, res.Tried)
	}
	if kind != "" && !slices.ContainsFunc(res.Suggestions, func(s engine.GroupSuggestion) bool { return s.Kind == kind }) {
		t.Errorf("no %s suggestion for %s among %+v", kind, group, res.Suggestions)
	}
	for _, s := range res.Suggestions {
		t.Run(fmt.Sprintf("%s %d %s", s.Kind, s.MinCount, s.Node), func(t *testing.T) {
			objs, err := fixture.DecodeManifest(path, data)
			if err != nil {
				t.Fatal(err)
			}
			// The change as the suggestion states it.
			switch s.Kind {
			case engine.GroupChangeMinCount:
				for _, o := range objs {
					if pg, ok := o.(*schedulingv1beta1.PodGroup); ok && pg.Name == group {
						pg.Spec.SchedulingPolicy.Gang.MinCount = s.MinCount
					}
				}
			case engine.GroupChangeAddNode:
				for _, o := range objs {
					if n, ok := o.(*v1.Node); ok && n.Name == s.LikeNode {
						added := n.DeepCopy()
						added.Name = s.Node
						objs = append([]runtime.Object{added}, objs...)
						break
					}
				}
			case engine.GroupChangeMemberRequest:
				for i, o := range objs {
					if p, ok := o.(*v1.Pod); ok && "default/"+p.Name == s.Pod {
						orig, err := json.Marshal(p)
						if err != nil {
							t.Fatal(err)
						}
						merged, err := strategicpatch.StrategicMergePatch(orig, []byte(s.Patch), &v1.Pod{})
						if err != nil {
							t.Fatal(err)
						}
						var q v1.Pod
						if err := json.Unmarshal(merged, &q); err != nil {
							t.Fatal(err)
						}
						objs[i] = &q
					}
				}
			case engine.GroupChangeEvict:
				objs = slices.DeleteFunc(objs, func(o runtime.Object) bool {
					p, ok := o.(*v1.Pod)
					return ok && slices.ContainsFunc(s.Victims, func(v engine.GroupVictim) bool { return v.Pod == "default/"+p.Name })
				})
			default:
				t.Fatalf("a suggestion of kind %q: the test does not know how to make it", s.Kind)
			}
			pods, groups, log := playPodGroupObjects(t, objs)
			t.Logf("kube-scheduler's first scores: %v", firstScores(log))
			if c := groups["default/"+group]; !strings.HasPrefix(c, "True/") {
				t.Errorf("kube-scheduler left %s's condition %q, want True", group, c)
			}
			// The nodes the members got, as a multiset: a node added like
			// another ties with it (train-1 scores 460 on s2 and on
			// s2-copy), kube-scheduler breaks a tie at random, and the
			// identical members then trade nodes.
			var ours, theirs []string
			got := map[string]string{}
			for k, n := range s.Bindings {
				got[k] = pods[k].Node
				ours, theirs = append(ours, n), append(theirs, pods[k].Node)
			}
			slices.Sort(ours)
			slices.Sort(theirs)
			if diff := cmp.Diff(ours, theirs); diff != "" {
				t.Errorf("the nodes %s's members got (-schedscope's confirming run +kube-scheduler):\n%s", group, diff)
			}
			t.Logf("%+v: kube-scheduler bound %v", s, got)
		})
	}
}

// TestPodGroupRetriedAfterNodeAdded: a gang that failed for want of a node
// is retried by kube-scheduler on its backoff timer, and binds once the
// node is added; schedscope's run of the same timeline (the node a step
// after the members) waits for that retry and binds the gang the same.
func TestPodGroupRetriedAfterNodeAdded(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	member := func(name string) string {
		return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name + "}\nspec:\n  schedulingGroup: {podGroupName: g}\n" +
			"  containers: [{name: c, image: pause, resources: {requests: {cpu: \"3\", memory: 256Mi}}}]\n"
	}
	const node = "apiVersion: v1\nkind: Node\nmetadata: {name: %s}\nstatus: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}, capacity: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n"
	manifest := fmt.Sprintf(node, "n1") + "---\napiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\nspec:\n  schedulingPolicy: {gang: {minCount: 2}}\n" +
		member("m1") + member("m2") + "---\n" + fmt.Sprintf(node, "n2")
	fx, err := fixture.Load("late-node.yaml", []byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	if len(fx.Steps) != 1 {
		t.Fatalf("the fixture has %d steps, want n2 as one", len(fx.Steps))
	}

	objs, err := fixture.DecodeManifest("late-node.yaml", []byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	late := objs[len(objs)-1].(*v1.Node)
	cp := startControlPlane(t, podGroupAPIServerFlags...)
	pending := applyObjects(t, ctx, cp, objs[:len(objs)-1])
	cp.startScheduler(t, ctx, podGroupSchedulerFlags...)
	for _, p := range pending {
		if _, err := cp.client.CoreV1().Pods("default").Create(ctx, p.DeepCopy(), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	waitPods := func(what string, done func(*v1.Pod) bool) map[string]string {
		nodes := map[string]string{}
		if err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 90*time.Second, true, func(ctx context.Context) (bool, error) {
			all := true
			for _, p := range fx.Pending {
				cur, err := cp.client.CoreV1().Pods("default").Get(ctx, p.Name, metav1.GetOptions{})
				if err != nil {
					return false, err
				}
				nodes["default/"+p.Name] = cur.Spec.NodeName
				all = all && done(cur)
			}
			return all, nil
		}); err != nil {
			t.Fatalf("kube-scheduler: waiting for %s: %v (%v)", what, err, nodes)
		}
		return nodes
	}
	waitPods("the gang to fail on one node", podScheduledSet)
	if _, err := cp.client.CoreV1().Nodes().Create(ctx, late, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	real := waitPods("the gang to bind once n2 is added", func(p *v1.Pod) bool { return p.Spec.NodeName != "" })

	res, _ := runFixtureWith(t, fx, false, engine.Options{})
	if diff := cmp.Diff(real, res.Bindings); diff != "" {
		t.Errorf("bindings (-kube-scheduler +schedscope):\n%s", diff)
	}
	t.Logf("kube-scheduler bound %v after n2 was added", real)
}

// TestPodGroupCapacityConfirmedByRealScheduler: the copies of gangs.yaml's
// train that capacity --pod-group says fit, applied with the manifest to a
// real control plane, all bind under kube-scheduler (each copy's
// PodGroupInitiallyScheduled True); with one copy more, that copy does
// not.
func TestPodGroupCapacityConfirmedByRealScheduler(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	const path = "testdata/podgroups/gangs.yaml"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.Load(path, data)
	if err != nil {
		t.Fatal(err)
	}
	train := recorder.PodGroupRef{Namespace: "default", Name: "train"}
	res, err := engine.CapacityPodGroup(context.Background(), fx, train, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Bound || res.More == 0 || res.Limit != 0 {
		t.Fatalf("capacity of train: %+v, want some copies and a limit found", res)
	}
	t.Logf("schedscope: %d more copies of train fit; the next stops: %s", res.More, res.Stopped)
	for _, k := range []int{res.More, res.More + 1} {
		t.Run(strconv.Itoa(k)+" copies", func(t *testing.T) {
			objs, err := engine.PodGroupCopies(fx, train, k)
			if err != nil {
				t.Fatal(err)
			}
			// The objects as the fixture admitted them: without what the
			// API server makes (UIDs, versions, its own PriorityClasses).
			objs = slices.DeleteFunc(objs, func(o runtime.Object) bool {
				m, err := apimeta.Accessor(o)
				if err != nil {
					return false
				}
				m.SetUID("")
				m.SetResourceVersion("")
				return strings.HasSuffix(fmt.Sprintf("%T", o), ".PriorityClass") && strings.HasPrefix(m.GetName(), "system-")
			})
			_, groups, _ := playPodGroupObjects(t, objs)
			for i := 1; i <= k; i++ {
				name := fmt.Sprintf("default/train-copy-%d", i)
				want := i <= res.More
				if got := strings.HasPrefix(groups[name], "True/"); got != want {
					t.Errorf("kube-scheduler left %s's condition %q; schedscope says it fits: %v", name, groups[name], want)
				}
			}
			if c := groups["default/train"]; !strings.HasPrefix(c, "True/") {
				t.Errorf("kube-scheduler left train's condition %q, want True", c)
			}
		})
	}
}
