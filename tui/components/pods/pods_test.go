package pods

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/theme"
)

// view holds web (bound), big (unschedulable, tried twice) and gated (never
// got a cycle), 100×20.
func view() Model {
	st := theme.New(true)
	p := New(&st)
	p.SetSize(100, 20)
	ref := func(name string) recorder.PodRef { return recorder.PodRef{Namespace: "default", Name: name} }
	entries := []recorder.CycleEntry{
		{Seq: 1, Pod: ref("web"), Attempt: 1, Result: recorder.ResultBound, Node: "node-a"},
		{Seq: 2, Pod: ref("big"), Attempt: 1, Result: recorder.ResultUnschedulable},
		{Seq: 3, Pod: ref("big"), Attempt: 2, Result: recorder.ResultUnschedulable},
	}
	never := []recorder.PodState{{Pod: ref("gated"), State: recorder.PodGated}}
	p.SetData(entries, make([]*recorder.Cycle, len(entries)), nil, never, true, nil, nil)
	return p
}

func names(rows []Row) string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Pod.Name)
	}
	return strings.Join(out, " ")
}

func press(k string) tea.KeyPressMsg {
	if k == "enter" {
		return tea.KeyPressMsg{Code: tea.KeyEnter}
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
		"PageDown": k.PageDown, "Open": k.Open, "Sort": k.Sort, "Filter": k.Filter, "Back": k.Back} {
		if !listed[b.Help()] {
			t.Errorf("FullHelp does not list %s", name)
		}
	}
}

func TestRows(t *testing.T) {
	p := view()
	if got := names(p.Rows()); got != "web big gated" {
		t.Errorf("rows %q, want web big gated (by arrival)", got)
	}
	if big := p.All()[1]; big.State != recorder.PodUnschedulable || len(big.Cycles) != 2 {
		t.Errorf("big: %s with %d cycles", big.State, len(big.Cycles))
	}
	p.SetFilter("state:unsch")
	if got := names(p.Rows()); got != "big" {
		t.Errorf("state:unsch: %q", got)
	}
}

// TestStory: enter opens the selected pod's story on its last cycle, enter
// there asks for that cycle, and Back closes it.
func TestStory(t *testing.T) {
	p := view()
	p, _ = p.Update(press("j"))
	p, _ = p.Update(press("enter"))
	if !p.InStory() || !strings.Contains(ansi.Strip(p.View()), "big") {
		t.Fatalf("enter on big did not open its story:\n%s", ansi.Strip(p.View()))
	}
	_, cmd := p.Update(press("enter"))
	if cmd == nil {
		t.Fatal("enter on a story's cycle should ask to open it")
	}
	if msg, ok := cmd().(OpenCycleMsg); !ok || msg.Index != 2 {
		t.Errorf("enter asked for %+v, want cycle index 2 (big's last)", cmd())
	}
	if !p.Back() || p.InStory() {
		t.Error("Back should close the story")
	}
	if p.Back() {
		t.Error("Back with nothing open should report false")
	}
}

func TestSortKey(t *testing.T) {
	p := view()
	p, _ = p.Update(press("s"))
	if !strings.Contains(ansi.Strip(p.View()), "sorted by state") {
		t.Errorf("s should sort by state:\n%s", ansi.Strip(p.View()))
	}
}

