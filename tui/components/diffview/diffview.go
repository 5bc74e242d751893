// Package diffview shows a what-if re-run beside the cycle it changed: the
// outcomes, the winner and why, and one row per node with its filter result
// and weighted score total on both sides, the nodes that changed first.
package diffview

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/components/pager"
	"github.com/schedscope/schedscope/tui/glyph"
	"github.com/schedscope/schedscope/tui/keyhint"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// Run is a what-if re-run against the cycle it changed.
type Run struct {
	// Label names the re-run (3'); Seq is the cycle changed.
	Label string
	Seq   int
	// Before is the cycle the changes apply to, After the changed cycle;
	// Later the pod's further cycles on the fork.
	Before, After *recorder.Cycle
	Later         []*recorder.Cycle
	Diff          *recorder.CycleDiff // nil: computed from Before and After
	// Changes word what changed, one per change; Landing is where the pod
	// would go ("" if nowhere); Note says what to know about the comparison.
	Changes []string
	Landing string
	Note    string
}

// KeyMap holds the view's keys.
type KeyMap struct {
	// The moving keys: up, down, a page, first and last.
	pager.KeyMap
	// Words switches, narrow, between the table and the diff in words.
	Words key.Binding
}

// DefaultKeyMap returns the view's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap {
	k := KeyMap{
		KeyMap: pager.DefaultKeyMap(),
		Words:  key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "table/words")),
	}
	k.Top.SetHelp("g", "first")
	k.Bottom.SetHelp("G", "last")
	return k
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Words, k.Up, k.Down} }

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Words}}
}

// wideWidth is the width from which the diff in words sits beside the table.
const wideWidth = 150

// Model shows a what-if beside the cycle it changed. Wide, the diff in words
// sits beside the table; narrow, Words switches between them.
type Model struct {
	st   *theme.Styles
	Keys KeyMap

	run  *Run
	rows []diffRow
	// maxTotal scales the score bars of both sides alike.
	maxTotal int64

	cursor, offset int
	words          bool
	scroll         int
	w, h           int
}

// diffSide is one node's fate on one side of the diff.
type diffSide struct {
	known  bool // the node is in this side's snapshot
	state  analysis.State
	plugin string
	code   string
	scored bool
	total  int64
	chosen bool
}

// diffRow is one node on both sides.
type diffRow struct {
	node          string
	before, after diffSide
	filter        *recorder.NodeFilterChange
	filterKind    string // "feasible", "infeasible", "reason", or ""
	score         *recorder.NodeScoreChange
}

// New returns an empty diff view.
func New(st *theme.Styles) Model { return Model{st: st, Keys: DefaultKeyMap()} }

// SetSize sets the view's size.
func (v *Model) SetSize(w, h int) {
	v.w, v.h = w, h
	v.keepVisible()
}

// SetRun shows run r against the cycle it changed, from the top.
func (v *Model) SetRun(r Run) {
	v.run, v.cursor, v.offset, v.scroll = &r, 0, 0, 0
	v.rows, v.maxTotal = diffRows(&r)
}

// Words tells whether, narrow, the diff in words is shown instead of the
// table.
func (v Model) Words() bool { return v.words }

// SetWords shows, narrow, the diff in words (true) or the table.
func (v *Model) SetWords(b bool) { v.words = b }

// Cursor is the node row the cursor is on.
func (v Model) Cursor() int { return v.cursor }

// Nodes are the node rows' names, in order.
func (v Model) Nodes() []string {
	out := make([]string, len(v.rows))
	for i, r := range v.rows {
		out[i] = r.node
	}
	return out
}

// VisibleRows is how many node rows show.
func (v Model) VisibleRows() int { return v.visibleRows() }

