// Package nodetable is the scrolling, sortable, filterable list of node rows
// the filter, score and weighted-sum views share. Rows are node indices into
// a cycle's node set; the views render only the visible window.
package nodetable

import (
	"cmp"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/components/pager"
	"github.com/schedscope/schedscope/tui/layout"
)

// Sort is how node rows are ordered.
type Sort uint8

// The sorts, in the order the Sort key steps through them.
const (
	ByStatus   Sort = iota // chosen, feasible, discarded, rejected by plugin, not evaluated
	ByScore                // total score, best first
	ByName                 // node name
	BySnapshot             // the order of the scheduler's node snapshot
	NumSorts
)

// String names the sort, as :sort takes it.
func (s Sort) String() string {
	return [...]string{"status", "score", "name", "snapshot"}[s]
}

// Show narrows node rows by status.
type Show uint8

// The filters by status, in the order the Show key steps through them.
const (
	ShowAll Show = iota
	ShowPassed
	ShowRejected
	ShowNotEvaluated
	NumShows
)

// String names the filter.
func (s Show) String() string {
	return [...]string{"all", "passed", "rejected", "not evaluated"}[s]
}

// KeyMap holds the node table's keys.
type KeyMap struct {
	Up, Down, Top, Bottom, PageUp, PageDown key.Binding
	// Sort steps through the sorts, Show through the filters by status.
	Sort, Show key.Binding
}

// DefaultKeyMap returns the node table's keys: vim keys and arrows.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom")),
		PageUp:   key.NewBinding(key.WithKeys("ctrl+u", "pgup"), key.WithHelp("ctrl+u", "page up")),
		PageDown: key.NewBinding(key.WithKeys("ctrl+d", "pgdown"), key.WithHelp("ctrl+d", "page down")),
		Sort:     key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "sort nodes")),
		Show:     key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "show by status")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Sort, k.Show} }

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown}, {k.Sort, k.Show}}
}

// Model is the node table.
type Model struct {
	Keys     KeyMap
	a        *analysis.Result
	universe []int // the rows the current view can show
	rows     []int // universe after filtering and sorting
	sort     Sort
	show     Show
	name     string // substring filter on node names
	cursor   int
	offset   int
	h        int // rows shown
	// selNode is the node the cursor is on, kept across views and re-sorts.
	selNode int
}

// New returns an empty table, sorted by status.
func New() Model { return Model{Keys: DefaultKeyMap()} }

// SetUniverse changes which nodes the table shows (of a's cycle) and
// re-applies the sort and filters.
func (t *Model) SetUniverse(a *analysis.Result, universe []int) {
	t.a, t.universe = a, universe
	t.apply()
}

// Focus puts the cursor on node when the rows are next laid out
// (SetUniverse); -1 for the first row.
func (t *Model) Focus(node int) { t.selNode = node }

// SetSort orders the rows by s.
func (t *Model) SetSort(s Sort) {
	t.sort = s
	t.apply()
}

// SortBy is the rows' order.
func (t Model) SortBy() Sort { return t.sort }

// SetShow narrows the rows by status.
func (t *Model) SetShow(s Show) {
	t.show = s
	t.apply()
}

// SetName filters the rows by a node name substring ("" for none).
func (t *Model) SetName(name string) {
	t.name = name
	t.apply()
}

// Name is the node name filter.
func (t Model) Name() string { return t.name }

// Rows are the nodes shown, in order.
func (t Model) Rows() []int { return t.rows }

// Cursor is the row the cursor is on.
func (t Model) Cursor() int { return t.cursor }

// SetHeight sets how many rows are shown, and scrolls the cursor into them.
func (t *Model) SetHeight(h int) {
	t.h = h
	t.offset = layout.ScrollTo(t.offset, t.cursor, h, len(t.rows))
}

// Handles tells whether msg is one of the table's keys, enabled.
func (t Model) Handles(msg tea.KeyPressMsg) bool {
	k := t.Keys
	return key.Matches(msg, k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, k.Sort, k.Show)
}

// Update moves the cursor and steps the sort and the filter by status.
func (t Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return t, nil
	}
	moves := pager.KeyMap{Up: t.Keys.Up, Down: t.Keys.Down, Top: t.Keys.Top, Bottom: t.Keys.Bottom, PageUp: t.Keys.PageUp, PageDown: t.Keys.PageDown}
	if n, ok := moves.Step(k, t.h); ok {
		t.Move(n)
		t.SetHeight(t.h)
		return t, nil
	}
	switch {
	case key.Matches(k, t.Keys.Sort):
		t.SetSort((t.sort + 1) % NumSorts)
	case key.Matches(k, t.Keys.Show):
		t.SetShow((t.show + 1) % NumShows)
	}
	t.SetHeight(t.h)
	return t, nil
}

// apply recomputes rows from the universe and the query, keeping the selected
// node under the cursor when it is still shown.
func (t *Model) apply() {
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
	case ByStatus:
		slices.SortStableFunc(t.rows, func(x, y int) int {
			if c := cmp.Compare(a.StatusRank(x), a.StatusRank(y)); c != 0 {
				return c
			}
			tx, _ := a.Total(x)
			ty, _ := a.Total(y)
			return cmp.Compare(ty, tx)
		})
	case ByScore:
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
	case ByName:
		slices.SortStableFunc(t.rows, func(x, y int) int { return strings.Compare(a.Cycle.NodeName(x), a.Cycle.NodeName(y)) })
	case BySnapshot:
		slices.Sort(t.rows)
	}
	t.cursor = 0
	if i := slices.Index(t.rows, t.selNode); i >= 0 {
		t.cursor = i
	} else if len(t.rows) > 0 {
		t.selNode = t.rows[0]
	}
}

func (t *Model) shows(n int) bool {
	st := t.a.Nodes[n].State
	switch t.show {
	case ShowPassed:
		return st == analysis.Feasible || st == analysis.Discarded
	case ShowRejected:
		return st == analysis.Rejected
	case ShowNotEvaluated:
		return st == analysis.NotEvaluated
	}
	return true
}

// Move moves the cursor by d rows.
func (t *Model) Move(d int) { t.MoveTo(t.cursor + d) }

// MoveTo puts the cursor on row i.
func (t *Model) MoveTo(i int) {
	if len(t.rows) == 0 {
		t.cursor = 0
		return
	}
	t.cursor = layout.Clamp(i, 0, len(t.rows)-1)
	t.selNode = t.rows[t.cursor]
}

// Selected returns the node under the cursor, ok false when there is none.
func (t Model) Selected() (int, bool) {
	if t.cursor < 0 || t.cursor >= len(t.rows) {
		return 0, false
	}
	return t.rows[t.cursor], true
}

// Window returns the visible slice of rows for h lines and the index of its first row.
func (t Model) Window(h int) ([]int, int) {
	off := layout.ScrollTo(t.offset, t.cursor, h, len(t.rows))
	end := min(off+h, len(t.rows))
	return t.rows[off:end], off
}

// Query describes the active sort and filters, for hints.
func (t Model) Query() string {
	q := "sort " + t.sort.String()
	if t.show != ShowAll {
		q += " · show " + t.show.String()
	}
	if t.name != "" {
		q += " · name ~ " + t.name
	}
	return q
}
