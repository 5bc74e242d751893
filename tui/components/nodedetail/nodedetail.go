// Package nodedetail shows one node as a scheduling cycle saw it: labels,
// taints, allocatable against requested, the pods placed there, and the
// node's filter and score results in the cycle.
package nodedetail

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/glyph"
	"github.com/schedscope/schedscope/tui/keyhint"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// Model shows one node as a cycle saw it.
type Model struct {
	st     *theme.Styles
	Keys   KeyMap
	c      *recorder.Cycle
	a      *analysis.Result
	node   int
	use    recorder.NodeUse
	hasUse bool
	// usage is what the use came from; pending says a replay is still
	// reading it.
	usage   *recorder.Usage
	pending bool
	scroll  int
	w, h    int
}

// KeyMap holds the node detail's keys.
type KeyMap struct {
	Up, Down key.Binding
	// Back closes the detail; the view that opened it acts on it.
	Back key.Binding
}

// DefaultKeyMap returns the node detail's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:   key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down: key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		Back: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Back, keyhint.Pair(k.Up, k.Down, "scroll")}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Back}}
}

// New describes node (an index into c's node set) as a analyzed by a. The
// node use is not known yet: SetUsage gives it, and AwaitUsage says it is
// being read.
func New(st *theme.Styles, c *recorder.Cycle, a *analysis.Result, node int) Model {
	return Model{st: st, Keys: DefaultKeyMap(), c: c, a: a, node: node}
}

// SetUsage takes the node use as of the cycle (recorder.UsageAt).
func (d *Model) SetUsage(usage *recorder.Usage) {
	d.usage = usage
	if usage != nil {
		d.use, d.hasUse = usage.Node(d.c.NodeName(d.node))
		d.pending = false
	}
}

// AwaitUsage says the node use is being read: the pods on the node are
// shown as coming until SetUsage gives it.
func (d *Model) AwaitUsage() {
	if d.usage == nil {
		d.pending = true
	}
}

// Pending reports whether the detail waits for the node use.
func (d Model) Pending() bool { return d.pending }

// Node is the node shown, an index into the cycle's node set.
func (d Model) Node() int { return d.node }

// SetSize sets the detail's size.
func (d *Model) SetSize(w, h int) { d.w, d.h = w, h }

// Scroll moves the view by n lines.
func (d *Model) Scroll(n int) {
	d.scroll = layout.Clamp(d.scroll+n, 0, max(len(d.lines())-d.h, 0))
}

// Update scrolls the detail with its keys.
func (d Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, d.Keys.Up):
			d.Scroll(-1)
		case key.Matches(k, d.Keys.Down):
			d.Scroll(1)
		}
	}
	return d, nil
}

// View renders the visible lines.
func (d Model) View() string {
	return strings.Join(layout.ScrollLines(d.lines(), d.scroll, d.h, d.Keys.Down), "\n")
}

func (d Model) lines() []string {
	c, st := d.c, d.st
	name := c.NodeName(d.node)
	lines := []string{st.Title.Render("node "+name) + st.Dim.Render(fmt.Sprintf("  (#%d of %s in the snapshot) · ", d.node, analysis.SnapshotSize(c))) + keyhint.Line(st, d.Keys.Back)}
	var info *recorder.NodeInfo
	if c.Nodes != nil && d.node < len(c.Nodes.Info) {
		info = &c.Nodes.Info[d.node]
	}
	if info == nil {
		lines = append(lines, st.Dim.Render("  node details were not recorded"))
	} else {
		if info.Unschedulable {
			lines = append(lines, "  "+st.Unresolvable.Render("cordoned (spec.unschedulable)"))
		}
		lines = append(lines, "", st.Header.Render("labels"))
		for _, k := range slices.Sorted(maps.Keys(info.Labels)) {
			lines = append(lines, "  "+k+"="+info.Labels[k])
		}
		if len(info.Labels) == 0 {
			lines = append(lines, st.Dim.Render("  none"))
		}
		lines = append(lines, "", st.Header.Render("taints"))
		for _, t := range info.Taints {
			kv := t.Key
			if t.Value != "" {
				kv += "=" + t.Value
			}
			lines = append(lines, "  "+kv+":"+t.Effect)
		}
		if len(info.Taints) == 0 {
			lines = append(lines, st.Dim.Render("  none"))
		}
		lines = append(lines, "", st.Header.Render("allocatable vs requested (as this cycle saw it)"))
		lines = append(lines, d.resourceBars(info)...)
	}
	lines = append(lines, "", st.Header.Render("pods on the node"))
	switch {
	case d.pending:
		lines = append(lines, st.Dim.Render("  reading the recording up to this cycle…"))
	case d.hasUse && len(d.use.Pods) > 0:
		for _, p := range d.use.Pods {
			lines = append(lines, fmt.Sprintf("  %s (priority %d)", p.Key(), p.Priority))
		}
	default:
		lines = append(lines, st.Dim.Render("  none recorded"))
	}
	lines = append(lines, "", st.Header.Render("in this cycle"))
	lines = append(lines, d.filterResult()...)
	lines = append(lines, d.scoreResult()...)
	return lines
}

