package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
)

// following is a replay at w×h that is following its file, as the reviewer
// saw it.
func following(t *testing.T, w, h int) Model {
	t.Helper()
	return send(newSession(t, loadRecording(t, "default"), nil, w, h), eventsMsg{events: []source.Event{{State: &source.EngineState{State: source.StateFollowing}}}})
}

// checkScreen fails unless every line of the screen is exactly w cells and
// there are h of them.
func checkScreen(t *testing.T, m Model, w, h int) []string {
	t.Helper()
	lines := strings.Split(screen(m), "\n")
	if len(lines) != h {
		t.Errorf("%d lines, want %d:\n%s", len(lines), h, screen(m))
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n != w {
			t.Errorf("line %d is %d cells wide, want %d: %q", i, n, w, l)
		}
	}
	return lines
}

// TestPromptFitsAt80 checks nothing the prompt says is cut at 80×24: the
// placeholder, and every candidate tab lists.
func TestPromptFitsAt80(t *testing.T) {
	for _, w := range []int{80, 200} {
		m := following(t, w, 24)
		for _, tt := range []struct {
			keys []string
			want string
		}{
			{[]string{":"}, "tab completes"},
			{[]string{"/"}, "plugin:taint disagree"},
		} {
			got := lastLine(t, keys(m, tt.keys...))
			if !strings.Contains(got, tt.want) || strings.HasSuffix(strings.TrimRight(got, " "), "…") {
				t.Errorf("%d columns, %v: prompt line %q is cut", w, tt.keys, got)
			}
		}
		for _, typed := range []string{"", "ph", "so"} {
			m := keys(m, ":", "text:"+typed, "tab")
			lines := checkScreen(t, m, w, 24)
			if len(m.prompt.Candidates()) == 0 {
				t.Fatalf("%q: no candidates", typed)
			}
			shown := strings.Fields(strings.Join(lines[len(lines)-m.prompt.Height():], " "))
			for _, c := range m.prompt.Candidates() {
				if !strings.Contains(" "+strings.Join(shown, " ")+" ", " "+c+" ") {
					t.Errorf("%d columns, %q+tab: candidate %q is not shown whole:\n%s", w, typed, c, strings.Join(lines[len(lines)-4:], "\n"))
				}
			}
			if !strings.Contains(lines[len(lines)-m.prompt.Height()-1], "… following") {
				t.Errorf("%d columns, %q+tab: the status bar should stay above the prompt:\n%s", w, typed, screen(m))
			}
			for _, l := range lines {
				if strings.HasSuffix(strings.TrimRight(l, " "), "…") {
					t.Errorf("%d columns, %q+tab: line cut: %q", w, typed, l)
				}
			}
		}
	}
}

func TestPhaseCommand(t *testing.T) {
	tests := []struct {
		arg       string
		wantPhase cyclepage.Phase // when says is empty
		says      string
	}{
		{"sel", cyclepage.Select, ""},
		{"select", cyclepage.Select, ""},
		{"select host", cyclepage.Select, ""},
		{"SEL", cyclepage.Select, ""},
		{"f", cyclepage.Filter, ""},
		{"norm", cyclepage.Normalize, ""},
		{"prefilter", cyclepage.PreFilter, ""},
		{"score", cyclepage.Score, ""}, // a name itself wins over the prefix of another
		{"s", 0, `phase "s": score sum select?`},
		{"p", 0, `phase "p": pref postf permit preb postb?`},
		{"pre", 0, `phase "pre": pref preb?`},
		{"xyz", 0, `no phase "xyz"; tab lists them`},
		{"", 0, ":phase NAME; tab lists the names"},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			m := following(t, 80, 24)
			m = keys(m, ":", "text:phase "+tt.arg, "enter")
			if tt.says != "" {
				// The answer fits whole at 80 columns, next to the state.
				if got := statusLine(t, m); !strings.Contains(got, tt.says) || !strings.Contains(got, "… following") {
					t.Errorf("status bar = %q, want %q whole", got, tt.says)
				}
				return
			}
			if m.focus != focusCycle || m.view.Phase() != tt.wantPhase {
				t.Errorf("at %v (cycle open: %v), want %v; status %q", m.view.Phase(), m.focus == focusCycle, tt.wantPhase, statusLine(t, m))
			}
		})
	}
}

