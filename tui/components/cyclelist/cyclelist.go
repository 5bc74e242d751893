// Package cyclelist is the timeline of scheduling cycles: one row per
// cycle, newest last, following the tail; a filter over pod, node, outcome
// and plugin; what-if re-runs listed right after the cycle they change.
package cyclelist

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
	"github.com/schedscope/schedscope/tui/components/livebinding"
	"github.com/schedscope/schedscope/tui/components/pager"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/podnames"
	"github.com/schedscope/schedscope/tui/theme"
)

// Model is the timeline: one row per scheduling cycle, newest last. It
// follows the tail while the selection is on the last row. It keeps each
// cycle's index entry, not the cycle, so that a replay of any size fits.
type Model struct {
	st   *theme.Styles
	Keys KeyMap

	entries []recorder.CycleEntry
	// observed holds, per cycle, the live cluster's binding of its pod, or nil.
	observed []*recorder.Observed
	bySeq    map[int]int // cycle Seq → index
	search   []string    // per cycle, lower-case text the filter matches
	rows     []int       // indices into cycles after filtering
	filter   string
	// waiting is what an empty list says (SetWaiting).
	waiting string
	maxSeq  int // the largest sequence number, for the column's width
	// order is the cycles' display order: as they came, with what-if
	// re-runs right after the cycle they change; tags number the re-runs
	// and what says what each changed.
	order []int
	tags  map[int]string
	what  map[int]string
	// marks are the notes of marked cycles, by Seq (SetMark).
	marks map[int]string
	// groups name the pod group of pod group members' cycles, by Seq
	// (SetGroup).
	groups map[int]string
	// names are the pods listed, to show what tells their names apart.
	names podnames.Set

	cursor, offset int
	follow         bool
	w, h           int
}

// New returns an empty list that follows the tail.
func New(st *theme.Styles) Model {
	return Model{st: st, Keys: DefaultKeyMap(), follow: true}
}

// SetSize sets the list's outer size.
func (l *Model) SetSize(w, h int) {
	l.w, l.h = w, h
	l.keepVisible()
}

// Append adds cycles' entries. The selection stays where it is unless the
// list follows the tail.
func (l *Model) Append(es ...recorder.CycleEntry) {
	if l.bySeq == nil {
		l.bySeq = map[int]int{}
	}
	for _, e := range es {
		l.entries = append(l.entries, e)
		l.observed = append(l.observed, nil)
		l.search = append(l.search, searchText(&e, nil)+l.markText(e.Seq))
		l.names.Add(e.Pod)
		i := len(l.entries) - 1
		l.bySeq[e.Seq] = i
		l.maxSeq = max(l.maxSeq, e.Seq)
		// Cycles can end out of order (a binding takes longer than the next
		// pod's cycle; a preempting cycle is held until its victims are
		// known): list them by number, each after those it follows.
		l.order, _ = l.insertBySeq(l.order, i)
		if l.matches(i) {
			var pos int
			l.rows, pos = l.insertBySeq(l.rows, i)
			if !l.follow && pos <= l.cursor && pos < len(l.rows)-1 {
				l.cursor++ // the selected row moved down by one
			}
		}
	}
	if l.follow && len(l.rows) > 0 {
		l.cursor = len(l.rows) - 1
	}
	l.keepVisible()
}

// insertBySeq inserts the index i of a new cycle into idx, which is ordered
// by sequence number, what-if re-runs right after the cycle they change:
// after every cycle of a number not above i's, and after its re-runs.
// It returns idx and where i went. A cycle that ends in order goes last at
// once.
func (l *Model) insertBySeq(idx []int, i int) ([]int, int) {
	p := len(idx)
	for p > 0 {
		k := p - 1 // the cycle at p-1, or the one the re-run there follows
		for k > 0 && l.tags[idx[k]] != "" {
			k--
		}
		if l.entries[idx[k]].Seq <= l.entries[i].Seq {
			break
		}
		p = k
	}
	if p == len(idx) {
		return append(idx, i), p
	}
	return slices.Insert(idx, p, i), p
}

// Observe shows the cluster's binding o on the cycle it checks, and reports
// whether the list holds that cycle.
func (l *Model) Observe(o *recorder.Observed) bool {
	i, ok := l.bySeq[o.Seq]
	if !ok {
		return false
	}
	was := l.matches(i)
	l.observed[i] = o
	l.search[i] = searchText(&l.entries[i], o) + l.markText(l.entries[i].Seq)
	if l.matches(i) != was {
		l.SetFilter(l.filter)
	}
	return true
}

// Selected returns the index (into all cycles) of the selected cycle, or -1.
func (l Model) Selected() int {
	if l.cursor < 0 || l.cursor >= len(l.rows) {
		return -1
	}
	return l.rows[l.cursor]
}

