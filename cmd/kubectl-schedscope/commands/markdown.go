package commands

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/table"
	"github.com/schedscope/schedscope/recorder/visible"
)

// markdownWriter writes cycles as Markdown (-o markdown) to paste into an
// incident document or an issue: per cycle, the outcome and message, the
// filter matrix (nodes × plugins, the rejecting one marked), the score
// table (weighted per plugin, totals), why the winner won and, for one
// pod, its queue story. Tables are GitHub-flavoured Markdown; whatever a
// recording holds (names, messages, notes, file names) goes in through
// cell, so that it reads as text and forms no markup.
type markdownWriter struct {
	w   io.Writer
	err error
	// marks are the cycles a user marked, listed after the header and
	// quoted in their cycle's section (a mark is shown only on the cycle of
	// the pod it names).
	marks []recorder.Mark
	// short, if set, gives the numbers behind a cycle's resource
	// rejections (recorder.ShortfallsOf).
	short func(*recorder.Cycle) *recorder.Shortfalls
}

// shortfalls are the numbers behind c's resource rejections, or nil.
func (m *markdownWriter) shortfalls(c *recorder.Cycle) *recorder.Shortfalls {
	if m.short == nil {
		return nil
	}
	return m.short(c)
}

func (m *markdownWriter) printf(format string, a ...any) {
	if m.err == nil {
		_, m.err = fmt.Fprintf(m.w, format, a...)
	}
}

// cell is the one way a recorded string enters the Markdown, as the HTML
// export's esc is the one way into a page: what a terminal would not show
// is escaped as the text output escapes it (a newline reads \n); <, > and
// & are HTML entities, so raw HTML renders as text; and the characters of
// Markdown's inline syntax (links and images, emphasis, code spans, table
// pipes, headings) are backslash-escaped, so that no link, image or
// element forms from a recording, and a backtick cannot end a code span.
func cell(s string) string {
	return markdownEscaper.Replace(visible.String(s))
}

var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, "&", "&amp;", "<", "&lt;", ">", "&gt;", "`", "'",
	"|", `\|`, "[", `\[`, "]", `\]`, "(", `\(`, ")", `\)`, "!", `\!`,
	"*", `\*`, "_", `\_`, "#", `\#`, "~", `\~`)

func (m *markdownWriter) header(h recorder.Header, source string) {
	m.printf("# Scheduling cycles of %s\n\n", cell(source))
	m.printf("schedscope %s · kube-scheduler %s%s", cell(h.SchedscopeVersion), cell(h.KubernetesVersion), cell(gatesNote(h)))
	if len(h.Profiles) > 0 {
		var names []string
		for _, p := range h.Profiles {
			names = append(names, cell(p.SchedulerName))
		}
		m.printf(" · profiles: %s", strings.Join(names, ", "))
	}
	m.printf("\n")
	if len(m.marks) > 0 {
		m.printf("\n**Marked cycles**\n\n")
		for _, k := range m.marks {
			m.printf("- cycle %d · `%s` — %s\n", k.Seq, cell(k.Pod), cell(k.Note))
		}
	}
}

// markOf is the note of cycle c's mark, if it has one for its pod.
func (m *markdownWriter) markOf(c *recorder.Cycle) (string, bool) {
	for _, k := range m.marks {
		if k.Seq == c.Seq && k.Pod == c.Pod.Key() {
			return k.Note, true
		}
	}
	return "", false
}

func (m *markdownWriter) cycle(c *recorder.Cycle) {
	mark := map[string]string{recorder.ResultBound: "✓", recorder.ResultUnschedulable: "✗"}[c.Outcome.Result]
	if mark == "" {
		mark = "!"
	}
	m.printf("\n## Cycle %d · `%s` · %s %s\n\n", c.Seq, cell(c.Pod.Key()), mark, cell(narrate.Outcome(c.Outcome)))
	m.printf("profile `%s` · attempt %d · took %s\n", cell(c.Profile), c.Attempt, narrate.Duration(c.Duration))
	if note, ok := m.markOf(c); ok {
		m.printf("\n★ **Marked:** %s\n", cell(note))
	}
	if msg := c.Outcome.Message; msg != "" && c.Outcome.Result != recorder.ResultBound {
		m.printf("\n> %s\n", cell(msg))
	}
	m.filter(c)
	m.postFilter(c)
	m.score(c)
	if sel := c.Selection; sel != nil {
		m.printf("\n### Select host: `%s`\n\n%s\n", cell(sel.Node), cell(narrate.Selection(c)))
		losers := narrate.Losers(c, 10)
		if len(losers) > 0 {
			m.printf("\n")
		}
		for _, l := range losers {
			m.printf("- %s\n", cell(l))
		}
	}
}

