package groupwhatif

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/layout"
)

// Compare is a group's pod-group cycle before and after the changes, side
// by side: the outcome, the minCount verdict, where each member went
// (bound, reverted, fit nowhere, not reached), where the run bound them,
// the group's message and condition. Rows that differ are marked ±.
type Compare struct {
	base
	res    *Result
	target target
	scroll int
}

func newCompare(b base, res *Result, t target) Compare {
	t.base = res.Changes
	if res.After != nil {
		t.cycle = res.After
	}
	return Compare{base: b, res: res, target: t}
}

// Update scrolls; w opens the menu on the changed run (a change adds to
// these), esc closes.
func (p Compare) Update(msg tea.Msg) (Screen, Ask, tea.Cmd) {
	if wheel, ok := msg.(tea.MouseWheelMsg); ok {
		switch wheel.Button {
		case tea.MouseWheelUp:
			p.scroll -= 3
		case tea.MouseWheelDown:
			p.scroll += 3
		}
		p.scroll = layout.Clamp(p.scroll, 0, max(len(p.lines())-p.h, 0))
		return p, Ask{}, nil
	}
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, Ask{}, nil
	}
	k := p.keys
	switch {
	case key.Matches(km, k.Cancel):
		return nil, Ask{}, nil
	case key.Matches(km, k.Open):
		return Menu{base: p.base, target: p.target}, Ask{}, nil
	case key.Matches(km, k.Up):
		p.scroll--
	case key.Matches(km, k.Down):
		p.scroll++
	case key.Matches(km, k.PageUp):
		p.scroll -= max(p.h-1, 1)
	case key.Matches(km, k.PageDown):
		p.scroll += max(p.h-1, 1)
	case key.Matches(km, k.Top):
		p.scroll = 0
	case key.Matches(km, k.Bottom):
		p.scroll = len(p.lines())
	}
	p.scroll = layout.Clamp(p.scroll, 0, max(len(p.lines())-p.h, 0))
	return p, Ask{}, nil
}

// View draws the before and after.
func (p Compare) View() string {
	if p.w <= 0 || p.h <= 0 {
		return ""
	}
	return strings.Join(layout.ScrollLines(p.lines(), p.scroll, p.h, p.keys.PageDown), "\n")
}

// row is one line of the table: a label, and what each run says.
type row struct {
	label, before, after string
	// indent sets the label in (a member under "members").
	indent bool
}

// rows are the table's rows.
func (p Compare) rows() []row {
	r := p.res
	b, a := r.Before, r.After
	cell := func(g *recorder.PodGroupCycle, f func(*recorder.PodGroupCycle) string) string {
		if g == nil {
			return "no pod-group cycle (fewer members than minCount, or none)"
		}
		return f(g)
	}
	both := func(label string, f func(*recorder.PodGroupCycle) string) row {
		return row{label: label, before: cell(b, f), after: cell(a, f)}
	}
	rows := []row{
		both("group cycle", func(g *recorder.PodGroupCycle) string { return fmt.Sprint(g.Seq) }),
		both("policy", narrate.GroupPolicy),
		both("outcome", func(g *recorder.PodGroupCycle) string {
			if g.Outcome.WaitingOnPreemption {
				return g.Outcome.Result + ", waiting on preemption"
			}
			return g.Outcome.Result
		}),
		both("minCount", narrate.MinCountVerdict),
		{label: "members"},
	}
	for _, name := range memberNames(b, a) {
		where := func(g *recorder.PodGroupCycle) string {
			for _, m := range g.Members {
				if m.Pod.Name == name {
					return narrate.MemberWhere(g, m)
				}
			}
			return "not in this pod-group cycle"
		}
		rw := both(name, where)
		rw.indent = true
		rows = append(rows, rw)
	}
	rows = append(rows,
		row{label: "bound at the end", before: bindings(r.Group, r.BindingsBefore), after: bindings(r.Group, r.BindingsAfter)},
		both("message", func(g *recorder.PodGroupCycle) string {
			if m := strings.TrimSpace(g.Outcome.Message); m != "" {
				return `"` + m + `"`
			}
			return "none"
		}),
		both("condition", func(g *recorder.PodGroupCycle) string { return narrate.GroupCondition(g.Condition) }),
	)
	return rows
}