// Select puts the cursor on cycle index i (into all cycles), clearing the filter
// if it hides that cycle.
func (l *Model) Select(i int) {
	if i < 0 || i >= len(l.entries) {
		return
	}
	if !l.matches(i) {
		l.SetFilter("")
	}
	for r, ci := range l.rows {
		if ci == i {
			l.moveTo(r)
		}
	}
}

// Filter returns the active filter.
func (l Model) Filter() string { return l.filter }

// SetFilter narrows the rows to cycles whose pod, node, outcome or plugins
// contain every word of f; "pod:", "node:", "outcome:" and "plugin:" prefixes
// restrict a word to one field. A live cluster's binding adds the outcome
// "disagree" (the prediction was contradicted) or "agrees", and its node.
func (l *Model) SetFilter(f string) {
	sel := l.Selected()
	l.filter = strings.TrimSpace(f)
	l.rows = l.rows[:0]
	for _, i := range l.order {
		if l.matches(i) {
			l.rows = append(l.rows, i)
		}
	}
	l.cursor = len(l.rows) - 1
	for r, ci := range l.rows {
		if ci == sel {
			l.cursor = r
		}
	}
	l.cursor = max(l.cursor, 0)
	l.follow = l.cursor == len(l.rows)-1
	l.keepVisible()
}

func (l *Model) matches(i int) bool {
	for _, word := range strings.Fields(strings.ToLower(l.filter)) {
		if !strings.Contains(l.search[i], word) {
			return false
		}
	}
	return true
}

// searchText is what the filter matches: each field both bare and with its
// prefix. o is the cluster's binding of the cycle's pod, or nil.
func searchText(e *recorder.CycleEntry, o *recorder.Observed) string {
	fields := []string{"pod:" + e.Pod.Key(), "outcome:" + e.Result, "profile:" + e.Profile}
	if o != nil {
		// "agrees", not "agree": the word must not match inside "disagree".
		verdict := "outcome:disagree"
		if o.Agrees() {
			verdict = "outcome:agrees"
		}
		fields = append(fields, verdict, "node:"+o.Node)
	}
	if e.Node != "" {
		fields = append(fields, "node:"+e.Node)
	}
	if e.NominatedNode != "" {
		fields = append(fields, "node:"+e.NominatedNode)
	}
	for _, p := range e.Plugins {
		fields = append(fields, "plugin:"+p)
	}
	return strings.ToLower(strings.Join(fields, " "))
}

// Update handles list keys and mouse.
func (l Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if n, ok := l.Keys.Step(msg, l.bodyHeight()); ok {
			l.moveTo(l.cursor + n)
			break
		}
		switch {
		case key.Matches(msg, l.Keys.NextFailure):
			l.JumpFailure(1)
		case key.Matches(msg, l.Keys.PrevFailure):
			l.JumpFailure(-1)
		}
	case tea.MouseWheelMsg:
		l.moveTo(l.cursor + pager.Wheel(msg))
	}
	return l, nil
}

// Click selects the row at line y of the list (0 is its header).
func (l *Model) Click(y int) {
	if y >= 1 {
		l.moveTo(l.offset + y - 1)
	}
}

// JumpFailure moves to the next (dir 1) or previous (dir -1) failed cycle and
// reports whether there was one.
func (l *Model) JumpFailure(dir int) bool {
	for r := l.cursor + dir; r >= 0 && r < len(l.rows); r += dir {
		if l.entries[l.rows[r]].Failed() {
			l.moveTo(r)
			return true
		}
	}
	return false
}

func (l *Model) moveTo(r int) {
	if len(l.rows) == 0 {
		return
	}
	l.cursor = layout.Clamp(r, 0, len(l.rows)-1)
	l.follow = l.cursor == len(l.rows)-1
	l.keepVisible()
}

func (l *Model) bodyHeight() int { return max(l.h-1, 0) }

func (l *Model) keepVisible() {
	l.offset = layout.ScrollTo(l.offset, l.cursor, l.bodyHeight(), len(l.rows))
}

// listColumns are the widths of the list's columns for a total width.
type listColumns struct{ seq, mark, time, pod, note, profile, attempt, outcome, dur int }

