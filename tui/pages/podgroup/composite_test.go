package podgroup

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/internal/golden"
	"github.com/schedscope/schedscope/tui/internal/recordings"
	"github.com/schedscope/schedscope/tui/theme"
)

// compositePage is the page over the pod-group cycles of the
// CompositePodGroup group in tui/testdata/composite.rec (recorded from
// fixtures/gated/composite.yaml), sized w×h.
func compositePage(t *testing.T, group string, w, h int) Model {
	t.Helper()
	rec := recordings.Load(t, "composite.rec")
	var groups []*recorder.PodGroupCycle
	for _, g := range rec.PodGroups {
		if g.Group.Name == group {
			groups = append(groups, g)
		}
	}
	if len(groups) == 0 {
		t.Fatalf("composite.rec has no pod-group cycle of %s", group)
	}
	bySeq := map[int]*recorder.Cycle{}
	for _, c := range rec.Cycles {
		bySeq[c.Seq] = c
	}
	st := theme.New(true)
	m := New(&st)
	m.SetSize(w, h)
	m.Show(groups, 0, func(seq int) *recorder.Cycle { return bySeq[seq] })
	return m
}

func TestCompositeGoldens(t *testing.T) {
	for _, group := range []string{"pair", "ring"} {
		for _, size := range golden.Sizes {
			name := fmt.Sprintf("composite-%s-%dx%d", group, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				m := compositePage(t, group, size[0], size[1])
				for i, l := range strings.Split(ansi.Strip(m.View()), "\n") {
					if w := ansi.StringWidth(l); w > size[0] {
						t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, w, size[0], l)
					}
				}
				golden.Check(t, name, golden.Screen(m.View(), size[0], size[1]))
			})
		}
	}
}

// TestCompositeShowsItsHierarchy checks the facts a failed composite
// group's page must tell, whatever the layout: each member's PodGroup, the
// hierarchy with minGroupCount and minCount, the child overruled by its
// parent, why minGroupCount was not met, and that the CompositePodGroup
// has no condition while its PodGroups do.
func TestCompositeShowsItsHierarchy(t *testing.T) {
	m := compositePage(t, "pair", 200, 200)
	view := ansi.Strip(m.View())
	for _, want := range []string{
		"CompositePodGroup: gang, minGroupCount 2",
		"pair-0: on b",
		"pair-1: fit nowhere",
		"Hierarchy",
		"CompositePodGroup pair (gang, minGroupCount 2)",
		"PodGroup pair-0 (gang, minCount 2)",
		"2 of 2 member(s) placed; reverted: its parent pair was not satisfied",
		"Why minGroupCount was not met",
		"minGroupCount 2 was not met: 1 of the 2 group(s) under pair could be placed (pair-0, reverted with the rest); not placed: pair-1",
		"after pair-1",
		"none on the CompositePodGroup",
		"PodGroupInitiallyScheduled=False (Unschedulable)",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("the page does not say %q:\n%s", want, view)
		}
	}
}