// memberNames are the members of b, in its order, then those only a has.
func memberNames(b, a *recorder.PodGroupCycle) []string {
	var out []string
	for _, g := range []*recorder.PodGroupCycle{b, a} {
		if g == nil {
			continue
		}
		for _, m := range g.Members {
			if !slices.Contains(out, m.Pod.Name) {
				out = append(out, m.Pod.Name)
			}
		}
	}
	return out
}

// bindings lists where a run bound the members: "infer-0 → s1, infer-2
// unbound", the group's namespace left out.
func bindings(group recorder.PodGroupRef, b map[string]string) string {
	if len(b) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(b)) {
		name := strings.TrimPrefix(k, group.Namespace+"/")
		if b[k] == "" {
			parts = append(parts, name+" unbound")
			continue
		}
		parts = append(parts, name+" → "+b[k])
	}
	return strings.Join(parts, ", ")
}

// lines is the whole screen, before scrolling.
func (p Compare) lines() []string {
	st, w, r := p.st, p.w, p.res
	title := "pod group " + r.Group.Key() + ": " + joinChanges(r.Changes)
	lines := []string{}
	for i, l := range wrap(title, w, "  ") {
		if i == 0 {
			l = st.Title.Render(l)
		}
		lines = append(lines, layout.Fit(l, w))
	}
	if r.Command != "" {
		for _, l := range wrap("$ "+r.Command, w, "    ") {
			lines = append(lines, st.Dim.Render(layout.Fit(l, w)))
		}
	}
	lines = append(lines, "")

	rows := p.rows()
	labelW := 0
	for _, rw := range rows {
		lw := ansi.StringWidth(rw.label)
		if rw.indent {
			lw += 2
		}
		labelW = max(labelW, lw)
	}
	labelW = min(labelW, max(w/5, 10)) + 1
	// "± " marks, the label, then the two columns three cells apart.
	colW := max((w-2-labelW-3)/2, 8)
	head := "  " + layout.Fit("", labelW) + st.Header.Render(layout.Fit("before: the fixture as it is", colW)) + "   " + st.Header.Render(layout.Fit("after: changed", colW))
	lines = append(lines, layout.Fit(head, w))
	for _, rw := range rows {
		label := rw.label
		if rw.indent {
			label = "  " + label
		}
		if rw.before == "" && rw.after == "" {
			lines = append(lines, "  "+st.Bold.Render(layout.Fit(label, labelW)))
			continue
		}
		mark := "  "
		afterStyle := lipgloss.NewStyle()
		if rw.before != rw.after {
			mark, afterStyle = st.WhatIf.Render("± "), st.WhatIf
		}
		left := wrap(rw.before, colW, "")
		right := wrap(rw.after, colW, "")
		for i := range max(len(left), len(right)) {
			l, rt := "", ""
			if i < len(left) {
				l = left[i]
			}
			if i < len(right) {
				rt = right[i]
			}
			lead, name := "  ", ""
			if i == 0 {
				lead, name = mark, layout.Fit(label, labelW-1)
			}
			lines = append(lines, layout.Fit(lead+layout.Fit(name, labelW)+layout.Fit(l, colW)+" │ "+afterStyle.Render(layout.Fit(rt, colW)), w))
		}
	}
	return lines
}

func (Compare) Over() bool { return false }
func (p Compare) SetSize(w, h int) Screen {
	p.w, p.h = w, h
	p.scroll = layout.Clamp(p.scroll, 0, max(len(p.lines())-p.h, 0))
	return p
}
func (p Compare) Keys() help.KeyMap { return compareKeys{p.keys} }
func (Compare) Crumb() string       { return "group what-if" }
