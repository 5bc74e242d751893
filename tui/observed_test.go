package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
)

// observed builds a live cluster's binding of the pod of cycle seq.
type observedBuilder struct{ o recorder.Observed }

func observe(seq int, pod string) *observedBuilder {
	return &observedBuilder{recorder.Observed{Seq: seq, Pod: recorder.PodRef{Namespace: "default", Name: pod}}}
}

func (b *observedBuilder) nominated(node string) *observedBuilder {
	b.o.Nominated = node
	return b
}

func (b *observedBuilder) predicted(node string, tieSet ...string) *observedBuilder {
	b.o.Predicted, b.o.TieSet = node, tieSet
	return b
}

func (b *observedBuilder) bound(node string) *observedBuilder {
	b.o.Node = node
	return b
}

func (b *observedBuilder) event() source.Event {
	o := b.o
	return source.Event{Observed: &o}
}

// liveSession delivers the header, then the events, as a live source would.
func liveSession(t *testing.T, w, h int, evs ...source.Event) Model {
	t.Helper()
	rec := loadRecording(t, "default")
	m := New(Options{Source: "cluster kind-kind", Control: &fakeController{}})
	m = send(m, tea.WindowSizeMsg{Width: w, Height: h})
	return send(m, eventsMsg{events: append([]source.Event{{Header: &rec.Header}}, evs...)})
}

func cycleEvents(t *testing.T) []source.Event {
	t.Helper()
	var evs []source.Event
	for _, c := range loadRecording(t, "default").Cycles {
		evs = append(evs, source.Event{Cycle: c})
	}
	return evs
}

// listRow returns the stripped list row of cycle seq.
func listRow(t *testing.T, m Model, seq int) string {
	t.Helper()
	for _, line := range strings.Split(screen(m), "\n") {
		if f := strings.Fields(strings.TrimPrefix(line, "▸")); len(f) > 0 && f[0] == fmt.Sprint(seq) {
			return line
		}
	}
	t.Fatalf("no list row for cycle %d:\n%s", seq, screen(m))
	return ""
}

