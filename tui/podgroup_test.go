package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
)

// gangSession is a session that received testdata/gang.rec as a source
// sends it: the cycles and the pod-group cycles, in recording order.
func gangSession(t *testing.T, w, h int) (Model, *recorder.Recording) {
	t.Helper()
	rec := loadRecording(t, "gang")
	if len(rec.PodGroups) == 0 {
		t.Fatal("testdata/gang.rec has no pod-group cycle")
	}
	m := New(Options{Source: "replay gang.rec"})
	m = send(m, tea.WindowSizeMsg{Width: w, Height: h})
	evs := []source.Event{{Header: &rec.Header}}
	for _, c := range rec.Cycles {
		evs = append(evs, source.Event{Cycle: c})
	}
	for _, g := range rec.PodGroups {
		evs = append(evs, source.Event{PodGroup: g})
	}
	return send(m, eventsMsg{events: evs}), rec
}

// memberIndex is the list index of pod's cycle.
func memberIndex(t *testing.T, m Model, pod string) int {
	t.Helper()
	for i, c := range m.cycles {
		if c.Pod.Name == pod {
			return i
		}
	}
	t.Fatalf("no cycle of %s", pod)
	return -1
}

func TestPodGroupPageFromAMembersCycle(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		m, _ := gangSession(t, size[0], size[1])
		m.open(memberIndex(t, m, "infer-2"))
		if !strings.Contains(screen(m), "t its pod group") {
			t.Errorf("%dx%d: a member's cycle does not offer its pod group in the help line:\n%s", size[0], size[1], screen(m))
		}
		m = keys(m, "t")
		got := screen(m)
		for _, want := range []string{"pod-group cycle 2 · default/infer", "gang, minCount 3", "▸ infer-2", "fit nowhere"} {
			if !strings.Contains(got, want) {
				t.Errorf("%dx%d: after t the screen does not say %q:\n%s", size[0], size[1], want, got)
			}
		}
		golden(t, fmt.Sprintf("podgroup-infer-%dx%d", size[0], size[1]), got)
		// enter opens the selected member's own cycle; esc from the page
		// goes back where it was.
		m = keys(m, "up", "enter")
		if c := m.view.Cycle(); m.top() != nil || c == nil || c.Pod.Name != "infer-1" {
			t.Errorf("%dx%d: enter on infer-1 did not open its cycle:\n%s", size[0], size[1], screen(m))
		}
		m = keys(m, "t", "esc")
		if m.top() != nil || m.view.Cycle().Pod.Name != "infer-1" {
			t.Errorf("%dx%d: esc did not leave the page for the cycle:\n%s", size[0], size[1], screen(m))
		}
	}
}

func TestGroupCommand(t *testing.T) {
	m, _ := gangSession(t, 80, 24)
	m = keys(m, ":", "text:group train", "enter")
	if got := screen(m); !strings.Contains(got, "pod-group cycle 1 · default/train") || !strings.Contains(got, "bound to s") {
		t.Errorf(":group train did not open train's page:\n%s", got)
	}
	m = keys(m, "esc", ":", "text:group infre", "enter")
	if got := screen(m); m.top() != nil || !strings.Contains(got, `no pod-group cycle of "infre"`) || !strings.Contains(got, "infer") {
		t.Errorf(":group infre should say there is none and suggest infer:\n%s", got)
	}
	// A session without pod groups: t says why there is none.
	m2 := newSession(t, loadRecording(t, "default"), nil, 80, 24)
	m2 = keys(m2, "enter", "t")
	if m2.top() != nil || !strings.Contains(screen(m2), "no pod-group cycle") {
		t.Errorf("t in a session without pod groups:\n%s", screen(m2))
	}
}

func TestCycleListMarksGroupMembers(t *testing.T) {
	m, _ := gangSession(t, 120, 24)
	got := screen(m)
	for _, want := range []string{"infer-2 pg/infer", "train-0 pg/train"} {
		if !strings.Contains(got, want) {
			t.Errorf("the list does not mark %q:\n%s", want, got)
		}
	}
	m = keys(m, "/", "text:group:infer", "enter")
	if n := len(m.list.Rows()); n != 3 {
		t.Errorf("/group:infer lists %d cycles, want infer's 3:\n%s", n, screen(m))
	}
}

// TestExplainPanelTellsTheGroup: a member's cycle's explain panel tells the
// member's story through its group and what a pod-group cycle is.
func TestExplainPanelTellsTheGroup(t *testing.T) {
	m, _ := gangSession(t, 80, 60)
	m.open(memberIndex(t, m, "infer-1"))
	if !strings.Contains(screen(m), "Explain ·") {
		m = keys(m, "e")
	}
	got := strings.Join(strings.Fields(screen(m)), " ")
	for _, want := range []string{"Pod group", "This pod is a member of default/infer (gang, minCount 3)", "but the group default/infer failed in pod-group cycle 2", "A gang binds only when at least minCount members were placed"} {
		if !strings.Contains(got, want) {
			t.Errorf("the explain panel does not say %q:\n%s", want, screen(m))
		}
	}
}

// TestIndexedReplayReadsTheMembers: a replay read through an index holds
// few cycles; the pod-group page reads its members' to draw what each
// member's filters made of each node, as a whole replay draws it.
func TestIndexedReplayReadsTheMembers(t *testing.T) {
	rec := loadRecording(t, "gang")
	m, f := indexedSession(t, rec.Cycles, &rec.Header, 80, 24)
	var evs []source.Event
	for _, g := range rec.PodGroups {
		evs = append(evs, source.Event{PodGroup: g})
	}
	m = settle(m, eventsMsg{events: evs})
	m = settleKeys(m, ":", "text:group infer", "enter")
	whole, _ := gangSession(t, 80, 24)
	whole = keys(whole, ":", "text:group infer", "enter")
	if diff := cmp.Diff(body(screen(whole)), body(screen(m))); diff != "" {
		t.Errorf("the indexed replay's page differs from the whole replay's (-whole +indexed):\n%s", diff)
	}
	for _, seq := range []int{3, 4, 5} {
		if !slices.Contains(f.opened, seq) {
			t.Errorf("member cycle %d was not read (read: %v)", seq, f.opened)
		}
	}
}
