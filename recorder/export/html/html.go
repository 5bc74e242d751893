// Package html writes a recording's cycles as one standalone HTML page
// (-o html) with the filter matrix and score bars, over the rows package
// document builds.
package html

import (
	"html"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/document"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/table"
	"github.com/schedscope/schedscope/recorder/visible"
)

// Writer writes cycles as one standalone HTML page (-o html), for docs
// and incident reports: no script, no file beside it, styles inline. Per
// cycle, the outcome and message, the filter matrix as the TUI draws it
// (nodes × plugins, the rejecting plugin marked), the weighted scores as
// stacked bars, a colour a plugin, with the totals, and why the winner won.
// What a recording holds is escaped twice over: visible.String, then HTML.
type Writer struct {
	document.Out
}

// Esc is a recorded string, safe in HTML text and attributes.
func Esc(s string) string { return html.EscapeString(visible.String(s)) }

// pluginColours colour each plugin's part of a score bar, in the plugins'
// order; the palette repeats past its end.
var pluginColours = []string{"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"}

const htmlStyle = `body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ddd;padding-bottom:.2em}h3{font-size:1em;margin:1.2em 0 .4em}
code{font:12px ui-monospace,Menlo,monospace;background:#f4f4f4;padding:0 .25em}
blockquote{margin:.6em 0;padding:.3em .8em;border-left:3px solid #e15759;background:#fdf3f3}
.mark{border-left-color:#edc948;background:#fdf8e6}
table{border-collapse:collapse;margin:.4em 0}th,td{border:1px solid #ddd;padding:.15em .5em;text-align:center}
td.node,th.node{text-align:left;font-family:ui-monospace,Menlo,monospace;white-space:nowrap}td.why{text-align:left}
td.pass{color:#2e7d32}td.reject{background:#e15759;color:#fff;font-weight:bold}td.skip{color:#999}td.notrun{color:#ccc}
.bars{display:grid;grid-template-columns:max-content 1fr max-content;gap:.25em .6em;align-items:center}
.bar{display:flex;height:1.1em;background:#f4f4f4}.bar span{display:block;height:100%}
.node{white-space:nowrap}.chosen{font-weight:bold}.legend span{display:inline-block;margin-right:1em}.legend i{display:inline-block;width:.9em;height:.9em;margin-right:.3em;vertical-align:-.1em}
.dim{color:#777}`

func (h *Writer) Begin(hd recorder.Header, source string) {
	h.Printf("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Scheduling cycles of %s</title>\n<style>%s</style></head><body>\n", Esc(source), htmlStyle)
	h.Printf("<h1>Scheduling cycles of %s</h1>\n<p class=\"dim\">schedscope %s · kube-scheduler %s%s", Esc(source), Esc(hd.SchedscopeVersion), Esc(hd.KubernetesVersion), Esc(document.GatesNote(hd)))
	if len(hd.Profiles) > 0 {
		var names []string
		for _, p := range hd.Profiles {
			names = append(names, Esc(p.SchedulerName))
		}
		h.Printf(" · profiles: %s", strings.Join(names, ", "))
	}
	h.Printf("</p>\n")
}

func (h *Writer) End() { h.Printf("</body></html>\n") }

