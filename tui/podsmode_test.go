package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/components/pods"
	"github.com/schedscope/schedscope/tui/internal/recordings"
)

// storyCycles are a run's cycles: web bound, big unschedulable, urgent
// preempting on its first try and bound through the nominated node's fast
// path on its second.
func storyCycles() []*recorder.Cycle {
	web := makeCycle(1, "web").nodes("node-1").obj()
	big := makeCycle(2, "big").nodes("node-1").reject(0, "Insufficient cpu").obj()
	big.Outcome.Reason, big.Outcome.Message = "Unschedulable", "0/1 nodes are available: 1 Insufficient cpu."
	first := makeCycle(3, "urgent").nodes("node-1").reject(0, "Insufficient cpu").obj()
	first.Outcome = recorder.Outcome{Result: recorder.ResultUnschedulable, Reason: "Unschedulable",
		Message: "0/1 nodes are available: 1 Insufficient cpu.", NominatedNode: "node-1"}
	retry := makeCycle(4, "urgent").nodes("node-1").obj()
	retry.Attempt = 2
	retry.FastPath = &recorder.FastPath{Kind: recorder.FastPathNominated, Node: "node-1", Feasible: true}
	return []*recorder.Cycle{web, big, first, retry}
}

// storyNever are the pods of the run that never got a cycle, as sim sends them.
func storyNever() []recorder.PodState {
	return []recorder.PodState{
		{Pod: recorder.PodRef{Namespace: "default", Name: "gated"}, State: recorder.PodGated, Seqs: []int{},
			Reason: "SchedulingGated", Message: "Scheduling is blocked due to non-empty scheduling gates", Gates: []string{"example.com/quota"}},
		{Pod: recorder.PodRef{Namespace: "default", Name: "other"}, State: recorder.PodNoProfile, Seqs: []int{},
			SchedulerName: "my-scheduler", Profiles: []string{"default-scheduler"}},
	}
}

// storyQueue are urgent's scheduling queue events: added, back among the
// unschedulable pods after its first try, woken into backoffQ when its
// victim left (NodeResourcesFit's hint said Queue), bound; and late, a pod
// that arrived and is in activeQ, not tried yet.
func storyQueue() []*recorder.QueueEvent {
	at := func(ms int) time.Time {
		return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(ms) * time.Millisecond)
	}
	urgent := recorder.PodRef{Namespace: "default", Name: "urgent"}
	return []*recorder.QueueEvent{
		{Seq: 1, Time: at(2900), Pod: urgent, Op: recorder.QueueAdd, To: recorder.QueueActive, Event: "UnscheduledPodAdd"},
		{Seq: 2, Time: at(3100), Pod: urgent, Op: recorder.QueueMove, To: recorder.QueueUnschedulable, Event: "ScheduleAttemptFailure", Attempts: 1},
		{Seq: 3, Time: at(3200), Pod: urgent, Op: recorder.QueueMove, From: recorder.QueueUnschedulable, To: recorder.QueueBackoff, Event: "AssignedPodDelete",
			Hints: []recorder.QueueHint{{Plugin: "NodeResourcesFit", Event: "AssignedPodDelete", Hint: recorder.HintQueue}}, Attempts: 1,
			Backoff: recorder.Duration(800 * time.Millisecond), BackoffUntil: at(4000)},
		{Seq: 4, Time: at(4100), Pod: urgent, Op: recorder.QueueDelete, From: recorder.QueueBackoff, Event: "AssignedPodAdd"},
		{Seq: 5, Time: at(5000), Pod: recorder.PodRef{Namespace: "default", Name: "late"}, Op: recorder.QueueAdd, To: recorder.QueueActive, Event: "UnscheduledPodAdd"},
	}
}

// podsSession is a sim session sized w×h that received the story's cycles
// and queue events and, when the run ended, the pods that never got one.
func podsSession(w, h int) Model {
	m := New(Options{Source: "fixture story.yaml"})
	m = send(m, tea.WindowSizeMsg{Width: w, Height: h})
	var evs []source.Event
	for _, c := range storyCycles() {
		evs = append(evs, source.Event{Cycle: c})
	}
	for _, q := range storyQueue() {
		evs = append(evs, source.Event{Queue: q})
	}
	evs = append(evs, source.Event{NeverAttempted: storyNever()}, source.Event{Done: true})
	return send(m, eventsMsg{events: evs})
}

