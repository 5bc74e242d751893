package podgroup

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// page is the page over the pod-group cycles of group in tui/testdata/gang.rec,
// sized w×h, with the members' cycles at hand.
func page(t *testing.T, group string, w, h int) Model {
	t.Helper()
	return pageOf(t, "gang.rec", group, w, h)
}

// pageOf is page over the recording tui/testdata/name.
func pageOf(t *testing.T, name, group string, w, h int) Model {
	t.Helper()
	rec := recordings.Load(t, name)
	var groups []*recorder.PodGroupCycle
	for _, g := range rec.PodGroups {
		if g.Group.Name == group {
			groups = append(groups, g)
		}
	}
	if len(groups) == 0 {
		t.Fatalf("%s has no pod-group cycle of %s", name, group)
	}
	bySeq := map[int]*recorder.Cycle{}
	for _, c := range rec.Cycles {
		bySeq[c.Seq] = c
	}
	st := theme.New(true)
	m := New(&st)
	m.SetSize(w, h)
	m.Show(groups, len(groups)-1, func(seq int) *recorder.Cycle { return bySeq[seq] })
	return m
}

func press(k string) tea.KeyPressMsg {
	switch k {
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

func TestGoldens(t *testing.T) {
	tests := []struct {
		name, group string
		keys        []string
	}{
		{name: "infer", group: "infer"},
		{name: "infer-last-member", group: "infer", keys: []string{"down", "down"}},
		{name: "infer-page-down", group: "infer", keys: []string{"pgdown"}},
		{name: "infer-explain", group: "infer", keys: []string{"e"}},
		{name: "train", group: "train"},
	}
	for _, tt := range tests {
		for _, size := range golden.Sizes {
			name := fmt.Sprintf("%s-%dx%d", tt.name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				m := page(t, tt.group, size[0], size[1])
				for _, k := range tt.keys {
					m, _ = m.Update(press(k))
				}
				got := ansi.Strip(m.View())
				for i, l := range strings.Split(got, "\n") {
					if w := ansi.StringWidth(l); w > size[0] {
						t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, w, size[0], l)
					}
				}
				golden.Check(t, name, golden.Screen(m.View(), size[0], size[1]))
			})
		}
	}
}

// TestFailedGangShowsItsStory checks the facts a failed gang's page must
// tell, whatever the layout: the tentative placements, what the third
// member saw assumed, why minCount was not met, what was reverted, the
// verdicts, the group PostFilter and the condition.
func TestFailedGangShowsItsStory(t *testing.T) {
	m := page(t, "infer", 200, 60)
	m, _ = m.Update(press("down"))
	m, _ = m.Update(press("down"))
	got := ansi.Strip(m.View())
	g := m.Cycle()
	var placed []string
	for _, mem := range g.Members[:2] {
		if mem.Node == "" {
			t.Fatalf("gang.rec: %s was not placed tentatively; the fixture changed", mem.Pod.Name)
		}
		placed = append(placed, mem.Pod.Name+" on "+mem.Node)
	}
	for _, want := range []string{
		"gang, minCount 3",
		"on " + g.Members[0].Node + ", reverted",
		"saw " + placed[0] + " assumed",
		"saw " + strings.Join(placed, ", ") + " assumed",
		"fit nowhere: 0/2 nodes are available",
		"minCount 3 was not met: 2 of the 3 member(s) tried fit",
		"Reverted: " + strings.Join(placed, ", "),
		"after infer-2",
		"after infer-2            2 scheduled, 0 remaining → Unschedulable",
		"PostFilter (group preemption): ",
		"PodGroupInitiallyScheduled=False (Unschedulable)",
		"infer-2 (its cycle 5",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the page does not say %q:\n%s", want, got)
		}
	}
	if seq, ok := m.Selected(); !ok || seq != g.Members[2].Cycle {
		t.Errorf("Selected() = %d, %v; want the third member's cycle %d", seq, ok, g.Members[2].Cycle)
	}
}