// TestOwnersGroupAWorkloadsPods: pods with an owner show it in an OWNER
// column, the owner sort puts a workload's pods together (bare pods last),
// and the filter finds them by owner.
func TestOwnersGroupAWorkloadsPods(t *testing.T) {
	st := theme.New(true)
	p := New(&st)
	p.SetSize(120, 20)
	owned := func(name, kind, owner string) recorder.PodRef {
		return recorder.PodRef{Namespace: "default", Name: name, Owner: &recorder.Owner{Kind: kind, Name: owner}}
	}
	entries := []recorder.CycleEntry{
		{Seq: 1, Pod: owned("web-7d-a", "Deployment", "web"), Result: recorder.ResultBound, Node: "n1"},
		{Seq: 2, Pod: recorder.PodRef{Namespace: "default", Name: "loner"}, Result: recorder.ResultBound, Node: "n1"},
		{Seq: 3, Pod: owned("db-0", "StatefulSet", "db"), Result: recorder.ResultBound, Node: "n2"},
		{Seq: 4, Pod: owned("web-7d-b", "Deployment", "web"), Result: recorder.ResultUnschedulable},
	}
	p.SetData(entries, make([]*recorder.Cycle, len(entries)), nil, nil, true, nil, nil)
	screen := ansi.Strip(p.View())
	if !strings.Contains(screen, "OWNER") || !strings.Contains(screen, "Deployment/web") || !strings.Contains(screen, "StatefulSet/db") {
		t.Fatalf("no OWNER column with the owners:\n%s", screen)
	}
	for p.sort != podSortOwner {
		p, _ = p.Update(press("s"))
	}
	var got []string
	for _, i := range p.rows {
		got = append(got, p.pods[i].Pod.Name)
	}
	if strings.Join(got, " ") != "web-7d-a web-7d-b db-0 loner" {
		t.Errorf("sorted by owner: got %v, want the Deployment's pods, the StatefulSet's, then the bare pod", got)
	}
	p.SetFilter("owner:deployment/web")
	if len(p.rows) != 2 {
		t.Errorf("filter owner:deployment/web: got %d rows, want 2", len(p.rows))
	}
	p.SetCluster(&recorder.ClusterState{
		Workloads: []recorder.WorkloadState{{Kind: "Deployment", Namespace: "default", Name: "web", Desired: 2,
			Pods: []recorder.WorkloadPod{{Name: "web-7d-a", Node: "n1"}, {Name: "web-7d-b"}}}},
		Budgets: []recorder.BudgetState{{Namespace: "default", Name: "web", DisruptionsAllowed: 1}},
		Claims:  []recorder.ClaimState{{Namespace: "default", Name: "data", Phase: "Bound"}},
	})
	if screen := ansi.Strip(p.View()); !strings.Contains(screen, "at the end: Deployment/web 1/2 · budget web: 1 allowed · 1 claim(s) Bound") {
		t.Errorf("no line for what the controllers left:\n%s", screen)
	}
}

// TestFooterTellsArrivedBoundFromNeverAttempted: a pod that arrived bound
// needed no cycle; the footer and its story do not say it never got one.
func TestFooterTellsArrivedBoundFromNeverAttempted(t *testing.T) {
	p := view()
	if got := ansi.Strip(p.View()); !strings.Contains(got, "1 pod(s) never got a cycle: enter tells why") {
		t.Errorf("footer with a gated pod:\n%s", got)
	}
	st := theme.New(true)
	p = New(&st)
	p.SetSize(100, 20)
	never := []recorder.PodState{{Pod: recorder.PodRef{Namespace: "default", Name: "running"}, State: recorder.PodPreBound, Node: "node-a"}}
	p.SetData(nil, nil, nil, never, true, nil, nil)
	got := ansi.Strip(p.View())
	if !strings.Contains(got, "1 arrived bound (the scheduler only counts them): enter tells why") || strings.Contains(got, "never got a cycle") {
		t.Errorf("footer with a pod that arrived bound:\n%s", got)
	}
	p, _ = p.Update(press("enter"))
	if story := ansi.Strip(p.View()); !strings.Contains(story, "no cycle:") || strings.Contains(story, "never attempted") {
		t.Errorf("the story of a pod that arrived bound:\n%s", story)
	}
}

// Replicas share all but a suffix: at 80 columns the pod cell gives up
// the middle of what they share, never the suffix, so each row is told
// apart (issue 41: the rows read "checkout-service-966fb…" five times).
func TestReplicasKeepTheirSuffix(t *testing.T) {
	st := theme.New(true)
	for _, ns := range []string{"shop", ""} {
		p := New(&st)
		p.SetSize(80, 12)
		suffixes := []string{"g6jq8", "k2x9p", "m7vtn"}
		var entries []recorder.CycleEntry
		for i, s := range suffixes {
			pod := recorder.PodRef{Namespace: "shop", Name: "checkout-service-966fb979-" + s}
			entries = append(entries, recorder.CycleEntry{Seq: i + 1, Pod: pod, Attempt: 1, Result: recorder.ResultBound, Node: "node-a"})
		}
		if ns == "" { // a second namespace: rows say namespace/name
			entries = append(entries, recorder.CycleEntry{Seq: 9, Pod: recorder.PodRef{Namespace: "default", Name: "web"}, Attempt: 1, Result: recorder.ResultBound, Node: "node-a"})
		}
		p.SetData(entries, make([]*recorder.Cycle, len(entries)), nil, nil, false, nil, nil)
		got := ansi.Strip(p.View())
		for _, s := range suffixes {
			if !strings.Contains(got, "…-"+s+" ") {
				t.Errorf("namespace %q: no row ends its pod with …-%s:\n%s", ns, s, got)
			}
		}
	}
}
