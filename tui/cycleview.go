package tui

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

// CycleView steps through one cycle phase by phase.
type CycleView struct {
	st   *theme.Styles
	Keys CycleKeyMap

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

	phase phase
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
	runs *whatIfRuns

	w, h int
}

// NewCycleView returns an empty cycle view.
func NewCycleView(st *theme.Styles) CycleView {
	return CycleView{st: st, Keys: DefaultCycleKeyMap(), nodes: nodephase.New(st), explain: explain.New(st),
		queue: queuephase.New(st), preFilter: prefilterphase.New(st), postFilter: postfilterphase.New(st),
		selectHost: selectphase.New(st), bind: bindphase.New(st)}
}

// ShortHelp implements help.KeyMap: the view's keys and its panel's.
func (v CycleView) ShortHelp() []key.Binding {
	return slices.Concat(v.Keys.ShortHelp(), v.nodes.Keys.ShortHelp(), v.explain.Keys.ShortHelp())
}

// FullHelp implements help.KeyMap.
func (v CycleView) FullHelp() [][]key.Binding {
	return slices.Concat(v.Keys.FullHelp(), v.nodes.Keys.FullHelp(), v.explain.Keys.FullHelp())
}

// SetHeader gives the view the recording header (profiles, weights).
func (v *CycleView) SetHeader(h *recorder.Header) {
	v.header = h
	v.bind.SetHeader(h)
}

// SetCycle shows cycles[i]. The sort and filters are kept, and so is the phase
// when it ran in this cycle too, so that stepping between cycles compares like
// with like; otherwise the cycle opens on the phase that decided its outcome.
func (v *CycleView) SetCycle(cycles []*recorder.Cycle, i int) {
	v.setCycle(cycles, i, false)
}

// Await shows text instead of a cycle until cycle index i is set: it is
// being read, or could not be.
func (v *CycleView) Await(i int, text string) {
	v.pending = text
	if v.index != i {
		v.detail = nil
	}
	v.index = i // the cycle the view is on, for the list to come back to
}

// SetUsage gives a replay's view the node use as of cycle index i.
func (v *CycleView) SetUsage(i int, u *recorder.Usage) {
	v.usage, v.usageAt = u, i
	if v.detail != nil && v.index == i && v.c != nil {
		v.detail.SetUsage(u)
	}
}

// nodeUsage is the node use as of the shown cycle, or nil while a replay
// has not read it yet.
func (v *CycleView) nodeUsage() *recorder.Usage {
	if !v.indexed {
		return recorder.UsageAt(v.usageCycles())
	}
	if v.usage != nil && v.usageAt == v.index {
		return v.usage
	}
	return nil
}

// OpenCycle shows cycles[i] on the phase that decided its outcome.
func (v *CycleView) OpenCycle(cycles []*recorder.Cycle, i int) {
	v.setCycle(cycles, i, true)
}