// sides reads every node's fate in c by name.
func sides(c *recorder.Cycle) (map[string]diffSide, []string) {
	out := map[string]diffSide{}
	if c == nil {
		return out, nil
	}
	a := analysis.Of(c)
	var names []string
	for i, r := range a.Nodes {
		name := c.NodeName(i)
		s := diffSide{known: true, state: r.State, code: r.Code, chosen: i == a.Winner}
		if r.State == analysis.Rejected {
			s.plugin = a.FilterPlugin(r.Plugin)
		}
		if r.Score >= 0 && c.Score != nil && r.Score < len(c.Score.Totals) {
			s.scored, s.total = true, c.Score.Totals[r.Score]
		}
		out[name] = s
		names = append(names, name)
	}
	return out, names
}

// diffRows lays the nodes of both sides out, what changed first: the
// winners, nodes whose filter result changed, nodes whose score changed (as
// the diff orders them), then the rest in snapshot order.
func diffRows(res *Run) ([]diffRow, int64) {
	before, bn := sides(res.Before)
	after, an := sides(res.After)
	d := res.Diff
	if d == nil {
		d = recorder.DiffCycles(res.Before, res.After)
	}
	rank := map[string]int{}
	var rows []diffRow
	seen := map[string]bool{}
	var maxTotal int64
	for _, name := range append(bn, an...) {
		if seen[name] {
			continue
		}
		seen[name] = true
		r := diffRow{node: name, before: before[name], after: after[name]}
		maxTotal = max(maxTotal, r.before.total, r.after.total)
		rank[name] = 1000000 + len(rows)
		rows = append(rows, r)
	}
	byName := map[string]int{}
	for i, r := range rows {
		byName[r.node] = i
	}
	mark := func(list []recorder.NodeFilterChange, kind string, at int) {
		for k := range list {
			if i, ok := byName[list[k].Node]; ok {
				rows[i].filter, rows[i].filterKind = &list[k], kind
				rank[list[k].Node] = min(rank[list[k].Node], at+k)
			}
		}
	}
	mark(d.BecameFeasible, "feasible", 1000)
	mark(d.BecameInfeasible, "infeasible", 2000)
	mark(d.RejectionChanged, "reason", 3000)
	for k := range d.Scores {
		if i, ok := byName[d.Scores[k].Node]; ok {
			rows[i].score = &d.Scores[k]
			rank[d.Scores[k].Node] = min(rank[d.Scores[k].Node], 10000+k)
		}
	}
	for _, r := range rows {
		if r.before.chosen || r.after.chosen {
			rank[r.node] = 0
			if r.after.chosen {
				rank[r.node] = -1
			}
		}
	}
	slices.SortStableFunc(rows, func(x, y diffRow) int { return cmp.Compare(rank[x.node], rank[y.node]) })
	return rows, maxTotal
}

// Update moves the node cursor, scrolls the words, or switches between them.
func (v Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || v.run == nil {
		return v, nil
	}
	if key.Matches(k, v.Keys.Words) {
		v.words = !v.words
	} else if n, ok := v.Keys.Step(k, v.visibleRows()); ok {
		v.move(n)
	}
	v.keepVisible()
	return v, nil
}

// move moves the node cursor, or scrolls the words when they cover the table.
func (v *Model) move(d int) {
	if v.words && !v.wide() {
		v.scroll = layout.Clamp(v.scroll+d, 0, max(len(v.wordLines(v.w))-v.h, 0))
		return
	}
	v.cursor = layout.Clamp(v.cursor+d, 0, max(len(v.rows)-1, 0))
}

func (v *Model) wide() bool { return v.w >= wideWidth }

// tableRows is how many node rows fit under the header and above the footer.
func (v *Model) tableRows() int {
	return max(v.h-len(v.headLines(v.tableWidth()))-1-v.footerHeight(), 1)
}

func (v *Model) footerHeight() int { return 3 }

// visibleRows is how many node rows show: the table's room, less a line
// that counts the rows below when they do not all fit.
func (v *Model) visibleRows() int {
	if n := v.tableRows(); len(v.rows) > n {
		return max(n-1, 1)
	}
	return v.tableRows()
}