// podTable is the Pods view's rows as "name state node tries".
func podTable(m Model) []string {
	var out []string
	for _, r := range podsOf(m).Rows() {
		out = append(out, fmt.Sprintf("%s %s %s %d", r.Pod.Name, r.State, r.Node, len(r.Cycles)))
	}
	return out
}

func TestPodsStates(t *testing.T) {
	m := keys(podsSession(80, 24), "P")
	if !m.showing(podsLayer{}) {
		t.Fatal("P did not open the Pods view")
	}
	want := []string{"web Bound node-1 1", "big Unschedulable  1", "urgent Bound node-1 2", "gated Gated  0", "other NoProfile  0", "late Active  0"}
	if diff := cmp.Diff(want, podTable(m)); diff != "" {
		t.Errorf("pods (-want +got):\n%s", diff)
	}
	if got := podsOf(m).All()[1].Message; got != "0/1 nodes are available: 1 Insufficient cpu." {
		t.Errorf("big's message %q, want its last cycle's", got)
	}
	// A nominated pod: its last cycle preempted.
	m = podsSessionWith(t, storyCycles()[:3])
	if got := podTable(keys(m, "P"))[2]; got != "urgent Nominated node-1 1" {
		t.Errorf("urgent after preempting: %q", got)
	}
	// Woken after preempting, waiting out its backoff: the queue says so.
	var evs []source.Event
	for _, q := range storyQueue()[:3] {
		evs = append(evs, source.Event{Queue: q})
	}
	m = keys(send(m, eventsMsg{events: evs}), "P")
	u := podsOf(m).All()[2]
	if u.State != recorder.PodBackoff || u.Attempts != 1 || !u.BackoffUntil.Equal(storyQueue()[2].BackoffUntil) || u.Message != "0/1 nodes are available: 1 Insufficient cpu." {
		t.Errorf("urgent in backoffQ: %+v", u.PodState)
	}
	if s := screen(send(keys(m, "j", "j", "enter"), tea.WindowSizeMsg{Width: 200, Height: 50})); !strings.Contains(s, "Backoff node-1 until 00:00:04.000, after 1 attempt(s)") ||
		!strings.Contains(s, "AssignedPodDelete → NodeResourcesFit said Queue → Backoff until 00:00:04.000") {
		t.Errorf("urgent's story does not tell its backoff and what woke it:\n%s", s)
	}
}

// podsSessionWith is podsSession with only some of the cycles and no
// never-attempted pods (a replay).
func podsSessionWith(t *testing.T, cycles []*recorder.Cycle) Model {
	t.Helper()
	m := New(Options{Source: "replay test.rec"})
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	var evs []source.Event
	for _, c := range cycles {
		evs = append(evs, source.Event{Cycle: c})
	}
	return send(m, eventsMsg{events: evs})
}

