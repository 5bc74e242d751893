package diffview

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// scored is cycle 1 of pod web over nodes n00…n29, every node feasible and
// scored raw i × weight by one plugin: n29 wins.
func scored(weight int64) *recorder.Cycle {
	var names []string
	var all, raw []int
	c := &recorder.Cycle{Seq: 1, Pod: recorder.PodRef{Namespace: "default", Name: "web"}, Profile: "default-scheduler", Attempt: 1}
	s := &recorder.ScorePhase{}
	for i := range 30 {
		names = append(names, fmt.Sprintf("n%02d", i))
		all = append(all, i)
		raw = append(raw, i)
	}
	c.Nodes = &recorder.NodeSet{ID: 1, Names: names}
	c.NodeSetID, c.NodesToFind = 1, len(names)
	c.Filter = &recorder.FilterPhase{Plugins: []string{"NodeResourcesFit"}, Feasible: all, Evaluated: len(all)}
	s.Nodes = all
	p := recorder.ScorePlugin{Name: "NodeResourcesFit", Weight: weight}
	for _, r := range raw {
		p.Raw = append(p.Raw, int64(r))
		s.Totals = append(s.Totals, int64(r)*weight)
	}
	s.Plugins = []recorder.ScorePlugin{p}
	c.Score = s
	c.Selection = &recorder.Selection{Node: "n29", Best: s.Totals[29], Top: []int{29}, Rule: recorder.RuleHighestScore}
	c.Outcome = recorder.Outcome{Result: recorder.ResultBound, Node: "n29"}
	return c
}

func press(k string) tea.KeyPressMsg {
	switch k {
	case "ctrl+d":
		return tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

func view(w, h int) Model {
	before, after := scored(1), scored(2)
	st := theme.New(true)
	v := New(&st)
	v.SetSize(w, h)
	v.SetRun(Run{Label: "1'", Seq: 1, Before: before, After: after, Diff: recorder.DiffCycles(before, after), Changes: []string{"weight"}})
	return v
}

func TestHelpListsEveryBinding(t *testing.T) {
	k := DefaultKeyMap()
	listed := map[key.Help]bool{}
	for _, col := range k.FullHelp() {
		for _, b := range col {
			listed[b.Help()] = true
		}
	}
	for name, b := range map[string]key.Binding{"Up": k.Up, "Down": k.Down, "PageUp": k.PageUp, "PageDown": k.PageDown, "Top": k.Top, "Bottom": k.Bottom, "Words": k.Words} {
		if !listed[b.Help()] {
			t.Errorf("FullHelp does not list %s", name)
		}
	}
}

func TestPages(t *testing.T) {
	v := view(80, 24)
	if v.Nodes()[0] != "n29" {
		t.Errorf("first row %s; want the winner n29 first", v.Nodes()[0])
	}
	tests := []struct {
		key  string
		want int
	}{{"ctrl+d", v.VisibleRows() / 2}, {"G", 29}, {"ctrl+u", 29 - v.VisibleRows()/2}, {"g", 0}, {"k", 0}, {"j", 1}}
	for _, tt := range tests {
		v, _ = v.Update(press(tt.key))
		if v.Cursor() != tt.want {
			t.Errorf("%s: cursor %d, want %d", tt.key, v.Cursor(), tt.want)
		}
		if v.cursor < v.offset || v.cursor >= v.offset+v.visibleRows() {
			t.Errorf("%s: cursor %d outside the rows shown from %d", tt.key, v.cursor, v.offset)
		}
	}
	if s := v.View(); !strings.Contains(s, "nodes 1-") || !strings.Contains(s, "of 30") {
		t.Errorf("the view does not count the rows below:\n%s", s)
	}
	if got := len(layout.SplitLines(v.View())); got != 24 {
		t.Errorf("the view is %d lines, want 24", got)
	}
}

// TestWords: narrow, v switches to the diff in words; wide, both show.
func TestWords(t *testing.T) {
	v := view(80, 24)
	table := ansi.Strip(v.View())
	v, _ = v.Update(press("v"))
	if words := ansi.Strip(v.View()); words == table || !strings.Contains(words, "what-if 1'") {
		t.Errorf("v did not switch to the words:\n%s", words)
	}
	if wide := ansi.Strip(view(200, 40).View()); !strings.Contains(wide, "│") {
		t.Errorf("wide, the words should sit beside the table:\n%s", wide)
	}
}