func (v *Model) tableWidth() int {
	if v.wide() {
		return v.w * 58 / 100
	}
	return v.w
}

func (v *Model) keepVisible() {
	if v.run == nil {
		return
	}
	v.offset = layout.ScrollTo(v.offset, v.cursor, v.visibleRows(), len(v.rows))
}

// View renders the view.
func (v Model) View() string {
	if v.run == nil || v.w <= 0 || v.h <= 0 {
		return ""
	}
	if v.wide() {
		tw := v.tableWidth()
		left := layout.Box(v.tableLines(tw), tw, v.h)
		right := layout.Box(v.wordLines(v.w-tw-3), v.w-tw-3, v.h)
		return strings.Join(layout.SideBySide(left, right, " "+v.st.Border.Render("│")+" "), "\n")
	}
	if v.words {
		head := v.headLines(v.w)
		body := v.wordLines(v.w)[len(head):]
		return strings.Join(append(head, layout.ScrollLines(body, v.scroll, v.h-len(head), v.Keys.Down)...), "\n")
	}
	return strings.Join(v.tableLines(v.w), "\n")
}

// headLines are the title, the changes, both outcomes and the winner.
func (v *Model) headLines(w int) []string {
	st, r := v.st, v.run
	title := st.Title.Render("what-if "+r.Label) + st.Dim.Render(fmt.Sprintf(" of cycle %d · %s", r.Seq, r.After.Pod.Key()))
	lines := []string{layout.Fit(title, w)}
	for i, c := range r.Changes {
		if i == 2 && len(r.Changes) > 3 {
			lines = append(lines, st.Dim.Render(fmt.Sprintf("  … and %d more change(s)", len(r.Changes)-2)))
			break
		}
		for k, l := range layout.Wrap(c, w-2, "  ") {
			if k == 2 {
				break
			}
			pre := st.WhatIf.Render("± ")
			if k > 0 {
				pre = "  "
			}
			lines = append(lines, layout.Fit(pre+l, w))
		}
	}
	lines = append(lines,
		layout.Fit(st.Dim.Render("before ")+v.outcome(r.Before), w),
		layout.Fit(st.Dim.Render("after  ")+v.outcome(r.After), w))
	if n := len(r.Later); n > 0 {
		lines = append(lines, layout.Fit(st.Dim.Render(fmt.Sprintf("then   %d more cycle(s) on the fork: ", n))+v.outcome(r.Later[n-1]), w))
	}
	if d := r.Diff; d != nil && d.Winner != nil {
		text := fmt.Sprintf("%s → %s: %s", orNoneNode(d.Winner.Before), orNoneNode(d.Winner.After), narrate.Winner(d.Winner))
		for i, l := range layout.Wrap(text, w-7, "") {
			if i == 2 {
				break
			}
			pre := "       "
			if i == 0 {
				pre = st.Dim.Render("winner ")
			}
			lines = append(lines, layout.Fit(pre+st.Chosen.Render(l), w))
		}
	} else if d != nil && d.Same {
		lines = append(lines, st.Dim.Render("no difference: the same feasible nodes, scores, node and message"))
	} else if r.After.Outcome.Node != "" && r.After.Outcome.Node == r.Before.Outcome.Node {
		lines = append(lines, layout.Fit(st.Dim.Render("winner ")+st.Chosen.Render(r.After.Outcome.Node)+st.Dim.Render(" on both sides"), w))
	}
	if r.Note != "" {
		for i, l := range layout.Wrap(r.Note, w, "  ") {
			if i == 2 {
				break
			}
			lines = append(lines, layout.Fit(st.Dim.Render(l), w))
		}
	}
	return append(lines, "")
}

func orNoneNode(s string) string {
	if s == "" {
		return "no node"
	}
	return s
}

