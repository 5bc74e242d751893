package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
)

// fakeRecording serves a replay's cycles by entry, as a file would, and
// counts what it was asked.
type fakeRecording struct {
	cycles map[int]*recorder.Cycle // by Seq
	broken map[int]error
	opened []int
	usages int
}

var _ source.Recording = (*fakeRecording)(nil)

func (f *fakeRecording) Open(e recorder.CycleEntry) (*recorder.Cycle, error) {
	f.opened = append(f.opened, e.Seq)
	if err := f.broken[e.Seq]; err != nil {
		return nil, err
	}
	return f.cycles[e.Seq], nil
}

func (f *fakeRecording) Usage(entries []recorder.CycleEntry) (*recorder.Usage, error) {
	f.usages++
	var cycles []*recorder.Cycle
	for _, e := range entries {
		cycles = append(cycles, f.cycles[e.Seq])
	}
	return recorder.UsageAt(cycles, len(cycles)-1), nil
}

// indexedSession is newSession for a replay read through an index: the
// source sends entries, and the cycles are read from rec when shown.
func indexedSession(t testing.TB, cycles []*recorder.Cycle, h *recorder.Header, w, ht int) (Model, *fakeRecording) {
	t.Helper()
	f := &fakeRecording{cycles: map[int]*recorder.Cycle{}, broken: map[int]error{}}
	var entries []recorder.CycleEntry
	for _, c := range cycles {
		f.cycles[c.Seq] = c
		entries = append(entries, recorder.EntryOf(c))
	}
	closed := make(chan source.Event)
	close(closed) // the events come below; reading more ends at once
	m := New(Options{Source: "replay test.rec", Recording: f, Events: closed})
	m = settle(m, tea.WindowSizeMsg{Width: w, Height: ht})
	m = settle(m, eventsMsg{events: []source.Event{{Header: h}, {Entries: entries}, {State: &source.EngineState{State: source.StateDone}}, {Done: true}}})
	return m, f
}

// settle runs one Update and then the reads it starts, as the program
// would, until nothing more is read.
func settle(m Model, msg tea.Msg) Model {
	next, cmd := m.Update(msg)
	m = next.(Model)
	pending := []tea.Cmd{cmd}
	for len(pending) > 0 {
		cmd, pending = pending[0], pending[1:]
		if cmd == nil {
			continue
		}
		switch msg := cmd().(type) {
		case tea.BatchMsg:
			pending = append(pending, msg...)
		case cycleOpenedMsg, usageReadMsg, groupMembersMsg:
			next, cmd := m.Update(msg)
			m = next.(Model)
			pending = append(pending, cmd)
		}
	}
	return m
}

// settleKeys presses keys, settling after each.
func settleKeys(m Model, ks ...string) Model {
	for _, k := range ks {
		if s, ok := strings.CutPrefix(k, "text:"); ok {
			for _, r := range s {
				m = settle(m, press(string(r)))
			}
			continue
		}
		m = settle(m, press(k))
	}
	return m
}

// body drops the status bar, which says how the cycles were delivered.
func body(s string) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[:len(lines)-2], "\n")
}

func TestIndexedReplayDrawsWhatAWholeReplayDraws(t *testing.T) {
	rec := loadRecording(t, "preemption")
	tests := []struct {
		name string
		keys []string
	}{
		{"first cycle", nil},
		{"open the first", []string{"enter"}},
		{"last, opened, a phase on", []string{"G", "enter", "l"}},
		{"step through cycles", []string{"enter", "]", "]", "["}},
		{"command", []string{":", "text:cycle 2", "enter"}},
		{"filter", []string{"/", "text:outcome:bound", "enter", "enter"}},
	}
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s %dx%d", tt.name, size[0], size[1]), func(t *testing.T) {
				whole := newSession(t, rec, nil, size[0], size[1])
				// A whole replay follows the tail; an indexed one starts
				// at the first cycle.
				whole = keys(whole, "g")
				whole = keys(whole, tt.keys...)
				indexed, _ := indexedSession(t, rec.Cycles, &rec.Header, size[0], size[1])
				indexed = settleKeys(indexed, tt.keys...)
				if diff := cmp.Diff(body(screen(whole)), body(screen(indexed))); diff != "" {
					t.Errorf("screens (-whole +indexed):\n%s", diff)
				}
			})
		}
	}
}

// manyCycles returns n bound cycles of distinct pods, every third one
// unschedulable.
func manyCycles(n int) []*recorder.Cycle {
	var cycles []*recorder.Cycle
	for seq := 1; seq <= n; seq++ {
		b := makeCycle(seq, fmt.Sprintf("pod-%d", seq)).nodes("a", "b").score("S", 1, 1, 2)
		if seq%3 == 0 {
			b = makeCycle(seq, fmt.Sprintf("pod-%d", seq)).nodes("a", "b").reject(0, "no").reject(1, "no")
		}
		cycles = append(cycles, b.obj())
	}
	return cycles
}

