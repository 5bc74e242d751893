// Package cyclepage is the cycle view: one scheduling cycle, phase by phase
// (Queue … PostBind), under its header and phase bar. It composes the phase
// views, the node detail and the explain panel, routes keys to the one on
// screen, and lays them out; the hint under the body is generated from their
// key bindings.
package cyclepage

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/components/bindphase"
	"github.com/schedscope/schedscope/tui/components/explain"
	"github.com/schedscope/schedscope/tui/components/nodedetail"
	"github.com/schedscope/schedscope/tui/components/nodephase"
	"github.com/schedscope/schedscope/tui/components/nodetable"
	"github.com/schedscope/schedscope/tui/components/postfilterphase"
	"github.com/schedscope/schedscope/tui/components/prefilterphase"
	"github.com/schedscope/schedscope/tui/components/queuephase"
	"github.com/schedscope/schedscope/tui/components/selectphase"
	"github.com/schedscope/schedscope/tui/theme"
)

// Model steps through one cycle phase by phase.
type Model struct {
	st   *theme.Styles
	Keys KeyMap

	header *recorder.Header
	cycles []*recorder.Cycle // all cycles up to and including this one, for node usage
	index  int
	c      *recorder.Cycle
	// indexed says the cycles are a replay's window, not all of them: node
	// use then comes from SetUsage (usage, as of cycle index usageAt).
	indexed bool
	usage   *recorder.Usage
	usageAt int
	// pending, when set, is shown instead of the cycle: the one asked for
	// is still being read, or could not be.
	pending string
	a       *analysis.Result
	// observed is the live cluster's binding of the cycle's pod, or nil.
	observed *recorder.Observed
	// mark is the note the shown cycle is marked with, or "" (SetMark).
	mark string
	// group is what the explain panel tells of the cycle's pod group
	// (SetGroup), "" for a pod in none.
	group string
	// titleH is how many lines the cycle header takes (1, or 2 when the
	// cluster's binding does not fit beside it).
	titleH int

	phase Phase
	// nodes shows Filter, Score, NormalizeScore and the weighted sum.
	nodes nodephase.Model
	// The text phase views: bind shows Reserve, Permit, PreBind, Bind and
	// PostBind.
	queue      queuephase.Model
	preFilter  prefilterphase.Model
	postFilter postfilterphase.Model
	selectHost selectphase.Model
	bind       bindphase.Model
	scroll     int // scroll offset of text phases
	// explain is the explain panel: beside the body when there is room,
	// over it otherwise.
	explain explain.Model
	detail  *nodedetail.Model
	// runs tells the what-if re-runs from recorded cycles.
	runs Runs

	w, h int
}

// New returns an empty cycle view.
func New(st *theme.Styles) Model {
	return Model{st: st, Keys: DefaultKeyMap(), nodes: nodephase.New(st), explain: explain.New(st),
		queue: queuephase.New(st), preFilter: prefilterphase.New(st), postFilter: postfilterphase.New(st),
		selectHost: selectphase.New(st), bind: bindphase.New(st)}
}

// ShortHelp implements help.KeyMap: the view's keys and its panel's.
func (v Model) ShortHelp() []key.Binding {
	return slices.Concat(v.Keys.ShortHelp(), v.nodes.Keys.ShortHelp(), v.explain.Keys.ShortHelp())
}

// FullHelp implements help.KeyMap.
func (v Model) FullHelp() [][]key.Binding {
	return slices.Concat(v.Keys.FullHelp(), v.nodes.Keys.FullHelp(), v.explain.Keys.FullHelp())
}

// SetHeader gives the view the recording header (profiles, weights).
func (v *Model) SetHeader(h *recorder.Header) {
	v.header = h
	v.bind.SetHeader(h)
}

// scorePlugins names the score plugins of the shown cycle's profile, in
// the order it calls them; nil when the header does not say.
func (v *Model) scorePlugins() []string {
	if v.header == nil {
		return nil
	}
	p := v.header.Profile(v.c.Profile)
	if p == nil {
		return nil
	}
	var names []string
	for _, e := range p.ExtensionPoints {
		if e.Name == recorder.PhaseScore {
			for _, pl := range e.Plugins {
				names = append(names, pl.Name)
			}
		}
	}
	return names
}

// SetCycle shows cycles[i]. The sort and filters are kept, and so is the phase
// when it ran in this cycle too, so that stepping between cycles compares like
// with like; otherwise the cycle opens on the phase that decided its outcome.
func (v *Model) SetCycle(cycles []*recorder.Cycle, i int) {
	v.setCycle(cycles, i, false)
}