// outcome words a cycle's outcome in its colour.
func (v *Model) outcome(c *recorder.Cycle) string {
	st := v.st
	switch c.Outcome.Result {
	case recorder.ResultBound:
		return st.Success.Render("✓ " + narrate.Outcome(c.Outcome))
	case recorder.ResultUnschedulable:
		return st.Unschedulable.Render("✗ " + narrate.Outcome(c.Outcome))
	}
	return st.Error.Render("! " + narrate.Outcome(c.Outcome))
}

// tableLines are the head, the node table and the selected node's story.
func (v *Model) tableLines(w int) []string {
	st := v.st
	lines := v.headLines(w)
	nodeW := 8
	for _, r := range v.rows {
		nodeW = max(nodeW, ansi.StringWidth(r.node))
	}
	const deltaW = 9
	nodeW = min(nodeW, max(w/5, 12))
	sideW := max((w-2-nodeW-deltaW-3)/2, 10)
	lines = append(lines, st.Header.Render("  "+layout.Fit("node", nodeW)+" "+layout.Fit("before", sideW)+" "+layout.Fit("after", sideW)+" "+layout.FitLeft("change", deltaW)))
	end := min(v.offset+v.visibleRows(), len(v.rows))
	for i := v.offset; i < end; i++ {
		r := v.rows[i]
		name := layout.Fit(r.node, nodeW)
		switch r.filterKind {
		case "feasible":
			name = st.Success.Render(name)
		case "infeasible":
			name = st.Unresolvable.Render(name)
		case "reason":
			name = st.Unschedulable.Render(name)
		}
		line := name + " " + v.sideCell(r.before, sideW, 0) + " " + v.sideCell(r.after, sideW, 1) + " " + layout.FitLeft(v.change(r), deltaW)
		if i == v.cursor {
			lines = append(lines, st.Selected.Render("▸ "+ansi.Strip(layout.Fit(line, w-2))))
			continue
		}
		lines = append(lines, "  "+line)
	}
	if len(v.rows) > v.tableRows() {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  nodes %d-%d of %d, %s scroll", v.offset+1, end, len(v.rows), keyhint.Pair(v.Keys.Up, v.Keys.Down, "").Help().Key)))
	}
	lines = layout.Box(lines, w, v.h-v.footerHeight())
	return append(lines, v.footer(w)...)
}

// sideCell is a node's fate on one side: its rejection, or its total with a
// bar on the scale both sides share.
func (v *Model) sideCell(s diffSide, w, side int) string {
	st := v.st
	switch {
	case !s.known:
		return st.Dim.Render(layout.Fit("— not in the snapshot", w))
	case s.state == analysis.Rejected:
		return glyph.Style(st, glyph.Of(s.code)).Render(layout.Fit("✗ "+s.plugin, w))
	case s.state == analysis.NotEvaluated:
		return st.NotEvaluated.Render(layout.Fit("· not evaluated", w))
	case s.state == analysis.Discarded:
		return st.Discarded.Render(layout.Fit("◦ feasible, not kept", w))
	}
	mark, style := "✓", st.Success
	if s.chosen {
		mark, style = "◆", st.Chosen
	}
	if !s.scored {
		text := "feasible"
		if s.chosen {
			text = "chosen, not scored"
		}
		return style.Render(layout.Fit(mark+" "+text, w))
	}
	text := fmt.Sprintf("%s %d", mark, s.total)
	barW := min(w-ansi.StringWidth(text)-1, 40)
	if barW <= 0 || v.maxTotal <= 0 {
		return style.Render(layout.Fit(text, w))
	}
	filled := int(max(s.total, 0) * int64(barW) / v.maxTotal)
	bar := st.Series[side%len(st.Series)].Render(strings.Repeat("█", filled)) + st.NotCalled.Render(strings.Repeat("░", barW-filled))
	return layout.Fit(style.Render(text)+" "+bar, w)
}

