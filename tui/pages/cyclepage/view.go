package cyclepage

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/components/explain"
	"github.com/schedscope/schedscope/tui/components/livebinding"
	"github.com/schedscope/schedscope/tui/keyhint"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/podnames"
)

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
	e.SetTopic(explain.Topic{Phase: v.phase.String(), PhaseDoc: narrate.PhaseDoc(v.phase.String()), Plugin: v.selectedPlugin(), Group: v.group})
	e.SetSize(w, h)
	return e.View()
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

// titleLines are the cycle header, then the cycle's mark (★ and its note)
// and, when the cycle's pod was bound by a live cluster, how that compares
// with the prediction: each beside the header when it fits, else on a line
// of its own.
func (v *Model) titleLines() []string {
	lines := []string{v.headerLine()}
	var more []string
	if v.mark != "" {
		more = append(more, v.st.Key.Render("★ "+v.mark))
	}
	if v.observed != nil {
		more = append(more, livebinding.Text(v.st, v.observed))
	}
	for _, s := range more {
		last := &lines[len(lines)-1]
		if ansi.StringWidth(*last)+3+ansi.StringWidth(s) <= v.w {
			*last += " · " + s
			continue
		}
		lines = append(lines, s)
	}
	return lines
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
	rest := fmt.Sprintf(" · attempt %d · %s · %s", c.Attempt, c.Profile, out)
	// A long pod name gives up its middle, not its own end (a replica's
	// suffix), when the outcome after it would be cut otherwise; the
	// duration may still be.
	pod := c.Pod.Key()
	// Two cells more: a cut line ends in " …", after the outcome.
	if room := v.w - ansi.StringWidth(title) - 1 - ansi.StringWidth(rest) - 2; room < ansi.StringWidth(pod) && room >= minPodCell {
		pod = podnames.FitAlone(pod, room)
	}
	return title + " " + v.st.Bold.Render(pod) + rest + " · " + narrate.Duration(c.Duration)
}

// minPodCell is the fewest cells a pod's name is cut to in the header:
// with less room the line's end is cut instead.
const minPodCell = 12

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