func TestPodsSortFilterAndBack(t *testing.T) {
	m := keys(podsSession(80, 24), "P")
	names := func(m Model) []string {
		var out []string
		for _, r := range podTable(m) {
			out = append(out, strings.Fields(r)[0])
		}
		return out
	}
	tests := []struct {
		name string
		keys []string
		want []string
	}{
		{"by state", []string{"s"}, []string{"big", "gated", "other", "late", "web", "urgent"}},
		{"by name", []string{"s", "s"}, []string{"big", "gated", "late", "other", "urgent", "web"}},
		{"back to arrival", []string{"s", "s", "s"}, []string{"web", "big", "urgent", "gated", "other", "late"}},
		{"filter by state", []string{"/", "text:state:no", "enter"}, []string{"other"}},
		{"filter by node", []string{"/", "text:node-1", "enter"}, []string{"web", "urgent"}},
		{"filter by queue", []string{"/", "text:queue:active", "enter"}, []string{"late"}},
		{"esc clears the filter", []string{"/", "text:gat", "enter", "esc"}, []string{"web", "big", "urgent", "gated", "other", "late"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := keys(m, tc.keys...)
			if diff := cmp.Diff(tc.want, names(got)); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			if !got.showing(podsLayer{}) {
				t.Error("the Pods view closed")
			}
		})
	}
	// The sort key is the view's, not the engine's step.
	if got := keys(m, "s"); got.message.Text != "" {
		t.Errorf("s said %q", got.message.Text)
	}
	if m2 := keys(m, "esc"); m2.showing(podsLayer{}) {
		t.Error("esc did not close the Pods view")
	}
	// :pods opens it too, filtered by what follows.
	m = keys(podsSession(80, 24), ":", "text:pods gated", "enter")
	if diff := cmp.Diff([]string{"gated"}, names(m)); !m.showing(podsLayer{}) || diff != "" {
		t.Errorf(":pods gated: shown %v, rows (-want +got):\n%s", m.showing(podsLayer{}), diff)
	}
	// The status bar's queue counts: :pods active and :pods backoff.
	m = keys(podsSession(80, 24), ":", "text:pods active", "enter")
	if diff := cmp.Diff([]string{"late"}, names(m)); !m.showing(podsLayer{}) || diff != "" {
		t.Errorf(":pods active: shown %v, rows (-want +got):\n%s", m.showing(podsLayer{}), diff)
	}
}

func TestPodsStoryOpensItsCycles(t *testing.T) {
	m := keys(podsSession(80, 24), "P", "j", "j", "enter")
	if !podsOf(m).InStory() || podsOf(m).Crumb() != "pods › default/urgent" {
		t.Fatalf("enter on urgent: story %v, crumb %q", podsOf(m).InStory(), podsOf(m).Crumb())
	}
	// added, cycle 3, two moves, cycle 4, bound
	if podsOf(m).StoryCursor() != 4 {
		t.Errorf("the story starts on line %d, want its last cycle's", podsOf(m).StoryCursor())
	}
	if _, cmd := sendCmd(keys(m, "j"), press("enter")); run(cmd) != nil {
		t.Error("enter on a queue event opened something")
	}
	// A queue event cut at 80 columns is shown whole below when selected.
	if s := screen(keys(m, "k")); !strings.Contains(s, "(800.0ms, after 1 attempt)") {
		t.Errorf("the selected queue event is not shown whole:\n%s", s)
	}
	m, cmd := sendCmd(keys(m, "k", "k", "k"), press("enter"))
	msg, ok := run(cmd).(pods.OpenCycleMsg)
	if !ok {
		t.Fatalf("enter on a story's cycle gave %T", run(cmd))
	}
	m = send(m, msg)
	if m.showing(podsLayer{}) || m.focus != focusCycle || m.view.Cycle().Seq != 3 {
		t.Fatalf("after opening: pods shown %v, focus %v", m.showing(podsLayer{}), m.focus)
	}
	m = keys(m, "esc")
	if !m.showing(podsLayer{}) || !podsOf(m).InStory() {
		t.Fatalf("esc from the cycle did not come back to the story")
	}
	m = keys(m, "esc")
	if !m.showing(podsLayer{}) || podsOf(m).InStory() {
		t.Fatalf("esc from the story did not come back to the list")
	}
	// A pod without cycles has a story and nothing to open.
	m = keys(m, "G", "k", "enter")
	if _, cmd := sendCmd(m, press("enter")); run(cmd) != nil {
		t.Error("enter on a never-attempted pod's story opened something")
	}
	if s := screen(m); !strings.Contains(s, "remove the gate") && !strings.Contains(s, "another scheduler must place it") {
		t.Errorf("the story does not say why:\n%s", s)
	}
}