// Await shows text instead of a cycle until cycle index i is set: it is
// being read, or could not be.
func (v *Model) Await(i int, text string) {
	v.pending = text
	if v.index != i {
		v.detail = nil
	}
	v.index = i // the cycle the view is on, for the list to come back to
}

// SetUsage gives a replay's view the node use as of cycle index i.
func (v *Model) SetUsage(i int, u *recorder.Usage) {
	v.usage, v.usageAt = u, i
	if v.detail != nil && v.index == i && v.c != nil {
		v.detail.SetUsage(u)
	}
	v.setShortfalls()
}

// setShortfalls gives the Filter table the numbers behind the shown
// cycle's resource rejections, when the node use as of the cycle is known.
func (v *Model) setShortfalls() {
	if v.c == nil || !v.c.RejectedForResources() {
		return
	}
	if u := v.nodeUsage(); u != nil {
		v.nodes.SetShortfalls(recorder.ShortfallsOf(v.c, u))
	}
}

// NodeUsage is the node use as of the shown cycle, or nil while a replay
// has not read it yet (a replay's cycles before it may not be read).
func (v *Model) NodeUsage() *recorder.Usage { return v.nodeUsage() }

// nodeUsage is the node use as of the shown cycle, or nil while a replay
// has not read it yet.
func (v *Model) nodeUsage() *recorder.Usage {
	if !v.indexed {
		return recorder.UsageAt(v.UsageCycles())
	}
	if v.usage != nil && v.usageAt == v.index {
		return v.usage
	}
	return nil
}

// OpenCycle shows cycles[i] on the phase that decided its outcome.
func (v *Model) OpenCycle(cycles []*recorder.Cycle, i int) {
	v.setCycle(cycles, i, true)
}

func (v *Model) setCycle(cycles []*recorder.Cycle, i int, decisive bool) {
	if i < 0 || i >= len(cycles) || cycles[i] == nil {
		return
	}
	v.pending = ""
	if v.c == cycles[i] {
		v.cycles = cycles
		if decisive && v.phase != Decisive(v.c) {
			v.phase, v.detail = Decisive(v.c), nil
			v.enterPhase()
			v.focusRejection()
		}
		return
	}
	if ran, _ := Ran(cycles[i], v.phase); decisive || v.c == nil || !ran {
		v.phase = Decisive(cycles[i])
	}
	v.cycles, v.index, v.c = cycles, i, cycles[i]
	v.observed, v.mark = nil, ""
	v.a = analysis.Of(v.c)
	v.nodes.SetCycle(v.c, v.a)
	v.nodes.SetScoreOrder(v.scorePlugins())
	v.setShortfalls()
	v.measureTitle()
	v.enterPhase()
	v.focusRejection()
}

// SetObserved gives the view the live cluster's binding of the shown cycle's
// pod; nil when there is none (yet).
func (v *Model) SetObserved(o *recorder.Observed) {
	if v.rerun(v.c) {
		o = nil // the cluster bound the recorded cycle's pod, not a what-if's
	}
	if v.observed == o {
		return
	}
	v.observed = o
	v.selectHost.SetObserved(o)
	v.SetSize(v.w, v.h)
}

// SetGroup says what the explain panel tells of the cycle's pod group: the
// member's story through it and what a pod-group cycle is; "" for none.
func (v *Model) SetGroup(text string) { v.group = text }

// SetMark shows the note the shown cycle is marked with in its header
// ("" for none).
func (v *Model) SetMark(note string) {
	if v.mark == note {
		return
	}
	v.mark = note
	v.SetSize(v.w, v.h)
}

// SetIndexed says the cycles are a replay's window, not all of them: node
// use then comes from SetUsage.
func (v *Model) SetIndexed(b bool) { v.indexed = b }

// SetRuns tells the view the what-if re-runs, so that it labels them.
func (v *Model) SetRuns(r Runs) { v.runs = r }

// Runs tells what-if re-runs from recorded cycles.
type Runs interface {
	// Label names c when it is a re-run ("3'"), ok false for a recorded cycle.
	Label(c *recorder.Cycle) (string, bool)
	// Any reports whether there is a re-run at all.
	Any() bool
}

// label names c when it is a what-if re-run.
func (v *Model) label(c *recorder.Cycle) (string, bool) {
	if v.runs == nil {
		return "", false
	}
	return v.runs.Label(c)
}

// rerun tells whether c is a what-if re-run rather than a recorded cycle.
func (v *Model) rerun(c *recorder.Cycle) bool {
	_, ok := v.label(c)
	return ok
}

