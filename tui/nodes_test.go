package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// :nodes lists every node as the cycle shown saw it: what was requested of
// what it has, its taints, and what the cycle did with it; esc goes back.
func TestNodesView(t *testing.T) {
	rec := loadRecording(t, "default")
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		m := keys(newSession(t, rec, nil, size[0], size[1]), "G") // cycle 4: huge, Unschedulable
		m = keys(m, ":", "text:nodes", "enter")
		got := screen(m)
		if !m.showing(nodesLayer{}) {
			t.Fatalf(":nodes did not open the view:\n%s", got)
		}
		rejected := "✗ NodeResourcesFit: Insufficient cpu"
		if size[0] < 120 {
			rejected = "✗ NRF: Insufficient cpu" // abbreviated to fit
		}
		for _, want := range []string{"nodes as cycle 4 saw them", "Nodes (4)", "node-a", rejected} {
			if !strings.Contains(got, want) {
				t.Errorf("%dx%d: the view lacks %q:\n%s", size[0], size[1], want, got)
			}
		}
		golden(t, fmt.Sprintf("nodes-%dx%d", size[0], size[1]), got)
		if m = keys(m, "esc"); m.top() != nil || !strings.Contains(screen(m), "huge") {
			t.Errorf("esc did not go back to the cycles:\n%s", screen(m))
		}
	}

	// Cycle 1 chose node-a; what web, api and trainer requested is not
	// placed yet.
	m := keys(newSession(t, rec, nil, 200, 50), "g", ":", "text:nodes node-a", "enter")
	got := screen(m)
	if !strings.Contains(got, "★ chosen") || !strings.Contains(got, "0/4 0%") || strings.Contains(got, "node-b") {
		t.Errorf(":nodes node-a on cycle 1: want node-a alone, chosen, nothing requested yet:\n%s", got)
	}

	// enter opens the selected node's detail in the cycle.
	if d := keys(m, "j", "enter"); d.top() != nil || d.focus != focusCycle || !strings.Contains(screen(d), "node node-a") {
		t.Errorf("enter on node-a did not open its detail in cycle 1:\n%s", screen(d))
	} else if node, ok := d.view.DetailNode(); !ok || node != "node-a" {
		t.Errorf("the detail open is of %q (%v), want node-a", node, ok)
	}

	// The session's keys work over it: ? stacks help, esc comes back.
	m = keys(m, "?")
	if !m.showing(helpLayer{}) {
		t.Fatalf("? over the nodes did not open help:\n%s", screen(m))
	}
	if m = keys(m, "esc"); !m.showing(nodesLayer{}) {
		t.Errorf("esc from help over the nodes did not come back to them:\n%s", screen(m))
	}

	if m := keys(New(Options{Source: "replay empty.rec"}), ":", "text:nodes", "enter"); m.top() != nil || !strings.Contains(m.message.Text, "no cycle") {
		t.Errorf(":nodes with no cycle: layer %v, message %q", m.top(), m.message.Text)
	}
}

// :fixtures lists the fixtures the session was given, with what each
// teaches and how to open one; esc goes back.
func TestFixturesList(t *testing.T) {
	m := New(Options{Source: "replay test.rec", Fixtures: []Fixture{
		{Name: "preemption", Teaches: "Preemption by priority: the cluster is full of low-priority pods."},
		{Name: "volumes", Teaches: "a volume can decide where a pod goes."},
	}})
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = keys(m, ":", "text:fixtures", "enter")
	got := screen(m)
	for _, want := range []string{"Embedded fixtures (2)", "kubectl schedscope sim -f NAME", "preemption", "Preemption by priority", "volumes", "esc back"} {
		if !strings.Contains(got, want) {
			t.Errorf(":fixtures lacks %q:\n%s", want, got)
		}
	}
	if m = keys(m, "esc"); m.top() != nil {
		t.Errorf("esc did not close the list")
	}
	if m := keys(New(Options{}), ":", "text:fixtures", "enter"); m.top() != nil || !strings.Contains(m.message.Text, "no list of fixtures") {
		t.Errorf(":fixtures without a list: %v, %q", m.top(), m.message.Text)
	}
}

// TestCopiesKeepTheirStacks: the model is a value; a copy's layers, and
// the state each holds, are its own (the stack is copied on change, not
// appended to in place).
func TestCopiesKeepTheirStacks(t *testing.T) {
	rec := loadRecording(t, "preemption")
	m := keys(newSession(t, rec, nil, 80, 24), "P")
	help, probs := keys(m, "?"), keys(m, "!")
	if !help.showing(helpLayer{}) || !probs.showing(problemsLayer{}) || !m.showing(podsLayer{}) || len(m.layers) != 1 {
		t.Fatalf("two copies pushed: %T and %T on top, the original has %d layers", help.top(), probs.top(), len(m.layers))
	}
	story := keys(m, "enter")
	if !podsOf(story).InStory() || podsOf(m).InStory() {
		t.Errorf("enter in a copy: its story %v, the original's %v; want only the copy's", podsOf(story).InStory(), podsOf(m).InStory())
	}
	if closed := keys(m, "esc"); closed.top() != nil || !m.showing(podsLayer{}) {
		t.Errorf("esc in a copy closed the original's Pods view")
	}
}
