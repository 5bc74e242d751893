package cyclelist

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/theme"
)

// entry builds a cycle's index entry: bound to node, or Unschedulable when
// node is empty.
func entry(seq int, pod, node string) recorder.CycleEntry {
	e := recorder.CycleEntry{Seq: seq, Pod: recorder.PodRef{Namespace: "default", Name: pod}, Profile: "default-scheduler", Attempt: 1, Result: recorder.ResultBound, Node: node}
	if node == "" {
		e.Result = recorder.ResultUnschedulable
	}
	return e
}

// list holds web, api, huge (unschedulable) and cache, 80×10.
func list() Model {
	st := theme.New(true)
	l := New(&st)
	l.SetSize(80, 10)
	l.Append(entry(1, "web", "node-a"), entry(2, "api", "node-b"), entry(3, "huge", ""), entry(4, "cache", "node-a"))
	return l
}

func press(k string) tea.KeyPressMsg {
	switch k {
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
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
		"PageDown": k.PageDown, "Open": k.Open, "NextFailure": k.NextFailure, "PrevFailure": k.PrevFailure, "Pods": k.Pods, "Back": k.Back} {
		if !listed[b.Help()] {
			t.Errorf("FullHelp does not list %s", name)
		}
	}
}

// TestFollow: the list follows new cycles while the selection is on the
// last; moving up stops that.
func TestFollow(t *testing.T) {
	l := list()
	if l.Selected() != 3 {
		t.Fatalf("selected %d, want the last (3)", l.Selected())
	}
	l.Append(entry(5, "late", "node-b"))
	if l.Selected() != 4 {
		t.Errorf("a new cycle at the tail: selected %d, want 4", l.Selected())
	}
	l, _ = l.Update(press("k"))
	l.Append(entry(6, "later", "node-b"))
	if l.Selected() != 3 {
		t.Errorf("after k a new cycle moved the selection to %d", l.Selected())
	}
	l.SetFollow(true)
	l.Append(entry(7, "last", "node-b"))
	if l.Selected() != 6 {
		t.Errorf("SetFollow(true): selected %d, want 6", l.Selected())
	}
}

func TestUpdateMoves(t *testing.T) {
	tests := []struct {
		keys []string
		want int
	}{
		{[]string{"g"}, 0},
		{[]string{"g", "j"}, 1},
		{[]string{"up", "up"}, 1},
		{[]string{"g", "G"}, 3},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.keys, " "), func(t *testing.T) {
			l := list()
			for _, k := range tc.keys {
				l, _ = l.Update(press(k))
			}
			if l.Selected() != tc.want {
				t.Errorf("selected %d, want %d", l.Selected(), tc.want)
			}
		})
	}
}

func TestFilterAndFailures(t *testing.T) {
	l := list()
	l.SetFilter("node:node-a")
	if diff := cmp.Diff([]int{0, 3}, l.Rows()); diff != "" {
		t.Errorf("node:node-a (-want +got):\n%s", diff)
	}
	l.SetFilter("")
	l.Select(0)
	if !l.JumpFailure(1) || l.Selected() != 2 {
		t.Errorf("the next failure after web is huge (2), got %d", l.Selected())
	}
	if l.JumpFailure(1) {
		t.Error("there is no failure after huge")
	}
	l.SetResult(1, "unreadable")
	l.Select(3)
	if !l.JumpFailure(-1) || l.Selected() != 2 {
		t.Errorf("the previous failure from cache is huge (2), got %d", l.Selected())
	}
	if i, ok := l.IndexOf(4); !ok || i != 3 || l.Entry(i).Pod.Name != "cache" {
		t.Errorf("IndexOf(4) = %d %v", i, ok)
	}
}

func TestAppendAfter(t *testing.T) {
	l := list()
	l.AppendAfter(&recorder.Cycle{Seq: 9, Pod: recorder.PodRef{Namespace: "default", Name: "web"}, Outcome: recorder.Outcome{Result: recorder.ResultBound, Node: "node-b"}}, 0, "1'", "")
	if diff := cmp.Diff([]int{0, 4, 1, 2, 3}, l.Rows()); diff != "" {
		t.Errorf("the re-run is listed after its cycle (-want +got):\n%s", diff)
	}
	if l.Number(4) != "1'" || l.Number(1) != "2" {
		t.Errorf("numbers %q %q", l.Number(4), l.Number(1))
	}
}

func TestView(t *testing.T) {
	got := ansi.Strip(list().View())
	for _, want := range []string{"web", "✓ node-a", "huge", "✗ Unschedulable", "▸"} {
		if !strings.Contains(got, want) {
			t.Errorf("view lacks %q:\n%s", want, got)
		}
	}
	l := list()
	l.SetFilter("nothing-matches")
	if got := ansi.Strip(l.View()); !strings.Contains(got, `no cycle matches "nothing-matches" (esc clears)`) {
		t.Errorf("an empty filter result should say how to clear it:\n%s", got)
	}
}