func TestPodsOfAReplayWaitForTheirMessage(t *testing.T) {
	m, _ := indexedSession(t, storyCycles()[:2], &recorder.Header{}, 80, 24)
	m = keys(m, "P")
	big := podsOf(m).All()[1]
	if big.State != recorder.PodUnschedulable || !big.NoMessage {
		t.Errorf("big from its entry: %+v", big)
	}
	s := screen(m)
	for _, want := range []string{"open the cycle for its message", "known in sim only"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}

func TestPodsGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		m := keys(podsSession(size[0], size[1]), "P")
		golden(t, fmt.Sprintf("pods-%dx%d-list", size[0], size[1]), screen(m))
		golden(t, fmt.Sprintf("pods-%dx%d-story-urgent", size[0], size[1]), screen(keys(m, "j", "j", "enter")))
		golden(t, fmt.Sprintf("pods-%dx%d-story-gated", size[0], size[1]), screen(keys(m, "j", "j", "j", "enter")))
	}
}

// TestPodsAtAnySize walks the view at sizes down to one cell: nothing
// panics and every line fits.
func TestPodsAtAnySize(t *testing.T) {
	walk := []string{"P", "G", "enter", "k", "enter", "esc", "esc", "s", "/", "text:zz", "enter", "g", "enter", "esc", "esc", "j", "enter", "G", "enter"}
	for _, size := range [][2]int{{1, 1}, {10, 3}, {30, 6}, {80, 24}} {
		m := podsSession(size[0], size[1])
		for _, k := range walk {
			m = keys(m, k)
			for _, l := range strings.Split(screen(m), "\n") {
				if w := len([]rune(l)); w > size[0] {
					t.Fatalf("%dx%d after %s: line of %d cells: %q", size[0], size[1], k, w, l)
				}
			}
		}
	}
}

// A preemption's victim reads Preempted, a pod that arrived bound PreBound,
// and a pod the timeline deleted after its cycle Deleted.
func TestPodsNotWaiting(t *testing.T) {
	cycles := storyCycles()
	first := *cycles[2]
	first.PostFilter = &recorder.PostFilterPhase{NominatedNode: "node-1", Victims: []recorder.PodRef{{Namespace: "default", Name: "filler"}}}
	cycles[2] = &first
	m := New(Options{Source: "fixture story.yaml"})
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	var evs []source.Event
	for _, c := range cycles {
		evs = append(evs, source.Event{Cycle: c})
	}
	never := []recorder.PodState{
		{Pod: recorder.PodRef{Namespace: "default", Name: "filler"}, State: recorder.PodPreBound, Node: "node-1", Seqs: []int{}, Message: "arrived bound to node-1"},
		{Pod: recorder.PodRef{Namespace: "default", Name: "web"}, State: recorder.PodDeleted, Seqs: []int{}, Source: "story.yaml:40"},
	}
	m = keys(send(m, eventsMsg{events: append(evs, source.Event{NeverAttempted: never}, source.Event{Done: true})}), "P")
	want := []string{"web Deleted node-1 1", "big Unschedulable  1", "urgent Bound node-1 2", "filler Preempted node-1 0"}
	if diff := cmp.Diff(want, podTable(m)); diff != "" {
		t.Errorf("pods (-want +got):\n%s", diff)
	}
	if s := screen(m); !strings.Contains(s, "1 Preempted") || !strings.Contains(s, "1 Deleted") {
		t.Errorf("the title does not count Preempted and Deleted:\n%s", s)
	}
}