// filter writes the filter matrix: a row a node, a column a plugin in the
// order they ran, each cell the glyph of recorder/table's cell (as the TUI
// draws it), a rejection in bold, and a legend of the cells shown.
func (m *markdownWriter) filter(c *recorder.Cycle) {
	if fp := c.FastPath; fp != nil {
		m.printf("\n%s\n", cell(narrate.FastPath(fp)))
	}
	f := c.Filter
	if f == nil || len(f.Plugins) == 0 {
		return
	}
	m.printf("\n### Filter\n\n%d of %d node(s) evaluated; %d feasible.\n\n", f.Evaluated, c.NumNodes(), len(f.Feasible))
	m.printf("| node |")
	for _, p := range f.Plugins {
		m.printf(" %s |", cell(narrate.Abbrev(p)))
	}
	m.printf(" result |\n|---|")
	for range f.Plugins {
		m.printf(":-:|")
	}
	m.printf("---|\n")
	sh := m.shortfalls(c)
	rows, more := filterMatrix(c, sh)
	for _, r := range rows {
		m.printf("| %s |", cell(r.node))
		for _, k := range r.cells {
			m.printf(" %s |", markdownCell(k))
		}
		m.printf(" %s |\n", cell(r.result))
	}
	if more > 0 {
		m.printf("\n… and %d more node(s).\n", more)
	}
	var kinds []string
	for _, k := range cellsShown(rows) {
		kinds = append(kinds, markdownCell(k)+" "+k.Label())
	}
	m.printf("\n%s\n", strings.Join(kinds, " · "))
	if free := resourcesFree(c, sh); len(free) > 0 {
		m.printf("\n")
		for _, l := range free {
			m.printf("- %s\n", cell(l))
		}
	}
	if len(f.Discarded) > 0 {
		m.printf("\n%s.\n", narrate.NodesNotKept(len(f.Discarded)))
	}
	legend := pluginLegend(f)
	for i := range legend {
		legend[i] = cell(legend[i])
	}
	m.printf("\n%s\n", strings.Join(legend, " · "))
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
func (m *markdownWriter) postFilter(c *recorder.Cycle) {
	p := c.PostFilter
	if p == nil {
		return
	}
	m.printf("\n### PostFilter (preemption)\n\n")
	code := func(s string) string { return "`" + cell(s) + "`" }
	strong := func(s string) string { return "**" + s + "**" }
	for _, l := range preemptionText(p, cell, code, strong) {
		m.printf("- %s\n", l)
	}
}

// score writes the score table: the weighted score of each plugin and the
// total, highest total first, the chosen node in bold.
func (m *markdownWriter) score(c *recorder.Cycle) {
	s := c.Score
	if s == nil || len(s.Plugins) == 0 || len(s.Nodes) == 0 {
		return
	}
	m.printf("\n### Score\n\nweighted scores (normalized score × weight), highest total first\n\n| node |")
	for _, p := range s.Plugins {
		m.printf(" %s ×%d |", cell(narrate.Abbrev(p.Name)), p.Weight)
	}
	m.printf(" total |\n|---|")
	for range s.Plugins {
		m.printf("--:|")
	}
	m.printf("--:|\n")
	order := table.ScoreOrder(s)
	chosen := ""
	if c.Selection != nil {
		chosen = c.Selection.Node
	}
	for k, i := range order {
		if k == maxTableRows {
			m.printf("\n… and %d more node(s).\n", len(order)-maxTableRows)
			break
		}
		name := cell(c.NodeName(s.Nodes[i]))
		if c.NodeName(s.Nodes[i]) == chosen {
			name = "**" + name + "** ★"
		}
		m.printf("| %s |", name)
		for p := range s.Plugins {
			m.printf(" %d |", s.Weighted(p, i))
		}
		m.printf(" %d |\n", s.Totals[i])
	}
}

// story writes one pod's cycles and queue events in time order.
func (m *markdownWriter) story(p recorder.PodState, cycles []*recorder.Cycle) {
	var mine []*recorder.Cycle
	for _, c := range cycles {
		if c.Pod.Key() == p.Pod.Key() {
			mine = append(mine, c)
		}
	}
	m.printf("\n## Story of `%s` (%s)\n\n", cell(p.Pod.Key()), cell(p.State))
	if len(mine)+len(p.Queue) == 0 {
		m.printf("No scheduling cycle: %s\n", cell(narrate.NeverAttempted(p.State)))
		return
	}
	starts := make([]time.Time, len(mine))
	for i, c := range mine {
		starts[i] = c.Start
	}
	for _, it := range narrate.Story(starts, p.Queue) {
		if ev := it.Event; ev != nil {
			m.printf("- `%s` %s\n", ev.Time.UTC().Format("15:04:05.000"), cell(narrate.QueueEvent(ev)))
			continue
		}
		c := mine[it.Cycle]
		m.printf("- `%s` **cycle %d** (attempt %d): %s\n", c.Start.UTC().Format("15:04:05.000"), c.Seq, c.Attempt, cell(narrate.Outcome(c.Outcome)))
	}
}

// summary writes what follows the cycles, as explain's text ends: the
// warnings, the pods not bound with what each needs, and what the
// controllers left at the end of the run.
func (m *markdownWriter) summary(s runSummary) {
	if len(s.warnings)+len(s.notBound)+len(s.cluster) == 0 && s.stopped == "" {
		return
	}
	m.printf("\n## Summary\n")
	if len(s.warnings) > 0 {
		m.printf("\n**Warnings**\n\n")
		for _, w := range s.warnings {
			m.printf("- %s\n", cell(w))
		}
	}
	if len(s.notBound) > 0 {
		m.printf("\n**%s**\n\n", cell(upperFirst(s.notBoundTitle())))
		for _, p := range s.notBound {
			m.printf("- `%s` — %s\n", cell(p.who), cell(p.state))
			for _, l := range p.more {
				m.printf("  - %s\n", cell(l))
			}
		}
	}
	if len(s.cluster) > 0 {
		m.printf("\n**%s**\n\n", cell(upperFirst(clusterTitle)))
		for _, l := range s.cluster {
			m.printf("- %s\n", cell(l))
		}
	}
	if s.stopped != "" {
		m.printf("\n%s\n", cell(s.stopped))
	}
}

// upperFirst capitalizes a title's first letter.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
