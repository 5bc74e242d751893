package whatif

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// SuggestView lists the changes suggest found for a cycle, smallest first;
// enter opens the selected one as a what-if.
type SuggestView struct {
	st   *theme.Styles
	Keys KeyMap

	res    *SuggestResult
	target target
	cursor int
	w, h   int
}

// NewSuggestView returns an empty list.
func NewSuggestView(st *theme.Styles) SuggestView {
	return SuggestView{st: st, Keys: DefaultKeyMap()}
}

// SetSize sets the view's size.
func (v *SuggestView) SetSize(w, h int) { v.w, v.h = w, h }

// SetResult shows what a search found for target.
func (v *SuggestView) SetResult(r *SuggestResult, t target) {
	v.res, v.target, v.cursor = r, t, 0
}

// Target is what the suggestions were searched for.
func (v SuggestView) Target() target { return v.target }

// Selected returns the suggestion under the cursor.
func (v SuggestView) Selected() (Suggestion, bool) {
	if v.res == nil || v.cursor >= len(v.res.Suggestions) {
		return Suggestion{}, false
	}
	return v.res.Suggestions[v.cursor], true
}

// Update moves the cursor.
func (v SuggestView) Update(msg tea.Msg) (SuggestView, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || v.res == nil {
		return v, nil
	}
	switch {
	case key.Matches(k, v.Keys.Up):
		v.cursor = max(v.cursor-1, 0)
	case key.Matches(k, v.Keys.Down):
		v.cursor = max(min(v.cursor+1, len(v.res.Suggestions)-1), 0)
	}
	return v, nil
}

// View renders the list: each suggestion wrapped under its number, the
// selected one reversed.
func (v SuggestView) View() string {
	if v.res == nil || v.w <= 0 || v.h <= 0 {
		return ""
	}
	st, r := v.st, v.res
	lines := []string{st.Title.Render("suggest") + st.Dim.Render(fmt.Sprintf(" · cycle %d · %s", r.Seq, r.Pod))}
	for _, l := range layout.Wrap(r.Note, v.w-2, "  ") {
		lines = append(lines, st.Dim.Render(l))
	}
	lines = append(lines, "")
	if len(r.Suggestions) == 0 {
		lines = append(lines, "  "+st.Unschedulable.Render("no single change the search tried makes the pod schedulable"))
		return strings.Join(lines, "\n")
	}
	lines = append(lines, st.Header.Render(fmt.Sprintf("%d change(s) make it schedulable, smallest first; each was verified by a re-run:", len(r.Suggestions))))
	var rows [][]string
	at := 0
	for i, s := range r.Suggestions {
		land := "lands on " + s.Node
		if s.ViaPreemption {
			land = "preempts, then lands on " + s.Node
		}
		text := fmt.Sprintf("%d. %s → %s", i+1, s.Text, land)
		if i == v.cursor {
			at = len(rows)
		}
		rows = append(rows, layout.Wrap(text, v.w-4, "   "))
	}
	// Keep the selected suggestion in view: skip whole suggestions above it.
	room := v.h - len(lines) - 1
	from := 0
	for used := 0; from < at; from++ {
		used = 0
		for _, rw := range rows[from : at+1] {
			used += len(rw)
		}
		if used <= room {
			break
		}
	}
	for i := from; i < len(rows); i++ {
		for k, l := range rows[i] {
			switch {
			case i == v.cursor && k == 0:
				lines = append(lines, st.Selected.Render("▸ "+layout.Fit(l, v.w-2)))
			case i == v.cursor:
				lines = append(lines, st.Selected.Render("  "+layout.Fit(l, v.w-2)))
			default:
				lines = append(lines, "  "+l)
			}
		}
	}
	return strings.Join(lines, "\n")
}
