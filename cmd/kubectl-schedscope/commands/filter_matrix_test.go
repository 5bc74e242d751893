package commands

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/schedscope/schedscope/recorder/export/text"

	"github.com/schedscope/schedscope/recorder/export/document"
	htmlpage "github.com/schedscope/schedscope/recorder/export/html"
	"github.com/schedscope/schedscope/recorder/export/markdown"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/table"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/components/nodephase"
	"github.com/schedscope/schedscope/tui/theme"
)

// matrixCycle is a cycle whose Filter matrix has every kind of row: a node
// that passed, rejections as Unschedulable and UnschedulableAndUnresolvable,
// a rejection that names no plugin (index -1) and one whose plugin index is
// past the plugins (missing), a discarded node, and a plugin PreFilter
// skipped.
func matrixCycle() *recorder.Cycle {
	plugins := []string{"NodeName", "TaintToleration", "NodePorts", "NodeResourcesFit"}
	return &recorder.Cycle{
		Seq: 1, Pod: recorder.PodRef{Namespace: "default", Name: "web"}, Profile: "default-scheduler", Attempt: 1,
		Start: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), NodeSetID: 1,
		Nodes:     &recorder.NodeSet{ID: 1, Names: []string{"node-ok", "node-taint", "node-fit", "node-none", "node-gone", "node-spare"}},
		PreFilter: &recorder.PreFilterPhase{Code: recorder.CodeSuccess},
		Filter: &recorder.FilterPhase{
			Plugins:  plugins,
			Skipped:  []string{"NodePorts"},
			Feasible: recorder.Ints[int]{0},
			Rejected: []recorder.NodeStatus{
				{Node: 1, Plugin: 1, Code: recorder.CodeUnschedulableAndUnresolvable, Reasons: []string{"node(s) had untolerated taint(s)"}},
				{Node: 2, Plugin: 3, Code: recorder.CodeUnschedulable, Reasons: []string{"Insufficient cpu"}},
				{Node: 3, Plugin: -1, Code: recorder.CodeUnschedulable, Reasons: []string{"no plugin named"}},
				{Node: 4, Plugin: 9, Code: recorder.CodeUnschedulable},
			},
			Discarded: recorder.Ints[int]{5},
			Evaluated: 6,
		},
		Selection: &recorder.Selection{Node: "node-ok"},
		Outcome:   recorder.Outcome{Result: recorder.ResultBound, Node: "node-ok"},
	}
}