// A column of width 0 is left out: narrow lists drop the time, then the
// attempt, then the duration, so that the pod keeps a readable width.
// The sequence column is as wide as the largest number, at least 4. The
// mark column (★) is there while a cycle is marked; the note column while
// the list shows the marked cycles' notes, in the room of the time, the
// attempt and the duration.
func columnsFor(w, maxSeq int, marks, notes bool) listColumns {
	c := listColumns{seq: max(4, len(fmt.Sprint(maxSeq))), time: 12, attempt: 3, outcome: 18, dur: 7}
	if w >= 110 {
		c.profile = 18
	}
	if marks {
		c.mark = 1
	}
	if notes {
		c.time, c.attempt, c.dur = 0, 0, 0
	}
	fixed, cols := 0, 0
	for _, n := range []int{c.seq, c.mark, c.time, c.profile, c.attempt, c.outcome, c.dur} {
		if n > 0 {
			fixed += n
			cols++
		}
	}
	// The pod's column and the spaces between columns take the rest.
	c.pod = w - fixed - cols - 3
	if notes {
		rest := c.pod - 1
		c.pod = max(rest*2/5, min(12, rest/2))
		c.note = rest - c.pod
		return c
	}
	for _, drop := range []*int{&c.time, &c.attempt, &c.dur} {
		if c.pod >= 12 {
			break
		}
		c.pod += *drop + 1
		*drop = 0
	}
	return c
}

// showsNotes tells whether the rows say their marks' notes: while the
// filter asks for the marked cycles (:marked).
func (l Model) showsNotes() bool {
	return len(l.marks) > 0 && slices.Contains(strings.Fields(strings.ToLower(l.filter)), "marked")
}

// View renders the header and the visible rows only.
func (l Model) View() string {
	if l.w <= 0 || l.h <= 0 {
		return ""
	}
	notes := l.showsNotes()
	col := columnsFor(l.w-2, l.maxSeq, len(l.marks) > 0, notes)
	row := func(seq, mark, time, pod, note, profile, attempt, outcome, dur string) string {
		parts := []string{layout.FitLeft(seq, col.seq)}
		if col.mark > 0 {
			parts = append(parts, layout.Fit(mark, col.mark))
		}
		if col.time > 0 {
			parts = append(parts, layout.Fit(time, col.time))
		}
		parts = append(parts, layout.Fit(pod, col.pod))
		if col.note > 0 {
			parts = append(parts, layout.Fit(note, col.note))
		}
		if col.profile > 0 {
			parts = append(parts, layout.Fit(profile, col.profile))
		}
		if col.attempt > 0 {
			parts = append(parts, layout.FitLeft(attempt, col.attempt))
		}
		parts = append(parts, layout.Fit(outcome, col.outcome))
		if col.dur > 0 {
			parts = append(parts, layout.FitLeft(dur, col.dur))
		}
		return strings.Join(parts, " ")
	}
	// One namespace is said once, in the header, and left out of the rows;
	// a narrow list leaves it out in any case (the cycle header has it).
	ns := l.names.OneNamespace()
	dropNS := ns != "" || col.time == 0
	podHead := "pod"
	if h := "pod (ns " + ns + ")"; ns != "" && ansi.StringWidth(h) <= col.pod {
		podHead = h
	}
	lines := []string{l.st.Header.Render("  " + row("#", "", "time", podHead, "note", "profile", "try", "outcome", "took"))}
	if len(l.rows) == 0 {
		msg := cmp.Or(l.waiting, "waiting for scheduling cycles…")
		if l.filter != "" {
			msg = fmt.Sprintf("no cycle matches %q (%s clears)", l.filter, l.Keys.Back.Help().Key)
		}
		lines = append(lines, "  "+l.st.Dim.Render(msg))
	}
	end := min(l.offset+l.bodyHeight(), len(l.rows))
	for r := l.offset; r < end; r++ {
		i := l.rows[r]
		c := &l.entries[i]
		outcome := l.outcome(c, l.observed[i], col.outcome)
		mark, note := "", ""
		if n, ok := l.marks[c.Seq]; ok && l.tags[i] == "" {
			mark, note = l.st.Key.Render("★"), n
		}
		line := row(l.Number(i), mark, c.Start.UTC().Format("15:04:05.000"), l.groupCell(l.podCell(i, dropNS, col.pod), c.Seq, col.pod), note, c.Profile,
			fmt.Sprint(c.Attempt), outcome, narrate.Duration(c.Duration))
		if r == l.cursor {
			lines = append(lines, l.st.Selected.Render("▸ "+layout.Fit(ansi.Strip(line), l.w-2)))
			continue
		}
		lines = append(lines, "  "+line)
	}
	return strings.Join(layout.Box(lines, l.w, l.h), "\n")
}

