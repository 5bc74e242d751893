// Package cyclepage is the cycle view: one scheduling cycle, phase by phase
// (Queue … PostBind), under its header and phase bar. It composes the phase
// views, the node detail and the explain panel, routes keys to the one on
// screen, and lays them out; the hint under the body is generated from their
// key bindings.
package cyclepage

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/components/bindphase"
	"github.com/schedscope/schedscope/tui/components/explain"
	"github.com/schedscope/schedscope/tui/components/livebinding"
	"github.com/schedscope/schedscope/tui/components/nodedetail"
	"github.com/schedscope/schedscope/tui/components/nodephase"
	"github.com/schedscope/schedscope/tui/components/nodetable"
	"github.com/schedscope/schedscope/tui/components/postfilterphase"
	"github.com/schedscope/schedscope/tui/components/prefilterphase"
	"github.com/schedscope/schedscope/tui/components/queuephase"
	"github.com/schedscope/schedscope/tui/components/selectphase"
	"github.com/schedscope/schedscope/tui/keyhint"
	"github.com/schedscope/schedscope/tui/layout"
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
}

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
	v.observed = nil
	v.a = analysis.Of(v.c)
	v.nodes.SetCycle(v.c, v.a)
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

// WaitsForUsage reports whether an open node detail waits for the node use
// of the shown cycle (SetUsage).
func (v Model) WaitsForUsage() bool {
	return v.detail != nil && v.detail.Pending() && v.pending == ""
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

// chrome is the cycle header, the phase bar and the hint line.
func (v *Model) chrome() int { return v.titleH + 2 }

func (v *Model) bodyHeight() int { return max(v.h-v.chrome(), 0) }

func (v *Model) bodyWidth() int {
	if v.explain.Shown() && v.explain.Beside() {
		return v.w - v.explainWidth() - 1
	}
	return v.w
}

// minBodyBesideExplain is the narrowest body the explain panel may sit beside:
// narrower, and a filter matrix's result column would be cut to a few words.
const minBodyBesideExplain = 100

// explainBeside tells whether the explain panel fits beside the body.
func (v *Model) explainBeside() bool { return v.w-v.explainWidth()-1 >= minBodyBesideExplain }
func (v *Model) explainWidth() int   { return layout.Clamp(v.w/4, 36, 56) }

// explainView renders the explain panel, w×h, on the phase and the selected
// plugin.
func (v *Model) explainView(w, h int) string {
	e := v.explain
	e.SetTopic(explain.Topic{Phase: v.phase.String(), PhaseDoc: phaseDoc(v.phase), Plugin: v.selectedPlugin()})
	e.SetSize(w, h)
	return e.View()
}

// enterPhase sets the node table up for the current phase.
func (v *Model) enterPhase() {
	v.scroll = 0
	defer v.updateKeys()
	if v.a == nil {
		return
	}
	switch point, bind := v.phase.bindPoint(); {
	case v.phase == Queue:
		v.queue.SetCycle(v.c)
	case v.phase == PreFilter:
		v.preFilter.SetCycle(v.c)
	case v.phase == PostFilter:
		v.postFilter.SetCycle(v.c)
	case v.phase == Select:
		v.selectHost.SetCycle(v.c, v.a)
		v.selectHost.SetObserved(v.observed)
	case bind:
		v.bind.SetCycle(v.c, point)
	}
	v.sizeText()
	if k, ok := v.phase.nodeKind(); ok {
		v.nodes.SetKind(k)
		v.nodes.SetSize(v.bodyWidth(), v.bodyHeight())
	}
}

// focusRejection puts the Filter matrix's plugin column on the plugin that
// rejected the selected node.
func (v *Model) focusRejection() {
	if v.phase == Filter {
		v.nodes.FocusRejection()
	}
}

// selectedPlugin names the plugin the explain panel talks about.
func (v *Model) selectedPlugin() string {
	if v.c == nil {
		return ""
	}
	switch v.phase {
	case Filter, Score, Normalize, Weighted:
		return v.nodes.Plugin()
	case PostFilter:
		// The plugins the cycle ran, as recorded (custom profiles replace
		// DefaultPreemption): the one with the last word. For a cycle that
		// did not get there, the profile's last: preemption runs after the
		// plugins that only tidy up (DynamicResources).
		if pf := v.c.PostFilter; pf != nil && len(pf.Plugins) > 0 {
			return actingPlugin(pf.Plugins)
		}
		return v.profilePlugin(recorder.PhasePostFilter, true)
	case Bind:
		if len(v.c.Bind) > 0 {
			return actingPlugin(v.c.Bind)
		}
		return v.profilePlugin(recorder.PhaseBind, false)
	}
	return ""
}

// profilePlugin is the first (or last) plugin the cycle's profile enables at
// an extension point, from the recording's header.
func (v *Model) profilePlugin(point string, last bool) string {
	if v.header == nil {
		return ""
	}
	for _, p := range v.header.Profiles {
		if p.SchedulerName != v.c.Profile {
			continue
		}
		for _, ep := range p.ExtensionPoints {
			if ep.Name == point && len(ep.Plugins) > 0 {
				if last {
					return ep.Plugins[len(ep.Plugins)-1].Name
				}
				return ep.Plugins[0].Name
			}
		}
	}
	return ""
}

// actingPlugin is the plugin that had the last word at an extension point
// where plugins run until one decides (PostFilter until one succeeds, Bind
// until one does not skip): the last one recorded.
func actingPlugin(ps []recorder.PluginStatus) string {
	return ps[len(ps)-1].Plugin
}

// updateKeys enables the keys that have something to act on in the current
// phase, so that the key bar offers nothing that would do nothing.
func (v *Model) updateKeys() {
	ran := v.c != nil
	if ran {
		ran, _ = Ran(v.c, v.phase)
	}
	nodes := ran && v.phase.nodeRows() && v.detail == nil
	_, row := v.nodes.Selected()
	v.Keys.Detail.SetEnabled(nodes && row)
	v.nodes.SetActive(v.phase.nodeRows(), nodes)
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

// Back closes what is open inside the view (node detail, explain panel, a
// filter) and reports whether there was anything to close.
func (v *Model) Back() bool {
	switch {
	case v.detail != nil:
		v.detail = nil
	case v.explain.Close():
	case v.nodes.Name() != "":
		v.SetNodeFilter("")
	default:
		return false
	}
	v.updateKeys()
	v.SetSize(v.w, v.h)
	return true
}

// Update handles the cycle view's keys and mouse.
func (v Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if v.c == nil || v.pending != "" {
		return v, nil
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		v.handleKey(msg)
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			v.moveRows(-1)
		case tea.MouseWheelDown:
			v.moveRows(1)
		}
	}
	return v, nil
}

func (v *Model) handleKey(msg tea.KeyPressMsg) {
	if d := v.detail; d != nil && key.Matches(msg, d.Keys.Up, d.Keys.Down) {
		next, _ := d.Update(msg)
		v.detail = &next
		return
	}
	if v.textHandles(msg) {
		v.updateText(msg)
		return
	}
	if v.phase.nodeRows() && (v.detail == nil || key.Matches(msg, v.nodes.Keys.Diagnostic)) && v.nodes.Handles(msg) {
		v.nodes, _ = v.nodes.Update(msg)
		v.updateKeys()
		return
	}
	k := v.Keys
	switch {
	case key.Matches(msg, k.PrevPhase):
		if v.phase > 0 {
			v.phase--
			v.detail = nil
			v.enterPhase()
			v.focusRejection()
		}
	case key.Matches(msg, k.NextPhase):
		if v.phase < NumPhases-1 {
			v.phase++
			v.detail = nil
			v.enterPhase()
			v.focusRejection()
		}
	case key.Matches(msg, k.Up):
		v.moveRows(-1)
	case key.Matches(msg, k.Down):
		v.moveRows(1)
	case key.Matches(msg, k.PageUp):
		v.moveRows(-v.page())
	case key.Matches(msg, k.PageDown):
		v.moveRows(v.page())
	case key.Matches(msg, k.Top):
		v.moveRows(-1 << 30)
	case key.Matches(msg, k.Bottom):
		v.moveRows(1 << 30)
	case key.Matches(msg, k.Detail):
		if node, ok := v.nodes.Selected(); ok {
			d := nodedetail.New(v.st, v.c, v.a, node)
			d.SetUsage(v.nodeUsage())
			if v.indexed {
				d.AwaitUsage()
			}
			d.SetSize(v.bodyWidth(), v.bodyHeight())
			v.detail = &d
			v.updateKeys()
		}
	case key.Matches(msg, v.explain.Keys.Toggle):
		v.explain, _ = v.explain.Update(msg)
		v.SetSize(v.w, v.h)
	}
}

// textShown tells whether the body is a text phase view: a phase other than
// the node phases, that ran.
func (v *Model) textShown() bool {
	if v.c == nil || v.phase.nodeRows() {
		return false
	}
	ran, _ := Ran(v.c, v.phase)
	return ran
}

// textHandles tells whether msg is a key of the text phase view on screen.
func (v *Model) textHandles(msg tea.KeyPressMsg) bool {
	if !v.textShown() {
		return false
	}
	switch v.phase {
	case Queue:
		return v.queue.Handles(msg)
	case PreFilter:
		return v.preFilter.Handles(msg)
	case PostFilter:
		return v.postFilter.Handles(msg)
	case Select:
		return v.selectHost.Handles(msg)
	}
	return v.bind.Handles(msg)
}

// updateText passes msg to the text phase view on screen.
func (v *Model) updateText(msg tea.Msg) {
	switch v.phase {
	case Queue:
		v.queue, _ = v.queue.Update(msg)
	case PreFilter:
		v.preFilter, _ = v.preFilter.Update(msg)
	case PostFilter:
		v.postFilter, _ = v.postFilter.Update(msg)
	case Select:
		v.selectHost, _ = v.selectHost.Update(msg)
	default:
		v.bind, _ = v.bind.Update(msg)
	}
}

// scrollText scrolls the text phase view on screen by d lines.
func (v *Model) scrollText(d int) {
	switch v.phase {
	case Queue:
		v.queue.Scroll(d)
	case PreFilter:
		v.preFilter.Scroll(d)
	case PostFilter:
		v.postFilter.Scroll(d)
	case Select:
		v.selectHost.Scroll(d)
	default:
		v.bind.Scroll(d)
	}
}

// sizeText gives the text phase views the body's size.
func (v *Model) sizeText() {
	w, h := v.bodyWidth(), v.bodyHeight()
	v.queue.SetSize(w, h)
	v.preFilter.SetSize(w, h)
	v.postFilter.SetSize(w, h)
	v.bind.SetSize(w, h)
	v.selectHost.SetSize(w, h)
}

// page is how far a page key moves the node detail and a skipped phase's
// text: half the node rows (the body less a header line and three footer
// lines outside the node phases).
func (v *Model) page() int {
	rows := v.bodyHeight() - 4
	if v.phase.nodeRows() {
		rows = v.nodes.RowsHeight()
	}
	return max(max(rows, 1)/2, 1)
}

// moveRows moves the node cursor, the node detail or the text scroll.
func (v *Model) moveRows(d int) {
	switch {
	case v.detail != nil:
		v.detail.Scroll(d)
	case v.phase.nodeRows():
		v.nodes.Move(d)
	case v.textShown():
		v.scrollText(d)
	default:
		v.scroll = max(v.scroll+d, 0)
	}
}

// Click handles a click at (x, y) relative to the view.
func (v *Model) Click(x, y int) {
	if v.detail != nil || !v.phase.nodeRows() {
		return
	}
	v.nodes.Click(y - v.titleH - 1) // below the cycle header and the phase bar
}

// View renders the cycle header, the phase bar, the body and the hint line.
func (v Model) View() string {
	if v.w <= 0 || v.h <= 0 {
		return ""
	}
	if v.pending != "" {
		lines := []string{""}
		for _, l := range layout.Wrap(v.pending, max(v.w-2, 10), "  ") {
			lines = append(lines, "  "+v.st.Dim.Render(l))
		}
		return strings.Join(layout.Box(lines, v.w, v.h), "\n")
	}
	if v.c == nil {
		return strings.Join(layout.Box([]string{"", "  " + v.st.Dim.Render("no cycle selected")}, v.w, v.h), "\n")
	}
	lines := append(v.titleLines(), renderPhaseBar(v.st, v.c, v.phase, v.w))
	bw, bh := v.bodyWidth(), v.bodyHeight()
	var body []string
	hint := v.hint()
	switch {
	case v.explain.Covers():
		body = layout.SplitLines(v.explainView(v.w, bh))
		hint = v.st.Dim.Render("explain · ") + keyhint.Line(v.st, keyhint.Pair(v.explain.Keys.Toggle, v.explain.Keys.Close, "close"))
	case v.detail != nil:
		body = layout.Box(layout.SplitLines(v.detail.View()), bw, bh)
		hint = v.st.Dim.Render("node detail · ") + keyhint.Line(v.st, v.detail.Keys.ShortHelp()...)
	default:
		body = layout.Box(v.body(bw, bh), bw, bh)
	}
	if v.explain.Shown() && v.explain.Beside() {
		// The hint belongs to the body: it sits under it, left of the panel,
		// which runs down to the hint line.
		ew := v.explainWidth()
		panel := layout.SplitLines(v.explainView(ew, bh+1))
		body = layout.SideBySide(append(body, layout.Fit(hint, bw)), panel, v.st.Border.Render("│"))
	} else {
		body = append(body, hint)
	}
	lines = append(lines, body...)
	return strings.Join(layout.Box(lines, v.w, v.h), "\n")
}

// titleLines are the cycle header and, when the cycle's pod was bound by a live
// cluster, how that compares with the prediction: beside the header when it
// fits, else on a line of its own.
func (v *Model) titleLines() []string {
	head := v.headerLine()
	if v.observed == nil {
		return []string{head}
	}
	obs := livebinding.Text(v.st, v.observed)
	if ansi.StringWidth(head)+3+ansi.StringWidth(obs) <= v.w {
		return []string{head + " · " + obs}
	}
	return []string{head, obs}
}

func (v *Model) measureTitle() {
	v.titleH = 1
	if v.c != nil {
		v.titleH = len(v.titleLines())
	}
}

func (v *Model) headerLine() string {
	c := v.c
	var out string
	switch c.Outcome.Result {
	case recorder.ResultBound:
		out = v.st.Success.Render("✓ bound to " + c.Outcome.Node)
	case recorder.ResultUnschedulable:
		out = v.st.Unschedulable.Render("✗ Unschedulable")
		if c.Outcome.NominatedNode != "" {
			out += v.st.Unschedulable.Render(" · nominated " + c.Outcome.NominatedNode)
		}
	default:
		out = v.st.Error.Render("! " + c.Outcome.Result)
	}
	title := v.st.Title.Render(fmt.Sprintf("cycle %d", c.Seq))
	if label, ok := v.label(c); ok {
		title = v.st.WhatIf.Render("cycle " + label + " what-if")
	}
	return fmt.Sprintf("%s %s · attempt %d · %s · %s · %s", title,
		v.st.Bold.Render(c.Pod.Key()), c.Attempt, c.Profile, out, narrate.Duration(c.Duration))
}

// body renders the current phase.
func (v *Model) body(w, h int) []string {
	if ran, why := Ran(v.c, v.phase); !ran {
		lines := []string{""}
		for _, l := range layout.Wrap("  "+v.phase.String()+" was skipped: "+why+".", w, "  ") {
			lines = append(lines, v.st.Dim.Render(l))
		}
		lines = append(lines, "", "  "+v.st.Dim.Render(v.Keys.NextPhase.Help().Key+" steps on; "+v.explain.Keys.Toggle.Help().Key+" explains what this phase does."))
		if v.phase == Select {
			lines = append(lines, livebinding.Lines(v.st, v.c, v.a, v.observed, w)...)
		}
		return layout.ScrollLines(lines, v.scroll, h, v.Keys.Down)
	}
	switch v.phase {
	case Queue:
		p := v.queue
		p.SetSize(w, h)
		return layout.SplitLines(p.View())
	case PreFilter:
		p := v.preFilter
		p.SetSize(w, h)
		return layout.SplitLines(p.View())
	case Filter, Score, Normalize, Weighted:
		p := v.nodes
		p.SetSize(w, h)
		return layout.SplitLines(p.View())
	case PostFilter:
		p := v.postFilter
		p.SetSize(w, h)
		return layout.SplitLines(p.View())
	case Select:
		p := v.selectHost
		p.SetSize(w, h)
		return layout.SplitLines(p.View())
	}
	p := v.bind
	p.SetSize(w, h)
	return layout.SplitLines(p.View())
}

// hint is the one-line summary under the body: what the view shows, then
// the keys that act on it, generated from the bindings.
func (v *Model) hint() string {
	k := v.Keys
	phases, scroll := keyhint.Pair(k.PrevPhase, k.NextPhase, "phases"), keyhint.Pair(k.Up, k.Down, "scroll")
	if ran, _ := Ran(v.c, v.phase); !ran {
		return v.st.Dim.Render(v.phase.String()+" skipped · ") + keyhint.Line(v.st, phases, v.explain.Keys.Toggle)
	}
	switch v.phase {
	case Filter, Score, Normalize, Weighted:
		nk := v.nodes.Keys
		return v.st.Dim.Render(v.nodes.Query()+" · ") + keyhint.Line(v.st,
			keyhint.Brief(nk.Sort, "sort"), keyhint.Brief(nk.Show, "show"), k.Filter,
			keyhint.Brief(k.Detail, "node"), keyhint.Brief(nk.NextColumn, "plugin"), v.explain.Keys.Toggle)
	}
	return keyhint.Line(v.st, phases, scroll, v.explain.Keys.Toggle)
}

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
