// Package markdown writes a recording's cycles as Markdown (-o markdown),
// tables to paste, over the rows package document builds.
package markdown

import (
	"strings"
	"time"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/document"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/table"
	"github.com/schedscope/schedscope/recorder/visible"
)

// Writer writes cycles as Markdown (-o markdown) to paste into an
// incident document or an issue: per cycle, the outcome and message, the
// filter matrix (nodes × plugins, the rejecting one marked), the score
// table (weighted per plugin, totals), why the winner won and, for one
// pod, its queue story. Tables are GitHub-flavoured Markdown; whatever a
// recording holds (names, messages, notes, file names) goes in through
// Cell, so that it reads as text and forms no markup. Its marks are also
// listed after the header.
type Writer struct {
	document.Out
}

// Cell is the one way a recorded string enters the Markdown, as the HTML
// export's Esc is the one way into a page: what a terminal would not show
// is escaped as the text output escapes it (a newline reads \n); <, > and
// & are HTML entities, so raw HTML renders as text; and the characters of
// Markdown's inline syntax (links and images, emphasis, code spans, table
// pipes, headings) are backslash-escaped, so that no link, image or
// element forms from a recording, and a backtick cannot end a code span.
func Cell(s string) string {
	return markdownEscaper.Replace(visible.String(s))
}

var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, "&", "&amp;", "<", "&lt;", ">", "&gt;", "`", "'",
	"|", `\|`, "[", `\[`, "]", `\]`, "(", `\(`, ")", `\)`, "!", `\!`,
	"*", `\*`, "_", `\_`, "#", `\#`, "~", `\~`)

func (m *Writer) Header(h recorder.Header, source string) {
	m.Printf("# Scheduling cycles of %s\n\n", Cell(source))
	m.Printf("schedscope %s · kube-scheduler %s%s", Cell(h.SchedscopeVersion), Cell(h.KubernetesVersion), Cell(document.GatesNote(h)))
	if len(h.Profiles) > 0 {
		var names []string
		for _, p := range h.Profiles {
			names = append(names, Cell(p.SchedulerName))
		}
		m.Printf(" · profiles: %s", strings.Join(names, ", "))
	}
	m.Printf("\n")
	if len(m.Marks) > 0 {
		m.Printf("\n**Marked cycles**\n\n")
		for _, k := range m.Marks {
			m.Printf("- cycle %d · `%s` — %s\n", k.Seq, Cell(k.Pod), Cell(k.Note))
		}
	}
}

// markOf is the note of cycle c's mark, if it has one for its pod.
func (m *Writer) markOf(c *recorder.Cycle) (string, bool) {
	for _, k := range m.Marks {
		if k.Seq == c.Seq && k.Pod == c.Pod.Key() {
			return k.Note, true
		}
	}
	return "", false
}

func (m *Writer) Cycle(c *recorder.Cycle) {
	mark := map[string]string{recorder.ResultBound: "✓", recorder.ResultUnschedulable: "✗"}[c.Outcome.Result]
	if mark == "" {
		mark = "!"
	}
	m.Printf("\n## Cycle %d · `%s` · %s %s\n\n", c.Seq, Cell(c.Pod.Key()), mark, Cell(narrate.Outcome(c.Outcome)))
	m.Printf("profile `%s` · attempt %d · took %s\n", Cell(c.Profile), c.Attempt, narrate.Duration(c.Duration))
	if note, ok := m.markOf(c); ok {
		m.Printf("\n★ **Marked:** %s\n", Cell(note))
	}
	if msg := c.Outcome.Message; msg != "" && c.Outcome.Result != recorder.ResultBound {
		m.Printf("\n> %s\n", Cell(msg))
	}
	m.filter(c)
	m.postFilter(c)
	m.score(c)
	if sel := c.Selection; sel != nil {
		m.Printf("\n### Select host: `%s`\n\n%s\n", Cell(sel.Node), Cell(narrate.Selection(c)))
		losers := narrate.Losers(c, 10)
		if len(losers) > 0 {
			m.Printf("\n")
		}
		for _, l := range losers {
			m.Printf("- %s\n", Cell(l))
		}
	}
}

// filter writes the filter matrix: a row a node, a column a plugin in the
// order they ran, each cell the glyph of recorder/table's cell (as the TUI
// draws it), a rejection in bold, and a legend of the cells shown.
func (m *Writer) filter(c *recorder.Cycle) {
	if fp := c.FastPath; fp != nil {
		m.Printf("\n%s\n", Cell(narrate.FastPath(fp)))
	}
	f := c.Filter
	if f == nil || len(f.Plugins) == 0 {
		return
	}
	m.Printf("\n### Filter\n\n%d of %d node(s) evaluated; %d feasible.\n\n", f.Evaluated, c.NumNodes(), len(f.Feasible))
	m.Printf("| node |")
	for _, p := range f.Plugins {
		m.Printf(" %s |", Cell(narrate.Abbrev(p)))
	}
	m.Printf(" result |\n|---|")
	for range f.Plugins {
		m.Printf(":-:|")
	}
	m.Printf("---|\n")
	sh := m.Shortfalls(c)
	rows, more := document.FilterMatrix(c, sh)
	for _, r := range rows {
		m.Printf("| %s |", Cell(r.Node))
		for _, k := range r.Cells {
			m.Printf(" %s |", markdownCell(k))
		}
		m.Printf(" %s |\n", Cell(r.Result))
	}
	if more > 0 {
		m.Printf("\n… and %d more node(s).\n", more)
	}
	var kinds []string
	for _, k := range document.CellsShown(rows) {
		kinds = append(kinds, markdownCell(k)+" "+k.Label())
	}
	m.Printf("\n%s\n", strings.Join(kinds, " · "))
	if free := document.ResourcesFree(c, sh); len(free) > 0 {
		m.Printf("\n")
		for _, l := range free {
			m.Printf("- %s\n", Cell(l))
		}
	}
	if len(f.Discarded) > 0 {
		m.Printf("\n%s.\n", narrate.NodesNotKept(len(f.Discarded)))
	}
	legend := document.PluginLegend(f)
	for i := range legend {
		legend[i] = Cell(legend[i])
	}
	m.Printf("\n%s\n", strings.Join(legend, " · "))
}