// TestBoundGangSaysBound checks a gang that bound is not said to revert.
func TestBoundGangSaysBound(t *testing.T) {
	m := page(t, "train", 120, 40)
	got := ansi.Strip(m.View())
	for _, want := range []string{"bound: its 2 placed member(s) went to binding together", "bound to s", "PodGroupInitiallyScheduled=True"} {
		if !strings.Contains(got, want) {
			t.Errorf("the page does not say %q:\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"Reverted", "reverted", "minCount 2 was not met"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("a bound gang's page says %q:\n%s", unwanted, got)
		}
	}
}

// memberRow is a row of the members table.
var memberRow = regexp.MustCompile(`^[ ▸] infer-\d +\d `)

// TestMembersWithoutTheirCycles draws a replay's page before the members'
// cycles are read: the placements still show, the other cells are unknown.
func TestMembersWithoutTheirCycles(t *testing.T) {
	m := page(t, "infer", 80, 30)
	m.Show(m.cycles, 0, func(int) *recorder.Cycle { return nil })
	rows := 0
	for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
		if !memberRow.MatchString(l) {
			continue
		}
		rows++
		if strings.ContainsAny(l, "○✗") {
			t.Errorf("without the member's cycle its row shows a filter verdict: %q", l)
		}
	}
	if rows != 3 {
		t.Errorf("%d member rows, want 3", rows)
	}
}

// TestExplainTeachesGangs: e shows what a pod-group cycle is (minCount,
// tentative placements reverted, the backoff retries) and hides it again.
func TestExplainTeachesGangs(t *testing.T) {
	m := page(t, "infer", 80, 60)
	if strings.Contains(ansi.Strip(m.View()), "What a pod-group cycle is") {
		t.Fatal("the teaching shows before e")
	}
	m, _ = m.Update(press("e"))
	got := strings.Join(strings.Fields(ansi.Strip(m.View())), " ")
	for _, want := range []string{"What a pod-group cycle is", "tentative placement", "minCount", "every tentative placement is reverted and no member is bound", "backoff timer, not into the unschedulable pool"} {
		if !strings.Contains(got, want) {
			t.Errorf("after e the page does not say %q:\n%s", want, got)
		}
	}
	m, _ = m.Update(press("e"))
	if strings.Contains(ansi.Strip(m.View()), "What a pod-group cycle is") {
		t.Error("e does not hide the teaching again")
	}
}

// TestTinySizes: the page draws at any size without failing, every line
// within its width once the root boxes it.
func TestTinySizes(t *testing.T) {
	for _, size := range [][2]int{{1, 1}, {5, 3}, {12, 4}, {30, 8}} {
		m := page(t, "infer", size[0], size[1])
		for _, k := range []string{"down", "down", "down", "pgdown", "e", "[", "]"} {
			m, _ = m.Update(press(k))
		}
		if got := strings.Split(m.View(), "\n"); len(got) > size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(got))
		}
	}
	var empty Model
	if empty.View() != "" || empty.Crumb() != "pod group" {
		t.Errorf("a page never shown: view %q, crumb %q", empty.View(), empty.Crumb())
	}
}

// TestTries: [ and ] go through the group's pod-group cycles (its retries
// on the backoff timer), the position saying which.
func TestTries(t *testing.T) {
	rec := recordings.Load(t, "gang.rec")
	first, again := *rec.PodGroups[1], *rec.PodGroups[1]
	again.Seq = 3
	st := theme.New(true)
	m := New(&st)
	m.SetSize(80, 20)
	m.Show([]*recorder.PodGroupCycle{&first, &again}, 1, nil)
	if m.Cycle().Seq != 3 || m.Position() != "2/2" || !strings.Contains(m.Crumb(), "group cycle 3") {
		t.Fatalf("shows %d at %s (%s), want the last try", m.Cycle().Seq, m.Position(), m.Crumb())
	}
	m, _ = m.Update(press("["))
	if m.Cycle().Seq != 2 || m.Position() != "1/2" {
		t.Errorf("[ shows %d at %s, want the first try", m.Cycle().Seq, m.Position())
	}
	m, _ = m.Update(press("["))
	if m.Cycle().Seq != 2 {
		t.Errorf("[ on the first try moved to %d", m.Cycle().Seq)
	}
	m, _ = m.Update(press("]"))
	if m.Cycle().Seq != 3 {
		t.Errorf("] shows %d, want 3", m.Cycle().Seq)
	}
}
