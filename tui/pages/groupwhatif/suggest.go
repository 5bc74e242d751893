package groupwhatif

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/components/whatifscreen"
	"github.com/schedscope/schedscope/tui/layout"
)

// Suggest lists the changes suggest --pod-group found, smallest first,
// each with where its confirming run bound the members and the command
// line that shows it; enter runs the selected one as a what-if.
type Suggest struct {
	base
	res    *SuggestResult
	target target
	cursor int
}

// Selected returns the suggestion under the cursor.
func (p Suggest) Selected() (Suggestion, bool) {
	if p.res == nil || p.cursor >= len(p.res.Suggestions) {
		return Suggestion{}, false
	}
	return p.res.Suggestions[p.cursor], true
}

// Update moves the cursor; enter asks for the selected change's run.
func (p Suggest) Update(msg tea.Msg) (Screen, Ask, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok || p.res == nil {
		return p, Ask{}, nil
	}
	k := p.keys
	switch {
	case key.Matches(km, k.Cancel):
		return nil, Ask{}, nil
	case key.Matches(km, k.Up):
		p.cursor = max(p.cursor-1, 0)
	case key.Matches(km, k.Down):
		p.cursor = max(min(p.cursor+1, len(p.res.Suggestions)-1), 0)
	case key.Matches(km, k.Choose):
		if s, ok := p.Selected(); ok && s.Change != nil {
			t := p.target
			t.base = nil
			return nil, Ask{Run: true, Target: t, Change: s.Change}, nil
		}
	}
	return p, Ask{}, nil
}

// View draws the list, the selected suggestion kept in view.
func (p Suggest) View() string {
	if p.res == nil || p.w <= 0 || p.h <= 0 {
		return ""
	}
	st, r, w := p.st, p.res, p.w
	var lines []string
	add := func(text, indent string, style func(...string) string) {
		for _, l := range wrap(text, w, indent) {
			lines = append(lines, style(layout.Fit(l, w)))
		}
	}
	plain := func(s ...string) string { return strings.Join(s, "") }
	add(st.Title.Render("suggest")+st.Dim.Render(" · pod group "+r.Group.Key()+" in the fixture as it is"), "  ", plain)
	if g := r.Now; g != nil {
		now := "now: " + g.Outcome.Result
		if m := strings.TrimSpace(g.Outcome.Message); m != "" {
			now += `: "` + m + `"`
		}
		add(now, "  ", st.Dim.Render)
	}
	if r.Note != "" {
		add(r.Note, "  ", st.Dim.Render)
		return strings.Join(lines, "\n")
	}
	tried := fmt.Sprintf("ran the fixture again %d time(s), one per candidate change drawn from the group's last cycle", r.Tried)
	if r.Unconfirmed > 0 {
		tried += fmt.Sprintf("; %d did not let it bind", r.Unconfirmed)
	}
	add(tried, "  ", st.Dim.Render)
	lines = append(lines, "")
	if len(r.Suggestions) == 0 {
		lines = append(lines, "  "+st.Unschedulable.Render(layout.Fit("no single change the search tried lets the group bind", w-2)))
		return strings.Join(lines, "\n")
	}
	add(fmt.Sprintf("%d change(s) let it bind, smallest first; each was confirmed by a run in which the group's cycle bound it:", len(r.Suggestions)), "  ", st.Header.Render)
	var items [][]string
	at := 0
	for i, s := range r.Suggestions {
		var item []string
		item = append(item, wrap(fmt.Sprintf("%d. %s → %s", i+1, s.Text, bindings(r.Group, s.Bindings)), w-2, "   ")...)
		if s.Cycle != nil {
			item = append(item, wrap(fmt.Sprintf("   confirmed: its pod-group cycle %d bound the group", s.Cycle.Seq), w-2, "   ")...)
		}
		if s.Command != "" {
			item = append(item, wrap("   $ "+s.Command, w-2, "       ")...)
		}
		if i == p.cursor {
			at = len(items)
		}
		items = append(items, item)
	}
	// Keep the selected suggestion in view: skip whole ones above it.
	room := p.h - len(lines)
	from := 0
	for ; from < at; from++ {
		used := 0
		for _, it := range items[from : at+1] {
			used += len(it)
		}
		if used <= room {
			break
		}
	}
	for i := from; i < len(items); i++ {
		for k, l := range items[i] {
			switch {
			case i == p.cursor && k == 0:
				lines = append(lines, st.Selected.Render("▸ "+layout.Fit(l, w-2)))
			case i == p.cursor:
				lines = append(lines, st.Selected.Render("  "+layout.Fit(l, w-2)))
			case k > 0:
				lines = append(lines, "  "+st.Dim.Render(layout.Fit(l, w-2)))
			default:
				lines = append(lines, "  "+layout.Fit(l, w-2))
			}
		}
	}
	return strings.Join(layout.ScrollLines(lines, 0, p.h, p.keys.Down), "\n")
}

func (Suggest) Over() bool                { return false }
func (p Suggest) SetSize(w, h int) Screen { p.w, p.h = w, h; return p }
func (p Suggest) Keys() help.KeyMap {
	return whatifscreen.ListHelp{Keys: p.keys.KeyMap, What: "run it: before/after"}
}
func (Suggest) Crumb() string { return "group suggest" }