// markdownCell is a matrix cell's glyph, in bold when the plugin rejected
// the node.
func markdownCell(k table.Cell) string {
	if k.Rejects() {
		return "**" + k.Glyph() + "**"
	}
	return k.Glyph()
}

// postFilter writes what preemption tried: each plugin's status, the
// candidate nodes with their victims (the nominated one marked).
func (m *Writer) postFilter(c *recorder.Cycle) {
	p := c.PostFilter
	if p == nil {
		return
	}
	m.Printf("\n### PostFilter (preemption)\n\n")
	code := func(s string) string { return "`" + Cell(s) + "`" }
	strong := func(s string) string { return "**" + s + "**" }
	for _, l := range document.PreemptionText(p, Cell, code, strong) {
		m.Printf("- %s\n", l)
	}
}

// score writes the score table: the weighted score of each plugin and the
// total, highest total first, the chosen node in bold.
func (m *Writer) score(c *recorder.Cycle) {
	s := c.Score
	if s == nil || len(s.Plugins) == 0 || len(s.Nodes) == 0 {
		return
	}
	m.Printf("\n### Score\n\nweighted scores (normalized score × weight), highest total first\n\n| node |")
	for _, p := range s.Plugins {
		m.Printf(" %s ×%d |", Cell(narrate.Abbrev(p.Name)), p.Weight)
	}
	m.Printf(" total |\n|---|")
	for range s.Plugins {
		m.Printf("--:|")
	}
	m.Printf("--:|\n")
	order := table.ScoreOrder(s)
	chosen := ""
	if c.Selection != nil {
		chosen = c.Selection.Node
	}
	for k, i := range order {
		if k == document.MaxTableRows {
			m.Printf("\n… and %d more node(s).\n", len(order)-document.MaxTableRows)
			break
		}
		name := Cell(c.NodeName(s.Nodes[i]))
		if c.NodeName(s.Nodes[i]) == chosen {
			name = "**" + name + "** ★"
		}
		m.Printf("| %s |", name)
		for p := range s.Plugins {
			m.Printf(" %d |", s.Weighted(p, i))
		}
		m.Printf(" %d |\n", s.Totals[i])
	}
}

// story writes one pod's cycles and queue events in time order.
func (m *Writer) Story(p recorder.PodState, cycles []*recorder.Cycle) {
	var mine []*recorder.Cycle
	for _, c := range cycles {
		if c.Pod.Key() == p.Pod.Key() {
			mine = append(mine, c)
		}
	}
	m.Printf("\n## Story of `%s` (%s)\n\n", Cell(p.Pod.Key()), Cell(p.State))
	if len(mine)+len(p.Queue) == 0 {
		m.Printf("No scheduling cycle: %s\n", Cell(narrate.NeverAttempted(p.State)))
		return
	}
	starts := make([]time.Time, len(mine))
	for i, c := range mine {
		starts[i] = c.Start
	}
	for _, it := range narrate.Story(starts, p.Queue) {
		if ev := it.Event; ev != nil {
			m.Printf("- `%s` %s\n", ev.Time.UTC().Format("15:04:05.000"), Cell(narrate.QueueEvent(ev)))
			continue
		}
		c := mine[it.Cycle]
		m.Printf("- `%s` **cycle %d** (attempt %d): %s\n", c.Start.UTC().Format("15:04:05.000"), c.Seq, c.Attempt, Cell(narrate.Outcome(c.Outcome)))
	}
}

// summary writes what follows the cycles, as explain's text ends: the
// warnings, the pods not bound with what each needs, and what the
// controllers left at the end of the run.
func (m *Writer) Summary(s document.Summary) {
	if len(s.Warnings)+len(s.NotBound)+len(s.Cluster) == 0 && s.Stopped == "" {
		return
	}
	m.Printf("\n## Summary\n")
	if len(s.Warnings) > 0 {
		m.Printf("\n**Warnings**\n\n")
		for _, w := range s.Warnings {
			m.Printf("- %s\n", Cell(w))
		}
	}
	if len(s.NotBound) > 0 {
		m.Printf("\n**%s**\n\n", Cell(document.UpperFirst(s.NotBoundTitle())))
		for _, p := range s.NotBound {
			m.Printf("- `%s` — %s\n", Cell(p.Who), Cell(p.State))
			for _, l := range p.More {
				m.Printf("  - %s\n", Cell(l))
			}
		}
	}
	if len(s.Cluster) > 0 {
		m.Printf("\n**%s**\n\n", Cell(document.UpperFirst(document.ClusterTitle)))
		for _, l := range s.Cluster {
			m.Printf("- %s\n", Cell(l))
		}
	}
	if s.Stopped != "" {
		m.Printf("\n%s\n", Cell(s.Stopped))
	}
}

// Err is the first error writing failed with, if any.
