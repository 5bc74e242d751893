package tui

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	goldenfile "github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
)

// loadRecording reads testdata/<name>.rec.
func loadRecording(t testing.TB, name string) *recorder.Recording {
	t.Helper()
	rec, err := recorder.LoadFile(filepath.Join("testdata", name+".rec"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Cycles) == 0 {
		t.Fatalf("testdata/%s.rec has no cycles", name)
	}
	return rec
}

// newSession returns a root model sized w×h that received the recording's
// header and cycles, as a replay would deliver them.
func newSession(t testing.TB, rec *recorder.Recording, ctl source.Controller, w, h int) Model {
	t.Helper()
	return newSessionWith(rec, Options{Source: "replay test.rec", Control: ctl}, w, h)
}

// newSessionWith is newSession with the session's options.
func newSessionWith(rec *recorder.Recording, opts Options, w, h int) Model {
	m := New(opts)
	m = send(m, tea.WindowSizeMsg{Width: w, Height: h})
	evs := []source.Event{{Header: &rec.Header}}
	for _, c := range rec.Cycles {
		evs = append(evs, source.Event{Cycle: c})
	}
	return send(m, eventsMsg{events: evs})
}

// send runs one Update and returns the root model.
func send(m Model, msg tea.Msg) Model {
	next, _ := m.Update(msg)
	return next.(Model)
}

// sendCmd runs one Update and returns the model and the command.
func sendCmd(m Model, msg tea.Msg) (Model, tea.Cmd) {
	next, cmd := m.Update(msg)
	return next.(Model), cmd
}

// press builds the key press for a key name as bubbletea spells it.
func press(k string) tea.KeyPressMsg {
	special := map[string]tea.Key{
		"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape}, "tab": {Code: tea.KeyTab},
		"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift}, "space": {Code: tea.KeySpace, Text: " "},
		"left": {Code: tea.KeyLeft}, "right": {Code: tea.KeyRight}, "up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown},
		"backspace": {Code: tea.KeyBackspace}, "ctrl+c": {Code: 'c', Mod: tea.ModCtrl},
		"ctrl+d": {Code: 'd', Mod: tea.ModCtrl}, "ctrl+u": {Code: 'u', Mod: tea.ModCtrl},
	}
	if k, ok := special[k]; ok {
		return tea.KeyPressMsg(k)
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// keys sends key presses in order; "text:abc" types abc.
func keys(m Model, ks ...string) Model {
	for _, k := range ks {
		if s, ok := strings.CutPrefix(k, "text:"); ok {
			for _, r := range s {
				m = send(m, press(string(r)))
			}
			continue
		}
		m = send(m, press(k))
	}
	return m
}

// screen is the stripped text of the model's view.
func screen(m Model) string { return ansi.Strip(m.View().Content) }

// golden compares got with testdata/golden/<name>.golden, rewriting it
// with -update (tui/internal/golden, as every component's goldens).
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, name, got)
}

// fakeController records the calls the TUI makes.
type fakeController struct {
	calls       []string
	breakpoints []source.Breakpoints
}

func (f *fakeController) Pause()  { f.calls = append(f.calls, "Pause") }
func (f *fakeController) Resume() { f.calls = append(f.calls, "Resume") }
func (f *fakeController) Step()   { f.calls = append(f.calls, "Step") }
func (f *fakeController) SetBreakpoints(b source.Breakpoints) {
	f.calls = append(f.calls, "SetBreakpoints")
	f.breakpoints = append(f.breakpoints, b)
}

var _ source.Controller = (*fakeController)(nil)

// run executes a command returned by Update, as the program would.
func run(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	return cmd()
}

// toPhase steps the open cycle to phase p with h and l.
func toPhase(t testing.TB, m Model, p cyclepage.Phase) Model {
	t.Helper()
	for range cyclepage.NumPhases {
		switch {
		case m.view.Phase() < p:
			m = keys(m, "l")
		case m.view.Phase() > p:
			m = keys(m, "h")
		default:
			return m
		}
	}
	if m.view.Phase() != p {
		t.Fatalf("could not step to %v, at %v", p, m.view.Phase())
	}
	return m
}

// cycleBuilder builds a small bound cycle for tests:
// makeCycle(1, "web").nodes("a", "b").reject(0, "no").score("S", 1, 7).obj().
type cycleBuilder struct {
	c     *recorder.Cycle
	names *recorder.NodeSet // the node names, kept when the cycle loses them
}

// makeCycle starts cycle seq of pod default/pod, with the filter plugins
// NodeName and NodeResourcesFit.
func makeCycle(seq int, pod string) *cycleBuilder {
	return &cycleBuilder{c: &recorder.Cycle{
		Seq: seq, Pod: recorder.PodRef{Namespace: "default", Name: pod}, Profile: "default-scheduler", Attempt: 1,
		Start:     time.Date(2026, 1, 1, 0, 0, seq, 0, time.UTC),
		PreFilter: &recorder.PreFilterPhase{Code: recorder.CodeSuccess},
		Filter:    &recorder.FilterPhase{Plugins: []string{"NodeName", "NodeResourcesFit"}},
		Score:     &recorder.ScorePhase{},
	}}
}

// nodes sets the node set; every node passes filtering unless rejected.
func (b *cycleBuilder) nodes(names ...string) *cycleBuilder {
	b.c.Nodes = &recorder.NodeSet{ID: 1, Names: names}
	b.c.NodeSetID, b.c.NodesToFind = 1, len(names)
	b.c.Filter.Feasible, b.c.Filter.Evaluated = nil, len(names)
	for i := range names {
		b.c.Filter.Feasible = append(b.c.Filter.Feasible, i)
	}
	b.c.Score.Nodes = slices.Clone(b.c.Filter.Feasible)
	return b
}

// reject makes NodeResourcesFit reject node i with reasons.
func (b *cycleBuilder) reject(i int, reasons ...string) *cycleBuilder {
	f := b.c.Filter
	f.Feasible = slices.DeleteFunc(f.Feasible, func(n int) bool { return n == i })
	f.Rejected = append(f.Rejected, recorder.NodeStatus{Node: i, Plugin: 1, Code: recorder.CodeUnschedulable, Reasons: reasons})
	b.c.Score.Nodes = slices.Clone(f.Feasible)
	return b
}

// score adds a score plugin with one raw score per feasible node.
func (b *cycleBuilder) score(plugin string, weight int64, raw ...int64) *cycleBuilder {
	b.c.Score.Plugins = append(b.c.Score.Plugins, recorder.ScorePlugin{Name: plugin, Weight: weight, Raw: raw})
	return b
}

// withoutNodeSet drops the node names, as a recording whose node set is
// missing delivers the cycle.
func (b *cycleBuilder) withoutNodeSet() *cycleBuilder {
	b.names, b.c.Nodes = b.c.Nodes, nil
	return b
}

// obj totals the scores and selects the host as the scheduler does.
func (b *cycleBuilder) obj() *recorder.Cycle {
	c := b.c
	s := c.Score
	s.Totals = make([]int64, len(s.Nodes))
	for k := range s.Nodes {
		for p := range s.Plugins {
			s.Totals[k] += s.Weighted(p, k)
		}
	}
	if len(s.Nodes) == 0 {
		c.Outcome = recorder.Outcome{Result: recorder.ResultUnschedulable, Message: "0/N nodes are available"}
		return c
	}
	best := slices.Max(s.Totals)
	sel := &recorder.Selection{Best: best, Rule: recorder.RuleHighestScore}
	for k, t := range s.Totals {
		if t == best {
			sel.Top = append(sel.Top, s.Nodes[k])
		}
	}
	if len(sel.Top) > 1 {
		sel.Rule = recorder.RuleTie
	}
	names := c.Nodes
	if names == nil {
		names = b.names
	}
	sel.Node = names.Names[sel.Top[0]]
	c.Selection = sel
	c.Outcome = recorder.Outcome{Result: recorder.ResultBound, Node: sel.Node}
	return c
}

// detailOpen tells whether the cycle view shows a node's detail.
func detailOpen(m Model) bool {
	_, ok := m.view.DetailNode()
	return ok
}