func TestSortCommand(t *testing.T) {
	m := keys(following(t, 80, 24), "enter")
	if got := keys(m, ":", "text:sort sn", "enter").view.Nodes().SortBy(); got.String() != "snapshot" {
		t.Errorf(":sort sn sorted by %v, want snapshot", got)
	}
	if got := statusLine(t, keys(m, ":", "text:sort s", "enter")); !strings.Contains(got, `sort "s": status score snapshot?`) {
		t.Errorf(":sort s: status bar = %q", got)
	}
}

// TestFilterCommand: :filter TEXT does what / does, where / would.
func TestFilterCommand(t *testing.T) {
	m := following(t, 80, 24)
	byKey := keys(m, "/", "text:web", "enter")
	byCommand := keys(m, ":", "text:filter web", "enter")
	if byCommand.list.Filter() != "web" || screen(byCommand) != screen(byKey) {
		t.Errorf(":filter web and /web differ:\n%s\n---\n%s", screen(byCommand), screen(byKey))
	}
	if got := keys(byCommand, ":", "text:filter", "enter").list.Filter(); got != "" {
		t.Errorf(":filter with nothing should clear the filter, left %q", got)
	}
	inCycle := keys(m, "enter", ":", "text:phase filter", "enter", ":", "text:filter node-a", "enter")
	if got := inCycle.view.NodeFilter(); got != "node-a" {
		t.Errorf("inside a cycle :filter should filter nodes, as / does; node filter %q", got)
	}
}

// TestHelpListsCommands: :help (and ?) lists the ":" commands, :filter too.
func TestHelpListsCommands(t *testing.T) {
	m := keys(following(t, 200, 50), ":", "text:help", "enter")
	s := screen(m)
	for _, want := range []string{":cycle N", ":phase NAME", ":filter TEXT", ":sort KEY", ":problems", ":help", ":q"} {
		if !strings.Contains(s, want) {
			t.Errorf("help lacks %q:\n%s", want, s)
		}
	}
	// At 80×24 they are a scroll away.
	m = keys(following(t, 80, 24), "?")
	found := false
	for range 60 {
		found = found || strings.Contains(screen(m), ":filter TEXT")
		m = keys(m, "j")
	}
	if !found {
		t.Errorf("80×24 help never shows :filter")
	}
}

// TestCommandOverAScreenShowsWhatItDid: a command that acts on the panes
// (:cycle, :phase, :marked), typed over the Pods view, the help, the
// problems or the nodes, closes them: the cycle opened shows, rather than
// waiting under the screen for esc.
func TestCommandOverAScreenShowsWhatItDid(t *testing.T) {
	rec := loadRecording(t, "default")
	for _, open := range [][]string{{"P"}, {"?"}, {"!"}, {":", "text:nodes", "enter"}} {
		for _, command := range []string{"cycle 2", "phase filter", "marked"} {
			m := keys(newSession(t, rec, nil, 80, 24), open...)
			if m.top() == nil {
				t.Fatalf("%v opened no screen", open)
			}
			m = keys(m, ":", "text:"+command, "enter")
			if m.top() != nil {
				t.Errorf("%v then :%s: a screen is still over the panes:\n%s", open, command, screen(m))
			}
		}
		m := keys(newSession(t, rec, nil, 80, 24), open...)
		m = keys(m, ":", "text:cycle 2", "enter")
		if m.focus != focusCycle || m.view.Cycle() != m.cycles[1] {
			t.Errorf("%v then :cycle 2 does not show cycle 2:\n%s", open, screen(m))
		}
	}
}