func (v *CycleView) setCycle(cycles []*recorder.Cycle, i int, decisive bool) {
	if i < 0 || i >= len(cycles) || cycles[i] == nil {
		return
	}
	v.pending = ""
	if v.c == cycles[i] {
		v.cycles = cycles
		if decisive && v.phase != decisivePhase(v.c) {
			v.phase, v.detail = decisivePhase(v.c), nil
			v.enterPhase()
			v.focusRejection()
		}
		return
	}
	if ran, _ := phaseRan(cycles[i], v.phase); decisive || v.c == nil || !ran {
		v.phase = decisivePhase(cycles[i])
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
func (v *CycleView) SetObserved(o *recorder.Observed) {
	if v.runs.of(v.c) != nil {
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
func (v *CycleView) SetIndexed(b bool) { v.indexed = b }

// SetRuns tells the view the what-if re-runs, so that it labels them.
func (v *CycleView) SetRuns(r *whatIfRuns) { v.runs = r }

// Index is the index of the cycle the view is on (or waits for).
func (v CycleView) Index() int { return v.index }

// Pending reports whether the view waits for its cycle (or could not get it).
func (v CycleView) Pending() bool { return v.pending != "" }

// WaitsForUsage reports whether an open node detail waits for the node use
// of the shown cycle (SetUsage).
func (v CycleView) WaitsForUsage() bool {
	return v.detail != nil && v.detail.Pending() && v.pending == ""
}

// DetailNode names the node whose detail is open, ok false when none is.
func (v CycleView) DetailNode() (string, bool) {
	if v.detail == nil || v.c == nil {
		return "", false
	}
	return v.c.NodeName(v.detail.Node()), true
}

// SetPhase shows phase p of the cycle.
func (v *CycleView) SetPhase(p phase) {
	v.phase = p
	v.enterPhase()
}

// Cycle returns the cycle shown, or nil.
func (v CycleView) Cycle() *recorder.Cycle { return v.c }

// Phase returns the current phase.
func (v CycleView) Phase() phase { return v.phase }

// SetSize sets the view's outer size.
func (v *CycleView) SetSize(w, h int) {
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
func (v *CycleView) chrome() int { return v.titleH + 2 }

func (v *CycleView) bodyHeight() int { return max(v.h-v.chrome(), 0) }

func (v *CycleView) bodyWidth() int {
	if v.explain.Shown() && v.explain.Beside() {
		return v.w - v.explainWidth() - 1
	}
	return v.w
}

// minBodyBesideExplain is the narrowest body the explain panel may sit beside:
// narrower, and a filter matrix's result column would be cut to a few words.
const minBodyBesideExplain = 100

// explainBeside tells whether the explain panel fits beside the body.
func (v *CycleView) explainBeside() bool { return v.w-v.explainWidth()-1 >= minBodyBesideExplain }
func (v *CycleView) explainWidth() int   { return layout.Clamp(v.w/4, 36, 56) }

// explainView renders the explain panel, w×h, on the phase and the selected
// plugin.
func (v *CycleView) explainView(w, h int) string {
	e := v.explain
	e.SetTopic(explain.Topic{Phase: v.phase.String(), PhaseDoc: phaseDoc(v.phase), Plugin: v.selectedPlugin()})
	e.SetSize(w, h)
	return e.View()
}

// enterPhase sets the node table up for the current phase.
func (v *CycleView) enterPhase() {
	v.scroll = 0
	defer v.updateKeys()
	if v.a == nil {
		return
	}
	switch point, bind := v.phase.bindPoint(); {
	case v.phase == phQueue:
		v.queue.SetCycle(v.c)
	case v.phase == phPreFilter:
		v.preFilter.SetCycle(v.c)
	case v.phase == phPostFilter:
		v.postFilter.SetCycle(v.c)
	case v.phase == phSelect:
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
func (v *CycleView) focusRejection() {
	if v.phase == phFilter {
		v.nodes.FocusRejection()
	}
}

// selectedPlugin names the plugin the explain panel talks about.
func (v *CycleView) selectedPlugin() string {
	if v.c == nil {
		return ""
	}
	switch v.phase {
	case phFilter, phScore, phNormalize, phWeighted:
		return v.nodes.Plugin()
	case phPostFilter:
		// The plugins the cycle ran, as recorded (custom profiles replace
		// DefaultPreemption): the one with the last word. For a cycle that
		// did not get there, the profile's last: preemption runs after the
		// plugins that only tidy up (DynamicResources).
		if pf := v.c.PostFilter; pf != nil && len(pf.Plugins) > 0 {
			return actingPlugin(pf.Plugins)
		}
		return v.profilePlugin(recorder.PhasePostFilter, true)
	case phBind:
		if len(v.c.Bind) > 0 {
			return actingPlugin(v.c.Bind)
		}
		return v.profilePlugin(recorder.PhaseBind, false)
	}
	return ""
}

// profilePlugin is the first (or last) plugin the cycle's profile enables at
// an extension point, from the recording's header.
func (v *CycleView) profilePlugin(point string, last bool) string {
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
func (v *CycleView) updateKeys() {
	ran := v.c != nil
	if ran {
		ran, _ = phaseRan(v.c, v.phase)
	}
	nodes := ran && v.phase.nodeRows() && v.detail == nil
	_, row := v.nodes.Selected()
	v.Keys.Detail.SetEnabled(nodes && row)
	v.nodes.SetActive(v.phase.nodeRows(), nodes)
}

// SetNodeFilter filters node rows by a name substring.
func (v *CycleView) SetNodeFilter(s string) {
	v.nodes.SetName(strings.TrimSpace(s))
	v.updateKeys()
}

// SetSort orders the node rows by s.
func (v *CycleView) SetSort(s nodetable.Sort) { v.nodes.SetSort(s) }

// NodeFilter returns the node name filter.
func (v CycleView) NodeFilter() string { return v.nodes.Name() }

// Back closes what is open inside the view (node detail, explain panel, a
// filter) and reports whether there was anything to close.
func (v *CycleView) Back() bool {
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
func (v CycleView) Update(msg tea.Msg) (CycleView, tea.Cmd) {
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

func (v *CycleView) handleKey(msg tea.KeyPressMsg) {
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
		if v.phase < numPhases-1 {
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
func (v *CycleView) textShown() bool {
	if v.c == nil || v.phase.nodeRows() {
		return false
	}
	ran, _ := phaseRan(v.c, v.phase)
	return ran
}

// textHandles tells whether msg is a key of the text phase view on screen.
func (v *CycleView) textHandles(msg tea.KeyPressMsg) bool {
	if !v.textShown() {
		return false
	}
	switch v.phase {
	case phQueue:
		return v.queue.Handles(msg)
	case phPreFilter:
		return v.preFilter.Handles(msg)
	case phPostFilter:
		return v.postFilter.Handles(msg)
	case phSelect:
		return v.selectHost.Handles(msg)
	}
	return v.bind.Handles(msg)
}

// updateText passes msg to the text phase view on screen.
func (v *CycleView) updateText(msg tea.Msg) {
	switch v.phase {
	case phQueue:
		v.queue, _ = v.queue.Update(msg)
	case phPreFilter:
		v.preFilter, _ = v.preFilter.Update(msg)
	case phPostFilter:
		v.postFilter, _ = v.postFilter.Update(msg)
	case phSelect:
		v.selectHost, _ = v.selectHost.Update(msg)
	default:
		v.bind, _ = v.bind.Update(msg)
	}
}

// scrollText scrolls the text phase view on screen by d lines.
func (v *CycleView) scrollText(d int) {
	switch v.phase {
	case phQueue:
		v.queue.Scroll(d)
	case phPreFilter:
		v.preFilter.Scroll(d)
	case phPostFilter:
		v.postFilter.Scroll(d)
	case phSelect:
		v.selectHost.Scroll(d)
	default:
		v.bind.Scroll(d)
	}
}

// sizeText gives the text phase views the body's size.
func (v *CycleView) sizeText() {
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
func (v *CycleView) page() int {
	rows := v.bodyHeight() - 4
	if v.phase.nodeRows() {
		rows = v.nodes.RowsHeight()
	}
	return max(max(rows, 1)/2, 1)
}

// moveRows moves the node cursor, the node detail or the text scroll.
func (v *CycleView) moveRows(d int) {
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
func (v *CycleView) Click(x, y int) {
	if v.detail != nil || !v.phase.nodeRows() {
		return
	}
	v.nodes.Click(y - v.titleH - 1) // below the cycle header and the phase bar
}

// View renders the cycle header, the phase bar, the body and the hint line.
func (v CycleView) View() string {
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
func (v *CycleView) titleLines() []string {
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

func (v *CycleView) measureTitle() {
	v.titleH = 1
	if v.c != nil {
		v.titleH = len(v.titleLines())
	}
}

func (v *CycleView) headerLine() string {
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
	if r := v.runs.of(c); r != nil {
		title = v.st.WhatIf.Render("cycle " + r.label + " what-if")
	}
	return fmt.Sprintf("%s %s · attempt %d · %s · %s · %s", title,
		v.st.Bold.Render(c.Pod.Key()), c.Attempt, c.Profile, out, narrate.Duration(c.Duration))
}

// body renders the current phase.
func (v *CycleView) body(w, h int) []string {
	if ran, why := phaseRan(v.c, v.phase); !ran {
		lines := []string{""}
		for _, l := range layout.Wrap("  "+v.phase.String()+" was skipped: "+why+".", w, "  ") {
			lines = append(lines, v.st.Dim.Render(l))
		}
		lines = append(lines, "", "  "+v.st.Dim.Render(v.Keys.NextPhase.Help().Key+" steps on; "+v.explain.Keys.Toggle.Help().Key+" explains what this phase does."))
		if v.phase == phSelect {
			lines = append(lines, livebinding.Lines(v.st, v.c, v.a, v.observed, w)...)
		}
		return layout.ScrollLines(lines, v.scroll, h, v.Keys.Down)
	}
	switch v.phase {
	case phQueue:
		p := v.queue
		p.SetSize(w, h)
		return layout.SplitLines(p.View())
	case phPreFilter:
		p := v.preFilter
		p.SetSize(w, h)
		return layout.SplitLines(p.View())
	case phFilter, phScore, phNormalize, phWeighted:
		p := v.nodes
		p.SetSize(w, h)
		return layout.SplitLines(p.View())
	case phPostFilter:
		p := v.postFilter
		p.SetSize(w, h)
		return layout.SplitLines(p.View())
	case phSelect:
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
func (v *CycleView) hint() string {
	k := v.Keys
	phases, scroll := keyhint.Pair(k.PrevPhase, k.NextPhase, "phases"), keyhint.Pair(k.Up, k.Down, "scroll")
	if ran, _ := phaseRan(v.c, v.phase); !ran {
		return v.st.Dim.Render(v.phase.String()+" skipped · ") + keyhint.Line(v.st, phases, v.explain.Keys.Toggle)
	}
	switch v.phase {
	case phFilter, phScore, phNormalize, phWeighted:
		nk := v.nodes.Keys
		return v.st.Dim.Render(v.nodes.Query()+" · ") + keyhint.Line(v.st,
			keyhint.Brief(nk.Sort, "sort"), keyhint.Brief(nk.Show, "show"), k.Filter,
			keyhint.Brief(k.Detail, "node"), keyhint.Brief(nk.NextColumn, "plugin"), v.explain.Keys.Toggle)
	}
	return keyhint.Line(v.st, phases, scroll, v.explain.Keys.Toggle)
}