func TestObserved(t *testing.T) {
	tests := []struct {
		name    string
		obs     source.Event
		seq     int
		wantRow string // in the list's outcome column
		wantHdr string // in the cycle view header
		wantSel string // in the Select host cyclepage.Phase
		agreed  int
	}{
		{
			name: "bound where predicted", seq: 2,
			obs:     observe(2, "api").predicted("node-d").bound("node-d").event(),
			wantRow: "✓ node-d =", wantHdr: "= cluster bound it to node-d (agrees)", wantSel: "cluster bound it to node-d (agrees)", agreed: 1,
		},
		{
			name: "another node of the tie set", seq: 1,
			obs:     observe(1, "web").predicted("node-a", "node-a", "node-d").bound("node-d").event(),
			wantRow: "✓ node-a ≈ node-d", wantHdr: "≈ cluster bound it to node-d (predicted node-a; in the tie set → a tie-break, not a miss)",
			wantSel: "node-d in this cycle: total 452", agreed: 1,
		},
		{
			name: "another node", seq: 1,
			obs:     observe(1, "web").predicted("node-a").bound("node-b").event(),
			wantRow: "✓ node-a ≠ node-b", wantHdr: "≠ cluster bound it to node-b (predicted node-a: disagrees)",
			wantSel: "node-b in this cycle: total 418, lost by 45: NodeResourcesFit −46",
		},
		{
			name: "bound to the node preemption nominated", seq: 4,
			obs:     observe(4, "huge").nominated("node-c").bound("node-c").event(),
			wantRow: "✗ Unschedulable =", wantHdr: "= cluster bound it to node-c (nominated node-c by preemption: agrees via preemption)",
			wantSel: "node-c in this cycle: rejected by TaintToleration", agreed: 1,
		},
		{
			name: "bound elsewhere than preemption nominated", seq: 4,
			obs:     observe(4, "huge").nominated("node-a").bound("node-c").event(),
			wantRow: "≠ node-c", wantHdr: "≠ cluster bound it to node-c (predicted no node: disagrees)",
			wantSel: "node-c in this cycle: rejected by TaintToleration",
		},
		{
			name: "bound although no node fit here", seq: 4,
			obs:     observe(4, "huge").bound("node-c").event(),
			wantRow: "≠ node-c", wantHdr: "≠ cluster bound it to node-c (predicted no node: disagrees)",
			wantSel: "node-c in this cycle: rejected by TaintToleration",
		},
	}
	for _, tt := range tests {
		for _, order := range []string{"before its cycle", "after its cycle"} {
			t.Run(tt.name+"/"+order, func(t *testing.T) {
				var m Model
				if order == "before its cycle" {
					m = liveSession(t, 200, 50, append([]source.Event{tt.obs}, cycleEvents(t)...)...)
				} else {
					m = liveSession(t, 200, 50, cycleEvents(t)...)
					m = keys(m, ":", fmt.Sprintf("text:cycle %d", tt.seq), "enter")
					m = send(m, eventsMsg{events: []source.Event{tt.obs}})
				}
				if row := listRow(t, m, tt.seq); !strings.Contains(row, tt.wantRow) {
					t.Errorf("list row lacks %q: %q", tt.wantRow, row)
				}
				status := fmt.Sprintf("1 predictions checked: = %d agreed ≠ %d disagreed", tt.agreed, 1-tt.agreed)
				if !strings.Contains(screen(m), status) {
					t.Errorf("status bar lacks %q:\n%s", status, screen(m))
				}
				m = keys(m, ":", fmt.Sprintf("text:cycle %d", tt.seq), "enter", ":", "text:phase select", "enter")
				// The header takes a second line when the verdict does not fit beside it.
				lines := strings.Split(screen(m), "\n")
				if hdr := strings.Join(lines[1:3], "\n"); !strings.Contains(hdr, tt.wantHdr) {
					t.Errorf("cycle header lacks %q: %q", tt.wantHdr, hdr)
				}
				if !strings.Contains(screen(m), tt.wantSel) {
					t.Errorf("Select host lacks %q:\n%s", tt.wantSel, screen(m))
				}
				// Other cycles show no verdict.
				m = keys(m, "esc")
				if row := listRow(t, m, 3); strings.ContainsAny(row, "=≈≠") {
					t.Errorf("cycle 3 was not observed, its row shows a verdict: %q", row)
				}
			})
		}
	}
}

func TestObservedWithoutCycle(t *testing.T) {
	m := liveSession(t, 200, 50, append(cycleEvents(t), observe(0, "someone-elses").bound("node-b").event())...)
	if !strings.Contains(screen(m), "0 predictions checked: = 0 agreed ≠ 0 disagreed · 1 bound without a cycle") {
		t.Errorf("status bar should count the binding:\n%s", screen(m))
	}
	for seq := 1; seq <= 4; seq++ {
		if row := listRow(t, m, seq); strings.ContainsAny(row, "=≈≠") {
			t.Errorf("cycle %d shows a verdict: %q", seq, row)
		}
	}
	if m = keys(m, "g", "enter"); m.focus != focusCycle || m.view.Cycle() == nil || m.view.Cycle().Seq != 1 {
		t.Fatalf("g enter did not open cycle 1:\n%s", screen(m))
	}
	if strings.Contains(screen(m), "cluster bound") {
		t.Errorf("the cycle view should not mention the binding:\n%s", screen(m))
	}
}

func TestNoObservedNoCounts(t *testing.T) {
	m := liveSession(t, 200, 50, cycleEvents(t)...)
	if !strings.Contains(screen(m), "4 cycles") {
		t.Fatalf("the status bar lacks the cycle counts:\n%s", screen(m))
	}
	if strings.Contains(screen(m), "predictions") {
		t.Errorf("status bar counts predictions without any observation:\n%s", screen(m))
	}
}

func TestObservedReplaced(t *testing.T) {
	m := liveSession(t, 200, 50, append(cycleEvents(t),
		observe(1, "web").predicted("node-a").bound("node-b").event(),
		observe(1, "web").predicted("node-a").bound("node-a").event())...)
	if !strings.Contains(screen(m), "1 predictions checked: = 1 agreed ≠ 0 disagreed") {
		t.Errorf("the later binding should replace the earlier:\n%s", screen(m))
	}
}

