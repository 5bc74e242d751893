package nodedetail

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

// detailOf opens the detail of a node of cycle 1 of the default fixture
// (web bound to node-a; node-c rejected by TaintToleration), w×h.
func detailOf(t *testing.T, node string, w, h int) Model {
	t.Helper()
	rec, err := recorder.LoadFile(filepath.Join("..", "..", "testdata", "default.rec"))
	if err != nil {
		t.Fatal(err)
	}
	c := rec.Cycles[0]
	a := analysis.Of(c)
	n := a.NodeIndex(node)
	if n < 0 {
		t.Fatalf("no node %s", node)
	}
	st := theme.New(true)
	d := New(&st, c, a, n)
	d.SetUsage(recorder.UsageAt(rec.Cycles, 0))
	d.SetSize(w, h)
	return d
}

func TestHelpListsEveryBinding(t *testing.T) {
	k := DefaultKeyMap()
	listed := map[key.Help]bool{}
	for _, col := range k.FullHelp() {
		for _, b := range col {
			listed[b.Help()] = true
		}
	}
	for name, b := range map[string]key.Binding{"Up": k.Up, "Down": k.Down, "Back": k.Back} {
		if !listed[b.Help()] {
			t.Errorf("FullHelp does not list %s", name)
		}
	}
	var short []string
	for _, b := range k.ShortHelp() {
		short = append(short, b.Help().Key+" "+b.Help().Desc)
	}
	if got, want := strings.Join(short, " · "), "esc back · ↑/↓ scroll"; got != want {
		t.Errorf("ShortHelp = %q, want %q", got, want)
	}
}

func TestView(t *testing.T) {
	tests := []struct {
		node string
		want []string
	}{
		{"node-a", []string{"node node-a  (#0 of 4 in the snapshot) · esc back", "kubernetes.io/hostname=node-a", "Filter: passed every filter", "Score: total 463"}},
		{"node-c", []string{"node node-c", "taints", "rejected by TaintToleration (UnschedulableAndUnresolvable)", "Score: not scored"}},
	}
	for _, tc := range tests {
		t.Run(tc.node, func(t *testing.T) {
			got := ansi.Strip(detailOf(t, tc.node, 100, 100).View())
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("detail lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

func TestAwaitUsage(t *testing.T) {
	d := detailOf(t, "node-a", 100, 100)
	d.AwaitUsage()
	if d.Pending() {
		t.Error("a detail that has its node use should not wait for it")
	}
	st := theme.New(true)
	d = New(&st, d.c, d.a, d.node)
	d.SetSize(100, 100)
	d.AwaitUsage()
	if !d.Pending() || !strings.Contains(ansi.Strip(d.View()), "reading the recording up to this cycle") {
		t.Errorf("pending %v:\n%s", d.Pending(), ansi.Strip(d.View()))
	}
	d.SetUsage(recorder.NewUsage())
	if d.Pending() {
		t.Error("SetUsage should end the wait")
	}
}

// TestUpdateScrolls: down and up move the window by a line.
func TestUpdateScrolls(t *testing.T) {
	d := detailOf(t, "node-a", 80, 6)
	first := func(d Model) string { return strings.SplitN(ansi.Strip(d.View()), "\n", 2)[0] }
	top := first(d)
	d, _ = d.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if first(d) == top {
		t.Fatalf("j did not scroll:\n%s", ansi.Strip(d.View()))
	}
	d, _ = d.Update(tea.KeyPressMsg{Code: tea.KeyUp})
	if first(d) != top {
		t.Errorf("up did not scroll back:\n%s", ansi.Strip(d.View()))
	}
	d, _ = d.Update(tea.KeyPressMsg{Code: tea.KeyUp})
	if first(d) != top {
		t.Errorf("up at the top moved:\n%s", ansi.Strip(d.View()))
	}
}

// A node rejected with a nominated pod counted there says so: why a node
// with room to spare rejected the pod.
func TestViewNamesNominatedPods(t *testing.T) {
	rec, err := recorder.LoadFile(filepath.Join("..", "..", "testdata", "default.rec"))
	if err != nil {
		t.Fatal(err)
	}
	c := rec.Cycles[0]
	n := -1
	for i := range c.Filter.Rejected {
		if c.NodeName(c.Filter.Rejected[i].Node) == "node-c" {
			c.Filter.Rejected[i].Nominated = []recorder.PodRef{{Namespace: "default", Name: "urgent", Priority: 1000}}
			n = c.Filter.Rejected[i].Node
		}
	}
	if n < 0 {
		t.Fatal("node-c is not rejected in cycle 1")
	}
	st := theme.New(true)
	d := New(&st, c, analysis.Of(c), n)
	d.SetSize(120, 100)
	got := ansi.Strip(d.View())
	if !strings.Contains(got, "counting default/urgent (priority 1000), nominated here by an earlier preemption") {
		t.Errorf("detail does not name the nominated pod:\n%s", got)
	}
}

// With the pod's requests recorded, the detail works NodeResourcesFit's and
// BalancedAllocation's raw scores out, and they give the recorded scores; a
// sum that does not says so; a recording without requests (made before
// they were recorded) shows the scores alone.
func TestScoreArithmetic(t *testing.T) {
	d := detailOf(t, "node-a", 120, 60)
	got := ansi.Strip(d.View())
	for _, want := range []string{"LeastAllocated, free share after this pod: cpu (4 − 0 − 500m)×100/4 = 87", "mean of 2 = 90",
		"before it: cpu (0)/4 = 0.00, memory (0)/8Gi = 0.00: balance 100", "50 + (50 + 96 − 100)/2 = 73"} {
		if !strings.Contains(got, want) {
			t.Errorf("the detail lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "not the recorded") {
		t.Errorf("a sum of the default profile differs from the recorded score:\n%s", got)
	}
	c := *d.c
	c.Requests = map[string]int64{"cpu": 500, "memory": 1 << 30} // not web's: 512Mi
	d.c = &c
	if got := ansi.Strip(d.View()); !strings.Contains(got, "not the recorded 90: the profile scores otherwise") {
		t.Errorf("a sum that is not the recorded score is not told:\n%s", got)
	}
	c.Requests = nil
	if got := ansi.Strip(d.View()); strings.Contains(got, "LeastAllocated") {
		t.Errorf("a cycle without the pod's requests works a score out:\n%s", got)
	}
}

// TestDetailSaysTheDeviceNumbers: a node DynamicResources rejected says, in
// its detail, what each request of the pod's claims asked and what the
// node had free.
func TestDetailSaysTheDeviceNumbers(t *testing.T) {
	rec, err := recorder.LoadFile(filepath.Join("..", "..", "testdata", "default.rec"))
	if err != nil {
		t.Fatal(err)
	}
	c := *rec.Cycles[0]
	a := analysis.Of(&c)
	n := a.NodeIndex("node-c")
	c.DeviceShortfalls = map[int][]recorder.DeviceShortfall{n: {{Claim: "default/three-gpus", Request: "gpus", Class: "gpu", Asked: 3, Published: 3, Allocated: 2}}}
	st := theme.New(true)
	d := New(&st, &c, a, n)
	d.SetUsage(recorder.UsageAt(rec.Cycles, 0))
	d.SetSize(200, 100)
	got := ansi.Strip(d.View())
	if want := "claim default/three-gpus, request gpus: asks 3 devices of class gpu, the node has 1 free (3 published − 2 allocated): 2 short"; !strings.Contains(got, want) {
		t.Errorf("detail lacks %q:\n%s", want, got)
	}
}