func (h *Writer) Cycle(c *recorder.Cycle) {
	mark := map[string]string{recorder.ResultBound: "✓", recorder.ResultUnschedulable: "✗"}[c.Outcome.Result]
	if mark == "" {
		mark = "!"
	}
	h.Printf("<h2 id=\"cycle-%d\">Cycle %d · <code>%s</code> · %s %s</h2>\n", c.Seq, c.Seq, Esc(c.Pod.Key()), mark, Esc(narrate.Outcome(c.Outcome)))
	h.Printf("<p class=\"dim\">profile <code>%s</code> · attempt %d · took %s</p>\n", Esc(c.Profile), c.Attempt, narrate.Duration(c.Duration))
	for _, k := range h.Marks {
		if k.Seq == c.Seq && k.Pod == c.Pod.Key() {
			h.Printf("<blockquote class=\"mark\">★ Marked: %s</blockquote>\n", Esc(k.Note))
		}
	}
	if msg := c.Outcome.Message; msg != "" && c.Outcome.Result != recorder.ResultBound {
		h.Printf("<blockquote>%s</blockquote>\n", Esc(msg))
	}
	h.filter(c)
	h.postFilter(c)
	h.score(c)
	if sel := c.Selection; sel != nil {
		h.Printf("<h3>Select host: <code>%s</code></h3>\n<p>%s</p>\n", Esc(sel.Node), Esc(narrate.Selection(c)))
		if losers := narrate.Losers(c, 10); len(losers) > 0 {
			h.Printf("<ul>\n")
			for _, l := range losers {
				h.Printf("<li>%s</li>\n", Esc(l))
			}
			h.Printf("</ul>\n")
		}
	}
}

// filter draws the filter matrix as the TUI's Filter phase does.
func (h *Writer) filter(c *recorder.Cycle) {
	if fp := c.FastPath; fp != nil {
		h.Printf("<p>%s</p>\n", Esc(narrate.FastPath(fp)))
	}
	f := c.Filter
	if f == nil || len(f.Plugins) == 0 {
		return
	}
	h.Printf("<h3>Filter</h3>\n<p>%d of %d node(s) evaluated; %d feasible.</p>\n<table><tr><th class=\"node\">node</th>", f.Evaluated, c.NumNodes(), len(f.Feasible))
	for _, p := range f.Plugins {
		h.Printf("<th title=\"%s\">%s</th>", Esc(p), Esc(narrate.Abbrev(p)))
	}
	h.Printf("<th>result</th></tr>\n")
	sh := h.Shortfalls(c)
	rows, more := document.FilterMatrix(c, sh)
	for _, r := range rows {
		h.Printf("<tr><td class=\"node\">%s</td>", Esc(r.Node))
		for i, k := range r.Cells {
			switch {
			case k == table.Success:
				h.Printf("<td class=\"pass\" title=\"passed\">%s</td>", k.Glyph())
			case k.Rejects():
				h.Printf("<td class=\"reject\" title=\"rejected by %s\">%s</td>", Esc(f.Plugins[i]), k.Glyph())
			case k == table.Skip:
				h.Printf("<td class=\"skip\" title=\"skipped\">%s</td>", k.Glyph())
			default:
				h.Printf("<td class=\"notrun\" title=\"%s\">%s</td>", k.Label(), k.Glyph())
			}
		}
		h.Printf("<td class=\"why\">%s</td></tr>\n", Esc(r.Result))
	}
	h.Printf("</table>\n")
	if more > 0 {
		h.Printf("<p class=\"dim\">… and %d more node(s).</p>\n", more)
	}
	if free := document.ResourcesFree(c, sh); len(free) > 0 {
		h.Printf("<ul>\n")
		for _, l := range free {
			h.Printf("<li>%s</li>\n", Esc(l))
		}
		h.Printf("</ul>\n")
	}
	var legend []string
	for _, l := range document.PluginLegend(f) {
		legend = append(legend, Esc(l))
	}
	var kinds []string
	for _, k := range document.CellsShown(rows) {
		kinds = append(kinds, k.Glyph()+" "+k.Label())
	}
	h.Printf("<p class=\"dim\">%s<br>%s</p>\n", Esc(strings.Join(kinds, " · ")), strings.Join(legend, " · "))
}

// postFilter lists what preemption tried: each plugin's status, the
// candidate nodes with their victims (the nominated one marked).
func (h *Writer) postFilter(c *recorder.Cycle) {
	p := c.PostFilter
	if p == nil {
		return
	}
	h.Printf("<h3>PostFilter (preemption)</h3>\n<ul>\n")
	code := func(s string) string { return "<code>" + Esc(s) + "</code>" }
	strong := func(s string) string { return "<b>" + s + "</b>" }
	for _, l := range document.PreemptionText(p, Esc, code, strong) {
		h.Printf("<li>%s</li>\n", l)
	}
	h.Printf("</ul>\n")
}