func TestObservedFilter(t *testing.T) {
	obs := []source.Event{
		observe(1, "web").predicted("node-a").bound("node-b").event(),
		observe(2, "api").predicted("node-d").bound("node-d").event(),
		observe(4, "huge").bound("node-c").event(),
	}
	tests := []struct {
		filter string
		want   []string // pods shown
	}{
		{"disagree", []string{"web", "huge"}},
		{"outcome:disagree", []string{"web", "huge"}},
		{"agrees", []string{"api"}},
		{"disagree node:node-c", []string{"huge"}},
	}
	for _, tt := range tests {
		for _, order := range []string{"filter first", "bindings first"} {
			t.Run(tt.filter+"/"+order, func(t *testing.T) {
				var m Model
				if order == "filter first" {
					m = keys(liveSession(t, 80, 24, cycleEvents(t)...), "/", "text:"+tt.filter, "enter")
					m = send(m, eventsMsg{events: obs})
				} else {
					m = liveSession(t, 80, 24, append(cycleEvents(t), obs...)...)
					m = keys(m, "/", "text:"+tt.filter, "enter")
				}
				var got []string
				for _, i := range m.list.Rows() {
					got = append(got, m.cycles[i].Pod.Name)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("rows (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestObservedGolden renders the list and the cycle view of a live session
// whose cluster confirmed one prediction and contradicted two.
func TestObservedGolden(t *testing.T) {
	evs := append(cycleEvents(t),
		observe(1, "web").predicted("node-a").bound("node-b").event(),
		observe(2, "api").predicted("node-d").bound("node-d").event(),
		observe(4, "huge").bound("node-c").event(),
		observe(0, "other").bound("node-a").event(),
		source.Event{State: &source.EngineState{State: source.StateIdle, Active: 0, Backoff: 1}},
	)
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		m := liveSession(t, size[0], size[1], evs...)
		name := fmt.Sprintf("observed-%dx%d", size[0], size[1])
		golden(t, name+"-list", screen(m))
		m = toPhase(t, keys(m, "g", "enter"), cyclepage.Queue)
		golden(t, name+"-c1-queue", screen(m))
		golden(t, name+"-c1-select", screen(keys(m, ":", "text:phase select", "enter")))
		m = keys(m, "esc", ":", "text:cycle 4", "enter", ":", "text:phase select", "enter")
		golden(t, name+"-c4-select", screen(m))
	}
}

// TestEveryScreenFits walks every phase of every cycle of a live session with
// bindings, with the explain panel on and off, at widths around the layout
// thresholds: every line must be exactly the window's width.
func TestEveryScreenFits(t *testing.T) {
	evs := append(cycleEvents(t),
		observe(1, "web").predicted("node-a", "node-a", "node-d").bound("node-d").event(),
		observe(2, "api").predicted("node-d").bound("node-b").event(),
		observe(4, "huge").bound("node-c").event())
	check := func(m Model, w, h int, where string) {
		t.Helper()
		lines := strings.Split(screen(m), "\n")
		if len(lines) != h {
			t.Errorf("%dx%d %s: %d lines", w, h, where, len(lines))
		}
		for i, l := range lines {
			if n := ansi.StringWidth(l); n != w {
				t.Errorf("%dx%d %s: line %d is %d wide: %q", w, h, where, i, n, l)
				return
			}
		}
	}
	for _, size := range [][2]int{{80, 24}, {119, 30}, {150, 40}, {160, 40}, {200, 50}, {260, 60}} {
		w, h := size[0], size[1]
		m := liveSession(t, w, h, evs...)
		check(m, w, h, "list")
		for seq := 1; seq <= 4; seq++ {
			m = keys(m, ":", fmt.Sprintf("text:cycle %d", seq), "enter", ":", "text:phase queue", "enter")
			for p := range cyclepage.NumPhases {
				check(m, w, h, fmt.Sprintf("cycle %d %v", seq, p))
				check(keys(m, "e"), w, h, fmt.Sprintf("cycle %d %v explain toggled", seq, p))
				m = keys(m, "l")
			}
			m = keys(m, "esc")
		}
	}
}