// TestFilterMatrixEveryWay renders one cycle as text, Markdown, HTML, JSON
// and the TUI's Filter table, and checks each shows the same cells as
// recorder/table's matrix: a glyph a plugin a node (Markdown, HTML, TUI),
// and the plugin that rejected each node (text, JSON, the result columns).
func TestFilterMatrixEveryWay(t *testing.T) {
	c := matrixCycle()
	m := table.FilterOf(c)
	plugins := c.Filter.Plugins

	// What the model says, a row a listed node.
	want := map[string][]string{}
	rejectedBy := map[string]string{}
	for _, n := range m.Listed(c) {
		var row []string
		for _, k := range m.Row(n) {
			row = append(row, k.Glyph())
		}
		want[c.NodeName(n)] = row
		if m.Nodes[n].State == table.StateRejected {
			rejectedBy[c.NodeName(n)] = m.Plugin(m.Nodes[n].Plugin)
		}
	}
	// The rows the brief is about, spelled out so that the model cannot
	// agree with itself by mistake.
	for node, cells := range map[string]string{
		"node-ok":    "✓ ✓ ↷ ✓",
		"node-taint": "✓ ⊘ ↷ ·",
		"node-fit":   "✓ ✓ ↷ ✗",
		"node-none":  "· · ↷ ·",
		"node-gone":  "· · ↷ ·",
	} {
		if diff := cmp.Diff(strings.Fields(cells), want[node]); diff != "" {
			t.Errorf("the model's row of %s (-want +got):\n%s", node, diff)
		}
	}

	// Markdown: | node | cells | result |.
	var md bytes.Buffer
	mw := &markdown.Writer{Out: document.Out{W: &md}}
	mw.Cycle(c)
	got := map[string][]string{}
	for _, l := range strings.Split(md.String(), "\n") {
		f := strings.Split(l, "|")
		if len(f) != len(plugins)+4 || want[strings.TrimSpace(f[1])] == nil {
			continue
		}
		var row []string
		for _, cell := range f[2 : 2+len(plugins)] {
			row = append(row, strings.Trim(strings.TrimSpace(cell), "*"))
		}
		got[strings.TrimSpace(f[1])] = row
		checkResult(t, "Markdown", strings.TrimSpace(f[1]), unescapeMarkdown.Replace(f[2+len(plugins)]), rejectedBy)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Markdown's matrix (-model +Markdown):\n%s\n%s", diff, md.String())
	}

	// HTML: <tr><td class="node">…</td><td …>glyph</td>…<td class="why">…</td></tr>.
	var page bytes.Buffer
	hw := &htmlpage.Writer{Out: document.Out{W: &page}}
	hw.Cycle(c)
	got = map[string][]string{}
	td := regexp.MustCompile(`<td[^>]*>([^<]*)</td>`)
	for _, l := range strings.Split(page.String(), "\n") {
		if !strings.HasPrefix(l, `<tr><td class="node">`) {
			continue
		}
		cells := td.FindAllStringSubmatch(l, -1)
		if len(cells) != len(plugins)+2 {
			t.Errorf("HTML row of %d cells, want %d: %s", len(cells), len(plugins)+2, l)
			continue
		}
		node := html.UnescapeString(cells[0][1])
		var row []string
		for _, cell := range cells[1 : 1+len(plugins)] {
			row = append(row, cell[1])
		}
		got[node] = row
		checkResult(t, "HTML", node, html.UnescapeString(cells[len(cells)-1][1]), rejectedBy)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("HTML's matrix (-model +HTML):\n%s\n%s", diff, page.String())
	}

	// Text lists each node with its rejecting plugin.
	var words bytes.Buffer
	text.New(&words).Cycle(c)
	for node := range want {
		line := regexp.MustCompile(`(?m)^   [✓✗] ` + regexp.QuoteMeta(node) + ` +(.*)$`).FindStringSubmatch(words.String())
		if line == nil {
			t.Errorf("text does not list %s:\n%s", node, words.String())
			continue
		}
		if by, rejected := rejectedBy[node]; rejected != strings.HasPrefix(line[1], by+": ") || !rejected && line[1] != "passed all filters" {
			t.Errorf("text says %s %q; the model: rejected by %q", node, line[1], by)
		}
	}

	// JSON names the rejecting plugin, "" when none is named.
	ej := export.NewCycle(c)
	for _, r := range ej.Filter.Rejected {
		by := rejectedBy[r.Node]
		if by == "(no plugin)" {
			by = ""
		}
		if r.Plugin != by {
			t.Errorf("JSON: %s rejected by %q, the model says %q", r.Node, r.Plugin, by)
		}
	}

	// The TUI's Filter table at a wide size: the same cells.
	st := theme.New(true)
	tv := nodephase.New(&st)
	tv.SetCycle(c, analysis.Of(c))
	tv.SetKind(nodephase.Filter)
	tv.SetSize(200, 30)
	screen := ansi.Strip(tv.View())
	got = map[string][]string{}
	for _, l := range strings.Split(screen, "\n") {
		f := strings.Fields(strings.TrimLeft(l, " ▸★"))
		if len(f) < 1+len(plugins) || want[f[0]] == nil || got[f[0]] != nil {
			continue // not a row, or a line below the table that names the node
		}
		got[f[0]] = f[1 : 1+len(plugins)]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the TUI's Filter table (-model +TUI):\n%s\n%s", diff, screen)
	}
}

// unescapeMarkdown undoes what cell escapes in the words this test reads.
var unescapeMarkdown = strings.NewReplacer(`\(`, "(", `\)`, ")")

// checkResult checks an output's result column names the plugin the model
// says rejected node, or says it passed.
func checkResult(t *testing.T, output, node, result string, rejectedBy map[string]string) {
	t.Helper()
	result = strings.TrimSpace(result)
	by, rejected := rejectedBy[node]
	switch {
	case !rejected && result != "passed":
		t.Errorf("%s: %s's result is %q, want passed", output, node, result)
	case rejected && result != by && !strings.HasPrefix(result, by+": "):
		t.Errorf("%s: %s's result is %q, want rejected by %s", output, node, result, by)
	}
}