// score draws each node's weighted scores as one bar of a segment a
// plugin, highest total first, scaled to the most a node can score.
func (h *Writer) score(c *recorder.Cycle) {
	s := c.Score
	if s == nil || len(s.Plugins) == 0 || len(s.Nodes) == 0 {
		return
	}
	most := int64(0)
	for _, p := range s.Plugins {
		most += 100 * p.Weight
	}
	most = max(most, 1)
	h.Printf("<h3>Score</h3>\n<p>weighted scores (normalized score × weight), highest total first; a bar is the most a node can score (%d)</p>\n<p class=\"legend\">", most)
	for i, p := range s.Plugins {
		h.Printf("<span><i style=\"background:%s\"></i>%s ×%d</span>", pluginColours[i%len(pluginColours)], Esc(p.Name), p.Weight)
	}
	h.Printf("</p>\n<div class=\"bars\">\n")
	order := table.ScoreOrder(s)
	chosen := ""
	if c.Selection != nil {
		chosen = c.Selection.Node
	}
	for k, i := range order {
		if k == document.MaxTableRows {
			break
		}
		name := c.NodeName(s.Nodes[i])
		class, star := "node", ""
		if name == chosen {
			class, star = "node chosen", " ★"
		}
		h.Printf("<span class=\"%s\">%s%s</span><div class=\"bar\">", class, Esc(name), star)
		for p := range s.Plugins {
			w := s.Weighted(p, i)
			if w <= 0 {
				continue
			}
			h.Printf("<span style=\"width:%.2f%%;background:%s\" title=\"%s: %d\"></span>", 100*float64(w)/float64(most), pluginColours[p%len(pluginColours)], Esc(s.Plugins[p].Name), w)
		}
		h.Printf("</div><span>%d</span>\n", s.Totals[i])
	}
	h.Printf("</div>\n")
	if len(order) > document.MaxTableRows {
		h.Printf("<p class=\"dim\">… and %d more node(s).</p>\n", len(order)-document.MaxTableRows)
	}
}

// summary lists what follows the cycles, as explain's text ends: the
// warnings, the pods not bound with what each needs, and what the
// controllers left at the end of the run.
func (h *Writer) Summary(s document.Summary) {
	if len(s.Warnings)+len(s.NotBound)+len(s.Cluster) == 0 && s.Stopped == "" {
		return
	}
	h.Printf("<h2 id=\"summary\">Summary</h2>\n")
	if len(s.Warnings) > 0 {
		h.Printf("<h3>Warnings</h3>\n<ul>\n")
		for _, w := range s.Warnings {
			h.Printf("<li>%s</li>\n", Esc(w))
		}
		h.Printf("</ul>\n")
	}
	if len(s.NotBound) > 0 {
		h.Printf("<h3>%s</h3>\n<ul>\n", Esc(document.UpperFirst(s.NotBoundTitle())))
		for _, p := range s.NotBound {
			h.Printf("<li><code>%s</code> — %s", Esc(p.Who), Esc(p.State))
			if len(p.More) > 0 {
				h.Printf("<ul>")
				for _, l := range p.More {
					h.Printf("<li>%s</li>", Esc(l))
				}
				h.Printf("</ul>")
			}
			h.Printf("</li>\n")
		}
		h.Printf("</ul>\n")
	}
	if len(s.Cluster) > 0 {
		h.Printf("<h3>%s</h3>\n<ul>\n", Esc(document.UpperFirst(document.ClusterTitle)))
		for _, l := range s.Cluster {
			h.Printf("<li>%s</li>\n", Esc(l))
		}
		h.Printf("</ul>\n")
	}
	if s.Stopped != "" {
		h.Printf("<p>%s</p>\n", Esc(s.Stopped))
	}
}

// Err is the first error writing failed with, if any.
