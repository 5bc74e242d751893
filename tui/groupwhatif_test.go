package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/pages/groupwhatif"
)

// groupSource runs nothing: it answers a group's what-if with the group's
// recorded cycle before and train's bound cycle after, and keeps what it
// was asked.
type groupSource struct {
	before, after *recorder.PodGroupCycle
	runs          [][]recorder.Change
}

func (g *groupSource) Change(flag, value string) (recorder.Change, error) {
	return recorder.SetMinCount{MinCount: 2}, nil
}
func (g *groupSource) Run(group recorder.PodGroupRef, changes []recorder.Change) (*groupwhatif.Result, error) {
	g.runs = append(g.runs, changes)
	return &groupwhatif.Result{Group: group, Changes: changes, Before: g.before, After: g.after, Command: "kubectl schedscope whatif --pod-group " + group.Key()}, nil
}
func (g *groupSource) Suggest(group recorder.PodGroupRef) (*groupwhatif.SuggestResult, error) {
	return &groupwhatif.SuggestResult{Group: group, Now: g.before, Tried: 1, Suggestions: []groupwhatif.Suggestion{
		{Text: "lower the gang's minCount to 2", Change: recorder.SetMinCount{MinCount: 2}, Cycle: g.after, Command: "kubectl schedscope whatif --min-count 2"}}}, nil
}

// gangSessionWith is gangSession with options.
func gangSessionWith(t *testing.T, opts Options, w, h int) Model {
	t.Helper()
	rec := loadRecording(t, "gang")
	m := New(opts)
	m = send(m, tea.WindowSizeMsg{Width: w, Height: h})
	evs := []source.Event{{Header: &rec.Header}}
	for _, c := range rec.Cycles {
		evs = append(evs, source.Event{Cycle: c})
	}
	for _, g := range rec.PodGroups {
		evs = append(evs, source.Event{PodGroup: g})
	}
	return send(m, eventsMsg{events: evs})
}

// feed runs cmd and sends m the group what-if's messages it returns (a
// run's result), and what those start, as the program does.
func feed(m Model, cmd tea.Cmd) Model {
	if cmd == nil {
		return m
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			m = feed(m, c)
		}
		return m
	}
	if !groupwhatif.Owns(msg) {
		return m
	}
	m, next := sendCmd(m, msg)
	return feed(m, next)
}

func TestGroupWhatIfFromThePodGroupPage(t *testing.T) {
	rec := loadRecording(t, "gang")
	src := &groupSource{}
	for _, g := range rec.PodGroups {
		switch g.Group.Name {
		case "infer":
			src.before = g
		case "train":
			src.after = g
		}
	}
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		src.runs = nil
		m := gangSessionWith(t, Options{Source: "replay gang.rec", GroupWhatIf: src}, size[0], size[1])
		m.open(memberIndex(t, m, "infer-2"))
		m = keys(m, "t")
		if got := screen(m); !strings.Contains(got, "w what-if • S suggest") {
			t.Errorf("%dx%d: the pod-group page does not offer w and S in its help line:\n%s", size[0], size[1], got)
		}
		m = keys(m, "w")
		got := screen(m)
		for _, want := range []string{"pod-group cycle 2 · default/infer", "what-if on pod group default/infer", "change infer-2's requests (now cpu=1200m)", "› group what-if"} {
			if !strings.Contains(got, want) {
				t.Errorf("%dx%d: after w the screen does not say %q:\n%s", size[0], size[1], want, got)
			}
		}
		// m opens the prompt; enter runs it (the Cmd's message comes back
		// to the root, which shows the before/after).
		m = keys(m, "m")
		var cmd tea.Cmd
		m, cmd = sendCmd(m, press("enter"))
		m = feed(m, cmd)
		got = screen(m)
		if diff := cmp.Diff([][]recorder.Change{{recorder.SetMinCount{MinCount: 2}}}, src.runs); diff != "" {
			t.Errorf("%dx%d: runs (-want +got):\n%s", size[0], size[1], diff)
		}
		for _, want := range []string{"before: the fixture as it is", "after: changed", "on s1, reverted", "$ kubectl schedscope whatif --pod-group default/infer"} {
			if !strings.Contains(got, want) {
				t.Errorf("%dx%d: the before/after does not say %q:\n%s", size[0], size[1], want, got)
			}
		}
		// esc leaves the what-if for the pod-group page under it.
		m = keys(m, "esc")
		if _, ok := m.top().(podGroupLayer); !ok {
			t.Errorf("%dx%d: esc from the before/after left %T on top, want the pod-group page", size[0], size[1], m.top())
		}
		// S shows suggest's list, with the command line of each.
		m, cmd = sendCmd(m, press("S"))
		m = feed(m, cmd)
		if got := screen(m); !strings.Contains(got, "1. lower the gang's minCount to 2") || !strings.Contains(got, "$ kubectl schedscope whatif --min-count 2") {
			t.Errorf("%dx%d: S did not list the suggestion with its command:\n%s", size[0], size[1], got)
		}
	}
}

func TestGroupWhatIfWithoutAFixtureSaysWhy(t *testing.T) {
	m := gangSessionWith(t, Options{Source: "live", NoGroupWhatIf: "live has no fixture to run again"}, 80, 24)
	m.open(memberIndex(t, m, "infer-2"))
	m = keys(m, "t", "w")
	if _, ok := m.top().(podGroupLayer); !ok {
		t.Errorf("w without a fixture left %T on top", m.top())
	}
	if got := screen(m); !strings.Contains(got, "live has no fixture to run again") {
		t.Errorf("w without a fixture did not say why:\n%s", got)
	}
}

func TestHelpNamesTheGroupWhatIfKeys(t *testing.T) {
	m := gangSessionWith(t, Options{Source: "replay gang.rec", GroupWhatIf: &groupSource{}}, 200, 50)
	m = keys(m, "?")
	got := screen(m)
	for _, want := range []string{"On the pod-group page (t)", "group what-if", "suggest for the group", "set the gang's minCount", "add a copy of a node"} {
		if !strings.Contains(got, want) {
			t.Errorf("the help screen does not say %q:\n%s", want, got)
		}
	}
}