// Cycles that end out of order (a binding outlasts the next pod's cycle) are
// listed by number, after the what-if re-runs of the cycles before them, and
// the selection stays on its cycle.
func TestAppendOutOfOrder(t *testing.T) {
	st := theme.New(true)
	l := New(&st)
	l.SetSize(80, 10)
	l.Append(entry(2, "small", ""), entry(1, "urgent", ""))
	if diff := cmp.Diff([]int{1, 0}, l.Rows()); diff != "" {
		t.Fatalf("rows (-want +got):\n%s", diff)
	}
	l.AppendAfter(&recorder.Cycle{Seq: 9, Pod: recorder.PodRef{Namespace: "default", Name: "small"}, Outcome: recorder.Outcome{Result: recorder.ResultBound, Node: "node-b"}}, 0, "2'", "")
	l, _ = l.Update(press("k")) // select 2, no longer following
	sel := l.Selected()
	l.Append(entry(4, "small", ""), entry(3, "urgent", "node-1"))
	if diff := cmp.Diff([]int{1, 0, 2, 4, 3}, l.Rows()); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if l.Selected() != sel {
		t.Errorf("selection moved from %d to %d", sel, l.Selected())
	}
	if got, want := l.Position(), fmt.Sprintf("%d/5", slices.Index(l.Rows(), sel)+1); got != want {
		t.Errorf("position %q, want the selected row of the rows: %s", got, want)
	}
	l.SetFilter("small")
	if got := l.Position(); got != "3/3" {
		t.Errorf("filtered to small's cycles and re-run: position %q, want 3/3", got)
	}
}

// replicas lists five replicas of one Deployment in ns, then a pod of
// another name, w columns wide.
func replicas(w int, ns string) Model {
	st := theme.New(true)
	l := New(&st)
	l.SetSize(w, 10)
	for i, s := range []string{"g6jq8", "k2x9p", "m7vtn", "q4wzc", "z8rbd"} {
		e := entry(i+1, "checkout-service-966fb979-"+s, "node-a")
		e.Pod.Namespace = ns
		l.Append(e)
	}
	l.Append(entry(6, "web", "node-b"))
	return l
}

// TestReplicasKeepWhatDiffers: replicas share all but a suffix; a cell too
// narrow for the name gives up the middle of what they share, never the
// suffix, so that each row is told apart. One namespace is said once, in
// the header; several are said on every row.
func TestReplicasKeepWhatDiffers(t *testing.T) {
	tests := []struct {
		name     string
		w        int
		ns       string
		head     string   // in the header
		rowsHave []string // in the replicas' rows, one each
		notIn    string   // in no row
	}{
		{"80 one namespace", 80, "default", "pod (ns default)", []string{"-g6jq8", "-k2x9p", "-m7vtn", "-q4wzc", "-z8rbd"}, "default/"},
		{"60 one namespace", 60, "default", "pod (ns default)", []string{"-g6jq8", "-k2x9p", "-m7vtn", "-q4wzc", "-z8rbd"}, "default/"},
		{"80 two namespaces", 80, "shop", "pod", []string{"shop/checkout", "-g6jq8", "-z8rbd"}, ""},
		{"40 two namespaces", 40, "shop", "pod", []string{"-g6jq8", "-k2x9p", "-m7vtn", "-q4wzc", "-z8rbd"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ansi.Strip(replicas(tc.w, tc.ns).View())
			lines := strings.Split(got, "\n")
			if !strings.Contains(lines[0], tc.head) || (tc.head == "pod" && strings.Contains(lines[0], "(ns")) {
				t.Errorf("header %q, want %q", lines[0], tc.head)
			}
			rows := lines[1:6]
			seen := map[string]bool{}
			for _, r := range rows {
				if seen[r] {
					t.Errorf("two rows look the same: %q", r)
				}
				seen[r] = true
				if tc.notIn != "" && strings.Contains(r, tc.notIn) {
					t.Errorf("row %q says %q", r, tc.notIn)
				}
				if !strings.Contains(r, "chec") {
					t.Errorf("row %q lost the start of the name", r)
				}
			}
			for _, want := range tc.rowsHave {
				if !strings.Contains(got, want) {
					t.Errorf("no row says %q:\n%s", want, got)
				}
			}
		})
	}
}

// TestMarkColumn: a marked cycle shows ★ in a column of its own, not in
// the pod's cell; its note shows only while the filter asks for "marked".
func TestMarkColumn(t *testing.T) {
	l := replicas(80, "default")
	l.SetMark(3, "the slow one")
	got := ansi.Strip(l.View())
	row := strings.Split(got, "\n")[3]
	if !strings.Contains(row, " 3 ★ ") || !strings.Contains(row, "-m7vtn") || strings.Contains(got, "the slow one") {
		t.Errorf("marked row %q, want ★ in its column, the pod whole and no note:\n%s", row, got)
	}
	l.SetFilter("marked")
	got = ansi.Strip(l.View())
	if !strings.Contains(got, "note") || !strings.Contains(got, "the slow one") || !strings.Contains(got, "-m7vtn") {
		t.Errorf(":marked does not show the note:\n%s", got)
	}
	l.SetMark(3, "")
	l.SetFilter("")
	if got := ansi.Strip(l.View()); strings.Contains(got, "★") {
		t.Errorf("no mark left, but the ★ column stays:\n%s", got)
	}
}