// outcome is the outcome cell, w cells at most: the cycle's result, then the
// cluster's verdict on it when o is set. The verdict is never cut away: the
// result gives up room first.
func (l Model) outcome(c *recorder.CycleEntry, o *recorder.Observed, w int) string {
	var s string
	switch c.Result {
	case recorder.ResultBound:
		s = l.st.Success.Render("✓ " + c.Node)
	case recorder.ResultUnschedulable:
		text := "✗ Unschedulable"
		if c.NominatedNode != "" {
			text = "✗ nominated " + c.NominatedNode
		}
		s = l.st.Unschedulable.Render(text)
	default:
		s = l.st.Error.Render("! " + c.Result)
	}
	if o == nil {
		return s
	}
	mark := livebinding.Mark(l.st, o)
	sw, mw := ansi.StringWidth(s), ansi.StringWidth(mark)
	if sw+1+mw <= w {
		return s + " " + mark
	}
	mw = min(mw, max(w/2, w-1-sw))
	return layout.Fit(s, w-1-mw) + " " + layout.Fit(mark, mw)
}

// SetMark marks cycle seq with note, or unmarks it when note is empty: a
// marked row shows ★ in a column of its own (and its note while the filter
// asks for "marked"), and the filter finds it by "marked" and the note's
// words.
func (l *Model) SetMark(seq int, note string) {
	if l.marks == nil {
		l.marks = map[int]string{}
	}
	if note == "" {
		delete(l.marks, seq)
	} else {
		l.marks[seq] = note
	}
	if i, ok := l.bySeq[seq]; ok {
		l.search[i] = searchText(&l.entries[i], l.observed[i]) + l.markText(seq)
		if _, whatIf := l.tags[i]; !whatIf {
			follow := l.follow
			l.SetFilter(l.filter)
			l.follow = follow && l.cursor == len(l.rows)-1
		}
	}
}

// Mark is the note of cycle seq, ok false when it is not marked.
func (l Model) Mark(seq int) (string, bool) {
	n, ok := l.marks[seq]
	return n, ok
}

// markText is what the filter matches of cycle seq's mark and pod group.
func (l Model) markText(seq int) string {
	s := ""
	if g := l.groups[seq]; g != "" {
		s = " group:" + strings.ToLower(g) + " pg/" + strings.ToLower(g)
	}
	n, ok := l.marks[seq]
	if !ok {
		return s
	}
	return s + " marked " + strings.ToLower(n)
}

// SetGroup says cycle seq was a member's cycle of the pod group named
// group: its row says "pg/NAME" after the pod where there is room, and the
// filter finds it by group:NAME.
func (l *Model) SetGroup(seq int, group string) {
	if l.groups == nil {
		l.groups = map[int]string{}
	}
	l.groups[seq] = group
	if i, ok := l.bySeq[seq]; ok {
		was := l.matches(i)
		l.search[i] = searchText(&l.entries[i], l.observed[i]) + l.markText(seq)
		if l.matches(i) != was {
			follow := l.follow
			l.SetFilter(l.filter)
			l.follow = follow && l.cursor == len(l.rows)-1
		}
	}
}

// groupCell is the pod cell of cycle seq, w cells at most, with its pod
// group after the pod when there is room.
func (l Model) groupCell(pod string, seq, w int) string {
	g := l.groups[seq]
	if g == "" {
		return pod
	}
	for _, tag := range []string{" pg/" + g, " pg"} {
		if ansi.StringWidth(pod)+ansi.StringWidth(tag) <= w {
			return pod + l.st.Dim.Render(tag)
		}
	}
	return pod
}

// SetFollow says whether the selection follows new cycles at the tail.
func (l *Model) SetFollow(b bool) { l.follow = b }

// IndexOf is the index of the cycle numbered seq, ok false when it is not
// listed.
func (l Model) IndexOf(seq int) (int, bool) {
	i, ok := l.bySeq[seq]
	return i, ok
}

// Entry is the index entry of cycle index i.
func (l Model) Entry(i int) recorder.CycleEntry { return l.entries[i] }

// Entries are the index entries of every cycle listed, by index; the slice
// is the list's own, to read.
func (l Model) Entries() []recorder.CycleEntry { return l.entries }

// SetResult lists cycle index i with result r instead of its entry's (a
// cycle that could not be read).
func (l *Model) SetResult(i int, r string) {
	l.entries[i].Result = r
	l.search[i] = searchText(&l.entries[i], l.observed[i]) + l.markText(l.entries[i].Seq)
}

// Tags are the what-if re-runs' numbers (3'), by cycle index.
func (l Model) Tags() map[int]string { return l.tags }

// Rows are the cycle indices shown, in order, after the filter.
func (l Model) Rows() []int { return l.rows }

// Position is where the selection is, as "row/rows" of the rows listed (a
// filter lists fewer), or "" when nothing is selected.
func (l Model) Position() string {
	if l.cursor < 0 || l.cursor >= len(l.rows) {
		return ""
	}
	return fmt.Sprintf("%d/%d", l.cursor+1, len(l.rows))
}

// SetWaiting sets what the list says while it holds no cycle ("" for
// "waiting for scheduling cycles…").
func (l *Model) SetWaiting(msg string) { l.waiting = msg }