// A preempting cycle reaches the view after the next pod's (it is held until
// its victims are known): arrival still orders the pods by cycle number, and
// the pre-bound victim's story says it ran until the preemption evicted it.
func TestPodsArrivalOrderAndAPreBoundVictim(t *testing.T) {
	small := makeCycle(2, "small").nodes("node-1").reject(0, "Insufficient cpu").obj()
	urgent := makeCycle(1, "urgent").nodes("node-1").reject(0, "Insufficient cpu").obj()
	urgent.Outcome = recorder.Outcome{Result: recorder.ResultUnschedulable, NominatedNode: "node-1"}
	urgent.PostFilter = &recorder.PostFilterPhase{NominatedNode: "node-1", Victims: []recorder.PodRef{{Namespace: "default", Name: "victim"}}}
	m := New(Options{Source: "fixture graceful.yaml"})
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 30})
	victim := recorder.PodState{Pod: recorder.PodRef{Namespace: "default", Name: "victim"}, State: recorder.PodPreBound, Node: "node-1", Seqs: []int{}}
	m = send(m, eventsMsg{events: []source.Event{{Cycle: small}, {Cycle: urgent}, {NeverAttempted: []recorder.PodState{victim}}, {Done: true}}})
	m = keys(m, "P")
	want := []string{"urgent Nominated node-1 1", "small Unschedulable  1", "victim Preempted node-1 0"}
	if diff := cmp.Diff(want, podTable(m)); diff != "" {
		t.Fatalf("pods by arrival (-want +got):\n%s", diff)
	}
	s := screen(keys(m, "j", "j", "enter"))
	if !strings.Contains(s, "ran there until a preemption evicted it") || strings.Contains(s, "cannot say why") {
		t.Errorf("the victim's story:\n%s", s)
	}
}

// podsOf is the Pods view of m: on the stack, else on the shelf.
func podsOf(m Model) pods.Model {
	for i := len(m.layers) - 1; i >= 0; i-- {
		if l, ok := m.layers[i].(podsLayer); ok {
			return l.p
		}
	}
	l, _ := shelved[podsLayer](&m)
	return l.p
}

// TestPodsMemberNoGroupCycleReached: in composite.rec, pair-1's pod-group
// cycle gave up before it reached pair-1-1, which got no cycle of its own
// (a fixture run lists it NotAttempted among the pods that never got one);
// the Pods view gives it the message the group cycle sent it back with,
// as explain does (recorder.GroupPodStates).
func TestPodsMemberNoGroupCycleReached(t *testing.T) {
	rec := recordings.Load(t, "composite.rec")
	var final string
	for _, g := range rec.PodGroups {
		for _, mem := range g.Members {
			if mem.Pod.Name == "pair-1-1" && mem.Cycle == 0 && mem.Final != "" {
				final = mem.Final
			}
		}
	}
	if final == "" {
		t.Fatal("composite.rec has no pod-group cycle that sent pair-1-1 back unreached")
	}
	m := New(Options{Source: "fixture composite.yaml"})
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	var evs []source.Event
	for _, c := range rec.Cycles {
		evs = append(evs, source.Event{Cycle: c})
	}
	for _, q := range rec.Queue {
		evs = append(evs, source.Event{Queue: q})
	}
	for _, g := range rec.PodGroups {
		evs = append(evs, source.Event{PodGroup: g})
	}
	never := []recorder.PodState{{Pod: recorder.PodRef{Namespace: "default", Name: "pair-1-1"}, State: recorder.PodNotAttempted, Seqs: []int{}}}
	evs = append(evs, source.Event{NeverAttempted: never}, source.Event{Done: true})
	m = keys(send(m, eventsMsg{events: evs}), "P")
	want := recorder.GroupPodStates(rec.Cycles, rec.PodGroups, never, rec.Queue)
	var wantState recorder.PodState
	for _, st := range want {
		if st.Pod.Name == "pair-1-1" {
			wantState = st
		}
	}
	if wantState.State != recorder.PodUnschedulable || wantState.Message != final {
		t.Fatalf("GroupPodStates gives pair-1-1 %s %q, want Unschedulable with its group's message", wantState.State, wantState.Message)
	}
	// Every pod as GroupPodStates has it, and no row for a pod group's own
	// queue moves.
	row := func(st recorder.PodState) string {
		return fmt.Sprintf("%s %s %s %s %q", st.Pod.Key(), st.State, st.Node, st.Reason, st.Message)
	}
	var wantRows, gotRows []string
	for _, st := range want {
		wantRows = append(wantRows, row(st))
	}
	for _, r := range podsOf(m).All() {
		gotRows = append(gotRows, row(r.PodState))
	}
	slices.Sort(wantRows)
	slices.Sort(gotRows)
	if diff := cmp.Diff(wantRows, gotRows); diff != "" {
		t.Errorf("Pods view's pods, against recorder.GroupPodStates (-want +got):\n%s", diff)
	}
}