// change words the row's change in a few cells.
func (v *Model) change(r diffRow) string {
	st := v.st
	switch r.filterKind {
	case "feasible":
		return st.Success.Render("now fits")
	case "infeasible":
		return st.Unresolvable.Render("now out")
	case "reason":
		return st.Unschedulable.Render("new why")
	}
	switch {
	case !r.before.known && r.after.known:
		return st.WhatIf.Render("added")
	case r.before.known && !r.after.known:
		return st.WhatIf.Render("removed")
	}
	if s := r.score; s != nil && s.TotalBefore != nil && s.TotalAfter != nil && *s.TotalAfter != *s.TotalBefore {
		return fmt.Sprintf("%+d", *s.TotalAfter-*s.TotalBefore)
	}
	if r.before.chosen != r.after.chosen {
		if r.after.chosen {
			return st.Chosen.Render("chosen")
		}
		return st.Dim.Render("lost")
	}
	return st.Dim.Render("=")
}

// footer tells the selected node's story: the rejection before and after,
// the per-plugin weighted score changes.
func (v *Model) footer(w int) []string {
	st := v.st
	if v.cursor >= len(v.rows) {
		return []string{"", "", ""}
	}
	r := v.rows[v.cursor]
	var out []string
	if f := r.filter; f != nil {
		out = append(out, st.Bold.Render(r.node)+": "+f.Before.String()+"  →  "+f.After.String())
	} else if !r.before.known || !r.after.known {
		what := "added by the change"
		if !r.after.known {
			what = "removed by the change"
		}
		out = append(out, st.Bold.Render(r.node)+": "+what)
	} else {
		out = append(out, st.Bold.Render(r.node)+": "+st.Dim.Render(sameFilter(r.after)))
	}
	if s := r.score; s != nil && len(s.Plugins) > 0 {
		var parts []string
		for _, p := range s.Plugins {
			parts = append(parts, fmt.Sprintf("%s %d→%d", p.Plugin, p.Before, p.After))
		}
		out = append(out, "  weighted: "+strings.Join(parts, ", "))
	}
	var lines []string
	lines = append(lines, st.Border.Render(strings.Repeat("─", w)))
	for _, l := range out {
		lines = append(lines, wrapStyled(l, w)...)
	}
	return layout.Box(lines, w, v.footerHeight())
}

// sameFilter words a filter result both sides share.
func sameFilter(s diffSide) string {
	switch s.state {
	case analysis.Rejected:
		return "rejected by " + s.plugin + " on both sides"
	case analysis.NotEvaluated:
		return "not evaluated on either side"
	case analysis.Discarded:
		return "feasible but not kept on both sides"
	}
	return "feasible on both sides"
}

// wrapStyled wraps a styled line into lines of w cells, at spaces where it can.
func wrapStyled(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	return layout.SplitLines(ansi.Wrap(s, w, ""))
}

// wordLines are the head and the diff in words, as the whatif command prints it.
func (v *Model) wordLines(w int) []string {
	st := v.st
	lines := v.headLines(w)
	if v.wide() {
		lines = []string{st.Header.Render("the diff in words"), ""}
	}
	d := v.run.Diff
	if d == nil || d.Same && !v.wide() {
		return lines
	}
	// The head, above the words or beside them, has the winner.
	for _, l := range narrate.DiffBelowWinner(d, 8) {
		indent := "    "
		if !strings.HasPrefix(l, "  ") {
			indent = "  "
		}
		for i, part := range layout.Wrap(l, w, indent) {
			if i == 0 && !strings.HasPrefix(l, "  ") {
				part = st.Bold.Render(part)
			}
			lines = append(lines, part)
		}
	}
	if later := v.run.Later; len(later) > 0 {
		lines = append(lines, "", st.Dim.Render(fmt.Sprintf("then %d more cycle(s) of the pod on the fork; it lands on %s", len(later), orNoneNode(v.run.Landing))))
	}
	return lines
}