// Index is the index of the cycle the view is on (or waits for).
func (v Model) Index() int { return v.index }

// Pending reports whether the view waits for its cycle (or could not get it).
func (v Model) Pending() bool { return v.pending != "" }

// WaitsForUsage reports whether the view waits for the node use of the
// shown cycle (SetUsage): an open node detail does, and so does a replay's
// recorded cycle that NodeResourcesFit rejected nodes in, for the numbers.
func (v Model) WaitsForUsage() bool {
	if v.pending != "" || v.c == nil {
		return false
	}
	if v.detail != nil && v.detail.Pending() {
		return true
	}
	return v.indexed && v.c.RejectedForResources() && !v.rerun(v.c) && !(v.usage != nil && v.usageAt == v.index)
}

// DetailNode names the node whose detail is open, ok false when none is.
func (v Model) DetailNode() (string, bool) {
	if v.detail == nil || v.c == nil {
		return "", false
	}
	return v.c.NodeName(v.detail.Node()), true
}

// Selected is the node the view is on: the open node detail's, or the node
// table's in a node phase; ok false when there is none.
func (v Model) Selected() (int, bool) {
	switch {
	case v.detail != nil:
		return v.detail.Node(), true
	case v.phase.nodeRows():
		return v.nodes.Selected()
	}
	return 0, false
}

// SelectedPlugin names the plugin the view is on, as the explain panel does.
func (v Model) SelectedPlugin() string { return v.selectedPlugin() }

// Observed is the live cluster's binding of the shown cycle's pod, or nil.
func (v Model) Observed() *recorder.Observed { return v.observed }

// Nodes is the node phases' view, to read what it shows.
func (v Model) Nodes() nodephase.Model { return v.nodes }

// Column is the node phases' selected plugin column.
func (v Model) Column() int { return v.nodes.Column() }

// SetPhase shows phase p of the cycle.
func (v *Model) SetPhase(p Phase) {
	v.phase = p
	v.enterPhase()
}

// NextRanPhase shows the next phase the cycle ran, and says false (showing
// the same) when it ran none after the one shown.
func (v *Model) NextRanPhase() bool {
	if v.c == nil {
		return false
	}
	for p := v.phase + 1; p < NumPhases; p++ {
		if ran, _ := Ran(v.c, p); ran {
			v.goTo(p)
			return true
		}
	}
	return false
}

// goTo shows phase p as the phase keys do: node detail closed, the
// rejecting plugin in focus.
func (v *Model) goTo(p Phase) {
	v.detail = nil
	v.SetPhase(p)
	v.focusRejection()
}

// SetQueueMoves gives the Queue phase the queue's events of the shown
// cycle's pod that led to it (queuephase.Moves).
func (v *Model) SetQueueMoves(moves []*recorder.QueueEvent) {
	v.queue.SetRender(queuephase.With(moves))
}

// Cycle returns the cycle shown, or nil.
func (v Model) Cycle() *recorder.Cycle { return v.c }

// Phase returns the current phase.
func (v Model) Phase() Phase { return v.phase }

// SetSize sets the view's outer size.
func (v *Model) SetSize(w, h int) {
	v.w, v.h = w, h
	v.explain.SetBeside(v.explainBeside())
	v.measureTitle()
	v.nodes.SetSize(v.bodyWidth(), v.bodyHeight())
	v.sizeText()
	if v.detail != nil {
		v.detail.SetSize(v.bodyWidth(), v.bodyHeight())
	}
}

// SetNodeFilter filters node rows by a name substring.
func (v *Model) SetNodeFilter(s string) {
	v.nodes.SetName(strings.TrimSpace(s))
	v.updateKeys()
}

// SetSort orders the node rows by s.
func (v *Model) SetSort(s nodetable.Sort) { v.nodes.SetSort(s) }

// NodeFilter returns the node name filter.
func (v Model) NodeFilter() string { return v.nodes.Name() }

// UsageCycles are the cycles whose node use the node detail adds up: a
// re-run carries its own, from the fork's first cycle; a recorded cycle
// adds up the recorded cycles up to it, never a re-run listed among them.
func (v *Model) UsageCycles() ([]*recorder.Cycle, int) {
	if v.rerun(v.c) {
		return []*recorder.Cycle{v.c}, 0
	}
	if v.runs == nil || !v.runs.Any() || v.index >= len(v.cycles) {
		return v.cycles, v.index
	}
	var recorded []*recorder.Cycle
	for _, c := range v.cycles[:v.index+1] {
		if !v.rerun(c) {
			recorded = append(recorded, c)
		}
	}
	return recorded, len(recorded) - 1
}