func TestIndexedReplayKeepsABoundedWindow(t *testing.T) {
	m, f := indexedSession(t, manyCycles(200), &recorder.Header{}, 80, 24)
	if diff := cmp.Diff([]int{1}, f.opened); diff != "" {
		t.Fatalf("cycles read to show the first (-want +got):\n%s", diff)
	}
	for range 199 {
		m = settleKeys(m, "j")
	}
	if m.view.Cycle() == nil || m.view.Cycle().Seq != 200 {
		t.Fatalf("after stepping down the list, the view shows %v, want cycle 200", m.view.Cycle())
	}
	kept := 0
	for _, c := range m.cycles {
		if c != nil {
			kept++
		}
	}
	if kept > maxOpenCycles || kept == 0 {
		t.Errorf("%d cycles kept decoded, want at most %d", kept, maxOpenCycles)
	}
	// Going back reads an evicted cycle again.
	reads := len(f.opened)
	m = settleKeys(m, "g")
	if len(f.opened) != reads+1 || m.view.Cycle().Seq != 1 {
		t.Errorf("back to the first: %d more reads, showing %v", len(f.opened)-reads, m.view.Cycle())
	}
}

func TestIndexedReplayFiltersWithoutReading(t *testing.T) {
	m, f := indexedSession(t, manyCycles(90), &recorder.Header{}, 80, 24)
	reads := len(f.opened)
	m = settleKeys(m, "/", "text:outcome:unschedulable plugin:noderesourcesfit")
	if got := len(m.list.Rows()); got != 30 {
		t.Errorf("%d rows match, want the 30 unschedulable cycles", got)
	}
	m = settleKeys(m, "enter")
	// Filtering read nothing; the cycle now selected is read to be shown.
	if extra := len(f.opened) - reads; extra > 1 {
		t.Errorf("filtering read %d cycles, want at most the one selected", extra)
	}
	if c := m.view.Cycle(); c == nil || c.Outcome.Result != recorder.ResultUnschedulable {
		t.Errorf("the view shows %v, want an unschedulable cycle", c)
	}
}

func TestIndexedReplayReportsAnUnreadableCycle(t *testing.T) {
	cycles := manyCycles(3)
	f := &fakeRecording{}
	m, f := indexedSession(t, cycles, &recorder.Header{}, 80, 24)
	f.broken = map[int]error{2: &recorder.ErrCorrupt{Offset: 1234, Reason: "score.plugins.raw: runs expand to more than 2 values"}}
	m = settleKeys(m, "j", "enter")
	s := screen(m)
	for _, want := range []string{"cycle 2 could not be read: corrupt record at byte 1234", "1 problem", "› cycle 2"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	// Back in the list it is on its row, listed and counted as unreadable.
	m = settleKeys(m, "esc")
	s = screen(m)
	if m.list.Selected() != 1 || !strings.Contains(s, "! Unreadable") || m.counts.errors != 1 || m.counts.bound+m.counts.unschedulable != 2 {
		t.Errorf("selected %d, counts %+v:\n%s", m.list.Selected(), m.counts, s)
	}
	// It is not asked for again, and the others still open.
	reads := len(f.opened)
	m = settleKeys(m, "k", "j")
	if got := len(f.opened) - reads; got != 0 {
		t.Errorf("read %d more times after it failed", got)
	}
	m = settleKeys(m, "j", "enter")
	if c := m.view.Cycle(); c == nil || c.Seq != 3 || strings.Contains(screen(m), "could not be read") {
		t.Errorf("cycle 3 after the unreadable one: %v\n%s", c, screen(m))
	}
}

func TestIndexedReplayReadsNodeUseForTheDetail(t *testing.T) {
	cycles := manyCycles(4)
	cycles[0].NodeUse = []recorder.NodeUse{{Node: 1, Generation: 1, Pods: []recorder.PodRef{{Namespace: "default", Name: "earlier"}}}}
	m, f := indexedSession(t, cycles, &recorder.Header{}, 200, 50)
	m = settleKeys(m, "j", "enter", ":", "text:phase filter", "enter", "enter")
	if !detailOpen(m) {
		t.Fatalf("no node detail on phase %v:\n%s", m.view.Phase(), screen(m))
	}
	if f.usages != 1 || m.view.WaitsForUsage() {
		t.Fatalf("node use read %d times, pending %v", f.usages, m.view.WaitsForUsage())
	}
	if s := screen(m); !strings.Contains(s, "default/earlier") {
		t.Errorf("the detail of node b (the winner) lacks the pod an earlier cycle placed:\n%s", s)
	}
}