// resourceBars draws requested against allocatable, one bar per resource.
func (d Model) resourceBars(info *recorder.NodeInfo) []string {
	var out []string
	// What the pod asks goes beside each resource it requests, and takes
	// its room from the bars.
	asksW := 0
	if len(d.c.Requests) > 0 {
		asksW = 14
	}
	barW := layout.Clamp(d.w-2-18-1-24-asksW, 10, 50)
	keys := slices.Sorted(maps.Keys(info.Allocatable))
	for _, res := range keys {
		alloc := info.Allocatable[res]
		var req int64
		if d.hasUse {
			req = d.use.Requested[res]
		}
		asks := ""
		if want, ok := d.c.Requests[res]; ok && want > 0 {
			style := d.st.Dim
			if want > alloc-req {
				style = d.st.Unschedulable
			}
			asks = style.Render(" · pod asks " + narrate.Quantity(res, want))
		}
		filled := 0
		if alloc > 0 {
			filled = int(min(req*int64(barW)/alloc, int64(barW)))
		}
		style := d.st.Success
		if alloc > 0 && req*10 >= alloc*9 {
			style = d.st.Unschedulable
		}
		bar := style.Render(strings.Repeat("█", filled)) + d.st.NotCalled.Render(strings.Repeat("░", barW-filled))
		out = append(out, fmt.Sprintf("  %s %s %s%s", layout.Fit(res, 18), bar, fmt.Sprintf("%s / %s", narrate.Quantity(res, req), narrate.Quantity(res, alloc)), asks))
	}
	if len(keys) == 0 {
		out = append(out, d.st.Dim.Render("  allocatable not recorded"))
	}
	return out
}

func (d Model) filterResult() []string {
	a, st := d.a, d.st
	r := &a.Nodes[d.node]
	var out []string
	switch r.State {
	case analysis.Feasible:
		out = append(out, "  Filter: "+st.Success.Render("passed every filter"))
	case analysis.Discarded:
		out = append(out, "  Filter: "+st.Discarded.Render(narrate.NotKept))
	case analysis.Rejected:
		out = append(out, "  Filter: "+glyph.Style(st, glyph.Of(r.Code)).Render(fmt.Sprintf("rejected by %s (%s)", a.FilterPlugin(r.Plugin), r.Code)))
		reasons := r.Reasons
		if a.FilterPlugin(r.Plugin) == recorder.PluginNodeResourcesFit && d.usage != nil {
			if list := recorder.NodeShortfalls(d.c, d.node, r.Reasons, d.use); len(list) == len(r.Reasons) {
				reasons = nil
				for _, sh := range list {
					reasons = append(reasons, narrate.Shortfall(sh))
				}
			}
		}
		if list := d.c.DeviceShortfalls[d.node]; len(list) > 0 {
			reasons = nil
			for _, ds := range list {
				reasons = append(reasons, narrate.DeviceShortfall(ds))
			}
		}
		for _, reason := range reasons {
			out = append(out, layout.Wrap("    "+reason, max(d.w, 20), "      ")...)
		}
		if n := narrate.Nominated(r.Nominated); n != "" {
			out = append(out, "    "+st.Dim.Render(n))
		}
	default:
		out = append(out, "  Filter: "+st.Dim.Render("not evaluated"))
	}
	if f := d.c.Filter; f != nil && len(f.Plugins) > 0 {
		var b strings.Builder
		for p := range f.Plugins {
			k := a.FilterCell(d.node, p)
			b.WriteString(glyph.Style(st, k).Render(k.Glyph()) + " " + narrate.Abbrev(f.Plugins[p]) + "  ")
		}
		out = append(out, "  "+b.String())
	}
	if cells := a.Diag[d.node]; d.c.Diagnostic != nil {
		var fails []string
		for _, cell := range cells {
			if cell.Code != recorder.CodeSkip && cell.Plugin < len(d.c.Diagnostic.Plugins) {
				fails = append(fails, fmt.Sprintf("%s (%s)", d.c.Diagnostic.Plugins[cell.Plugin], strings.Join(cell.Reasons, "; ")))
			}
		}
		if len(fails) == 0 {
			out = append(out, "  diagnostic pass: passes every filter")
		} else {
			out = append(out, "  diagnostic pass: fails "+strings.Join(fails, ", "))
		}
	}
	return out
}

func (d Model) scoreResult() []string {
	s := d.c.Score
	i := d.a.Nodes[d.node].Score
	if s == nil || i < 0 {
		return []string{"  Score: " + d.st.Dim.Render("not scored")}
	}
	out := []string{fmt.Sprintf("  Score: total %d", s.Totals[i])}
	for p := range s.Plugins {
		pl := &s.Plugins[p]
		line := fmt.Sprintf("    %s raw %d", layout.Fit(pl.Name, 32), pl.Raw[i])
		if pl.Normalized != nil {
			line += fmt.Sprintf(" → %d", pl.Normalized[i])
		}
		out = append(out, line+fmt.Sprintf(" × %d = %d", pl.Weight, s.Weighted(p, i)))
		out = append(out, d.arithmetic(pl.Name, pl.Raw[i])...)
	}
	return out
}

// arithmetic works out a resource plugin's raw score from the node's
// allocatable, what was placed on it and the pod's requests, as the cycle
// recorded them (narrate.ScoreArithmetic), when it has them all.
func (d Model) arithmetic(plugin string, raw int64) []string {
	ns := d.c.Nodes
	if ns == nil || d.node >= len(ns.Info) || d.usage == nil { // the node's use is still being read
		return nil
	}
	a, ok := narrate.ScoreArithmetic(plugin, narrate.ScoreInputs{Allocatable: ns.Info[d.node].Allocatable,
		Requested: d.use.Requested, NonZeroRequested: d.use.NonZero, Pod: d.c.Requests, NonZeroPod: d.c.NonZeroRequests}, raw)
	if !ok {
		return nil
	}
	var out []string
	for _, l := range a.Lines {
		for _, w := range layout.Wrap(l, max(d.w-8, 20), "  ") {
			style := d.st.Dim
			if !a.Matches {
				style = d.st.Problem
			}
			out = append(out, "      "+style.Render(w))
		}
	}
	return out
}
