package tui

import (
	"cmp"
	"slices"
	"strings"

	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/layout"
)

// nodeSort is how node rows are ordered.
type nodeSort uint8

const (
	sortStatus nodeSort = iota // chosen, feasible, discarded, rejected by plugin, not evaluated
	sortScore                  // total score, best first
	sortName
	sortSnapshot // the order of the scheduler's node snapshot
	numSorts
)

func (s nodeSort) String() string {
	return [...]string{"status", "score", "name", "snapshot"}[s]
}

// nodeShow narrows node rows by status.
type nodeShow uint8

const (
	showAll nodeShow = iota
	showPassed
	showRejected
	showNotEvaluated
	numShows
)

func (s nodeShow) String() string {
	return [...]string{"all", "passed", "rejected", "not evaluated"}[s]
}

// nodeTable is the scrolling, sortable, filterable list of node rows the filter,
// score and weighted views share. Rows are node indices; only the visible
// window is ever rendered.
type nodeTable struct {
	a        *analysis.Result
	universe []int // the rows the current view can show
	rows     []int // universe after filtering and sorting
	sort     nodeSort
	show     nodeShow
	name     string // substring filter on node names
	cursor   int
	offset   int
	// selNode is the node the cursor is on, kept across views and re-sorts.
	selNode int
}

// setUniverse changes which nodes the table shows and re-applies the query.
func (t *nodeTable) setUniverse(a *analysis.Result, universe []int) {
	t.a, t.universe = a, universe
	t.apply()
}

// apply recomputes rows from the universe and the query, keeping the selected
// node under the cursor when it is still shown.
func (t *nodeTable) apply() {
	if t.a == nil {
		return
	}
	t.rows = t.rows[:0]
	name := strings.ToLower(t.name)
	for _, n := range t.universe {
		if name != "" && !strings.Contains(strings.ToLower(t.a.Cycle.NodeName(n)), name) {
			continue
		}
		if !t.shows(n) {
			continue
		}
		t.rows = append(t.rows, n)
	}
	a := t.a
	switch t.sort {
	case sortStatus:
		slices.SortStableFunc(t.rows, func(x, y int) int {
			if c := cmp.Compare(a.StatusRank(x), a.StatusRank(y)); c != 0 {
				return c
			}
			tx, _ := a.Total(x)
			ty, _ := a.Total(y)
			return cmp.Compare(ty, tx)
		})
	case sortScore:
		slices.SortStableFunc(t.rows, func(x, y int) int {
			tx, okx := a.Total(x)
			ty, oky := a.Total(y)
			if okx != oky {
				if okx {
					return -1
				}
				return 1
			}
			if c := cmp.Compare(ty, tx); c != 0 {
				return c
			}
			return cmp.Compare(a.StatusRank(x), a.StatusRank(y))
		})
	case sortName:
		slices.SortStableFunc(t.rows, func(x, y int) int { return strings.Compare(a.Cycle.NodeName(x), a.Cycle.NodeName(y)) })
	case sortSnapshot:
		slices.Sort(t.rows)
	}
	t.cursor = 0
	if i := slices.Index(t.rows, t.selNode); i >= 0 {
		t.cursor = i
	} else if len(t.rows) > 0 {
		t.selNode = t.rows[0]
	}
}

func (t *nodeTable) shows(n int) bool {
	st := t.a.Nodes[n].State
	switch t.show {
	case showPassed:
		return st == analysis.Feasible || st == analysis.Discarded
	case showRejected:
		return st == analysis.Rejected
	case showNotEvaluated:
		return st == analysis.NotEvaluated
	}
	return true
}

// move moves the cursor by d rows.
func (t *nodeTable) move(d int) { t.moveTo(t.cursor + d) }

// moveTo puts the cursor on row i.
func (t *nodeTable) moveTo(i int) {
	if len(t.rows) == 0 {
		t.cursor = 0
		return
	}
	t.cursor = layout.Clamp(i, 0, len(t.rows)-1)
	t.selNode = t.rows[t.cursor]
}

// selected returns the node under the cursor, ok false when there is none.
func (t *nodeTable) selected() (int, bool) {
	if t.cursor < 0 || t.cursor >= len(t.rows) {
		return 0, false
	}
	return t.rows[t.cursor], true
}

// window returns the visible slice of rows for h lines and the index of its first row.
func (t *nodeTable) window(h int) ([]int, int) {
	off := layout.ScrollTo(t.offset, t.cursor, h, len(t.rows))
	end := min(off+h, len(t.rows))
	return t.rows[off:end], off
}

// keepVisible stores the offset that keeps the cursor visible in h lines.
func (t *nodeTable) keepVisible(h int) {
	t.offset = layout.ScrollTo(t.offset, t.cursor, h, len(t.rows))
}

// query describes the active sort and filters, for hints.
func (t *nodeTable) query() string {
	q := "sort " + t.sort.String()
	if t.show != showAll {
		q += " · show " + t.show.String()
	}
	if t.name != "" {
		q += " · name ~ " + t.name
	}
	return q
}
