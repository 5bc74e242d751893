package nodephase

import (
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/theme"
)

// view shows node phase k of cycle index i of the fixture, 100×30.
func view(t *testing.T, fixture string, i int, k Kind) (Model, *recorder.Cycle) {
	t.Helper()
	rec, err := recorder.LoadFile(filepath.Join("..", "..", "testdata", fixture+".rec"))
	if err != nil {
		t.Fatal(err)
	}
	c := rec.Cycles[i]
	st := theme.New(true)
	m := New(&st)
	m.SetCycle(c, analysis.Of(c))
	m.SetKind(k)
	m.SetSize(100, 30)
	m.SetActive(true, true)
	return m, c
}

func press(k string) tea.KeyPressMsg {
	switch k {
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

func TestHelpListsEveryBinding(t *testing.T) {
	k := DefaultKeyMap()
	listed := map[key.Help]bool{}
	for _, col := range k.FullHelp() {
		for _, b := range col {
			listed[b.Help()] = true
		}
	}
	for name, b := range map[string]key.Binding{"Up": k.Up, "Down": k.Down, "Top": k.Top, "Bottom": k.Bottom, "PageUp": k.PageUp,
		"PageDown": k.PageDown, "Sort": k.Sort, "Show": k.Show, "NextColumn": k.NextColumn, "PrevColumn": k.PrevColumn, "Diagnostic": k.Diagnostic} {
		if !listed[b.Help()] {
			t.Errorf("FullHelp does not list %s", name)
		}
	}
}

func TestView(t *testing.T) {
	tests := []struct {
		kind Kind
		want []string
	}{
		{Filter, []string{"node     NN", "▸ node-a", "passed · chosen", "TaintToleration: node(s) had untolerated taint(s)", "node-a × NodeName  ✓ passed"}},
		{Score, []string{"weight →", "▸ node-a", "raw 0 → normalized 100 × weight 3 = 300", "shade:"}},
		{Normalize, []string{"Σ×w", "no NormalizeScore: raw used"}},
		{Weighted, []string{"normalized × weight, stacked by plugin", "node-a = TT 100×3"}},
	}
	for _, tc := range tests {
		m, _ := view(t, "default", 0, tc.kind)
		got := ansi.Strip(m.View())
		if n := len(strings.Split(got, "\n")); tc.kind != Weighted && n != 30 {
			t.Errorf("kind %d: %d lines, want 30", tc.kind, n)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("kind %d lacks %q:\n%s", tc.kind, w, got)
			}
		}
	}
}

// TestUpdate: the keys move the node and the plugin column, and switch the
// diagnostic matrix.
func TestUpdate(t *testing.T) {
	m, c := view(t, "default", 0, Filter)
	if m.Plugin() != "NodeName" {
		t.Fatalf("plugin %q, want NodeName", m.Plugin())
	}
	m, _ = m.Update(press("tab"))
	if m.Plugin() != c.Filter.Plugins[1] {
		t.Errorf("tab: plugin %q, want %q", m.Plugin(), c.Filter.Plugins[1])
	}
	m, _ = m.Update(press("shift+tab"))
	m, _ = m.Update(press("shift+tab"))
	if want := c.Filter.Plugins[len(c.Filter.Plugins)-1]; m.Plugin() != want {
		t.Errorf("shift+tab from the first wraps: plugin %q, want %q", m.Plugin(), want)
	}
	m, _ = m.Update(press("j"))
	if n, _ := m.Selected(); c.NodeName(n) != "node-d" {
		t.Errorf("j: selected %q, want node-d", c.NodeName(n))
	}
	m, _ = m.Update(press("o"))
	if m.SortBy().String() != "score" {
		t.Errorf("o: sorted by %v, want score", m.SortBy())
	}
}

func TestDiagnostic(t *testing.T) {
	m, c := view(t, "unschedulable", 0, Filter)
	if c.Diagnostic == nil {
		t.Skip("the fixture has no diagnostic pass")
	}
	m, _ = m.Update(press("d"))
	if got := ansi.Strip(m.View()); !strings.Contains(got, "diagnostic: every filter on every node") {
		t.Errorf("d does not show the diagnostic matrix:\n%s", got)
	}
}

func TestSetActive(t *testing.T) {
	m, _ := view(t, "default", 0, Score)
	if m.Keys.Show.Enabled() {
		t.Error("f acts only in Filter")
	}
	m.SetActive(true, false)
	if m.Keys.Sort.Enabled() || m.Keys.NextColumn.Enabled() {
		t.Error("an inactive view offers keys")
	}
	if m.Handles(press("o")) {
		t.Error("a disabled key is handled")
	}
}

// TestFocusRejection puts the column on the plugin that rejected the node.
func TestFocusRejection(t *testing.T) {
	m, c := view(t, "default", 0, Filter)
	for range 3 {
		m, _ = m.Update(press("j")) // node-c, rejected by TaintToleration
	}
	if n, _ := m.Selected(); c.NodeName(n) != "node-c" {
		t.Fatalf("selected %q, want node-c", c.NodeName(n))
	}
	m.FocusRejection()
	if m.Plugin() != "TaintToleration" {
		t.Errorf("plugin %q, want TaintToleration", m.Plugin())
	}
}

func TestClick(t *testing.T) {
	m, c := view(t, "default", 0, Filter)
	m.Click(3) // the header line, then node-a, node-d, node-b
	if n, _ := m.Selected(); c.NodeName(n) != "node-b" {
		t.Errorf("click on line 3 selected %q, want node-b", c.NodeName(n))
	}
	m.Click(0) // the header: nothing
	if n, _ := m.Selected(); c.NodeName(n) != "node-b" {
		t.Errorf("click on the header moved to %q", c.NodeName(n))
	}
}

// TestDeviceNumbersInTheFilterTable: a node DynamicResources rejected shows,
// in its row, each request it had too few devices for.
func TestDeviceNumbersInTheFilterTable(t *testing.T) {
	rec, err := recorder.LoadFile(filepath.Join("..", "..", "testdata", "default.rec"))
	if err != nil {
		t.Fatal(err)
	}
	c := *rec.Cycles[0]
	a := analysis.Of(&c)
	n := a.NodeIndex("node-c")
	c.DeviceShortfalls = map[int][]recorder.DeviceShortfall{n: {{Claim: "default/three-gpus", Request: "gpus", Class: "gpu", Asked: 3, Published: 3, Allocated: 2}}}
	st := theme.New(true)
	m := New(&st)
	m.SetCycle(&c, analysis.Of(&c))
	m.SetKind(Filter)
	m.SetSize(160, 30)
	m.SetActive(true, true)
	got := ansi.Strip(m.View())
	if !strings.Contains(got, "gpus: asks 3 gpu, 1 free") {
		t.Errorf("node-c's row lacks its device numbers:\n%s", got)
	}
}
