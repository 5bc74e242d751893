package tui

import (
	"fmt"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/analysis"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
)

// bigCycle synthesises a cycle over n nodes with 13 filter and 8 score plugins:
// a third of the nodes rejected at various plugins, some discarded, some never
// evaluated, the rest scored.
func bigCycle(n int) *recorder.Cycle {
	filters := []string{"NodeName", "NodeUnschedulable", "TaintToleration", "NodeAffinity", "NodePorts", "NodeResourcesFit",
		"VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread", "InterPodAffinity", "DynamicResources"}
	scores := []string{"TaintToleration", "NodeAffinity", "NodeResourcesFit", "VolumeBinding", "PodTopologySpread",
		"InterPodAffinity", "NodeResourcesBalancedAllocation", "ImageLocality"}
	set := &recorder.NodeSet{ID: 1}
	for i := range n {
		set.Names = append(set.Names, fmt.Sprintf("node-%05d", i))
		set.Info = append(set.Info, recorder.NodeInfo{Allocatable: map[string]int64{"cpu": 8000, "memory": 32 << 30, "pods": 110}})
	}
	f := &recorder.FilterPhase{Plugins: filters, Skipped: []string{"NodePorts", "VolumeZone"}, Evaluated: n * 9 / 10}
	diag := &recorder.DiagnosticFilter{Plugins: filters}
	for i := range n * 9 / 10 {
		switch {
		case i%3 == 0:
			p := []int{2, 3, 5, 10}[i%4]
			code := recorder.CodeUnschedulable
			if p == 2 {
				code = recorder.CodeUnschedulableAndUnresolvable
			}
			f.Rejected = append(f.Rejected, recorder.NodeStatus{Node: i, Plugin: p, Code: code, Reasons: []string{"synthetic reason"}})
			diag.Cells = append(diag.Cells, recorder.DiagnosticCell{Node: i, Plugin: p, Code: code})
		case i%17 == 0:
			f.Discarded = append(f.Discarded, i)
		default:
			f.Feasible = append(f.Feasible, i)
		}
	}
	s := &recorder.ScorePhase{Nodes: slices.Clone(f.Feasible)}
	for p, name := range scores {
		pl := recorder.ScorePlugin{Name: name, Weight: int64(1 + p%3)}
		for k := range s.Nodes {
			pl.Raw = append(pl.Raw, int64((k*7+p*13)%101))
		}
		if p%2 == 0 {
			for k := range s.Nodes {
				pl.Normalized = append(pl.Normalized, 100-pl.Raw[k])
			}
		}
		s.Plugins = append(s.Plugins, pl)
	}
	best := 0
	for k := range s.Nodes {
		var t int64
		for p := range s.Plugins {
			t += s.Weighted(p, k)
		}
		s.Totals = append(s.Totals, t)
		if t > s.Totals[best] {
			best = k
		}
	}
	return &recorder.Cycle{
		Seq: 1, Pod: recorder.PodRef{Namespace: "default", Name: "big"}, Profile: "default-scheduler", Attempt: 1,
		Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Duration: 120 * time.Millisecond,
		NodeSetID: 1, Nodes: set, NodesToFind: n, Filter: f, Diagnostic: diag, Score: s,
		PreFilter: &recorder.PreFilterPhase{Code: recorder.CodeSuccess},
		Selection: &recorder.Selection{Node: set.Names[s.Nodes[best]], Top: []int{s.Nodes[best]}, Best: s.Totals[best], Rule: recorder.RuleHighestScore},
		Outcome:   recorder.Outcome{Result: recorder.ResultBound, Node: set.Names[s.Nodes[best]]},
	}
}

// BenchmarkView5000Nodes measures View() on the filter matrix, the score
// heatmap and the weighted-sum bars of a 5 000-node cycle, reporting p50 and
// p99 in milliseconds.
func BenchmarkView5000Nodes(b *testing.B) {
	c := bigCycle(5000)
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		for _, ph := range []cyclepage.Phase{cyclepage.Filter, cyclepage.Score, cyclepage.Normalize, cyclepage.Weighted} {
			b.Run(fmt.Sprintf("%s-%dx%d", ph.Short(), size[0], size[1]), func(b *testing.B) {
				m := New(Options{Source: "bench"})
				m = send(m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				m = send(m, eventsMsg{events: []source.Event{{Cycle: c}}})
				m = toPhase(b, keys(m, "enter"), ph)
				m = keys(m, "ctrl+d", "ctrl+d", "tab") // somewhere in the middle
				var samples []time.Duration
				for b.Loop() {
					start := time.Now()
					_ = m.View()
					samples = append(samples, time.Since(start))
				}
				slices.Sort(samples)
				pct := func(p float64) float64 {
					return float64(samples[int(p*float64(len(samples)-1))]) / float64(time.Millisecond)
				}
				b.ReportMetric(pct(0.50), "p50-ms")
				b.ReportMetric(pct(0.99), "p99-ms")
			})
		}
	}
}

// TestBigCycleRendersVisibleRowsOnly checks a 5 000-node cycle lays out like a
// small one, and that sorting and filtering nodes work on it.
func TestBigCycleRendersVisibleRowsOnly(t *testing.T) {
	m := New(Options{Source: "big"})
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = send(m, eventsMsg{events: []source.Event{{Cycle: bigCycle(5000)}}})
	m = keys(toPhase(t, keys(m, "enter"), cyclepage.Filter), "G")
	if lines := len(layout.SplitLines(screen(m))); lines != 24 {
		t.Fatalf("%d lines", lines)
	}
	m = keys(m, "o") // by score
	first := m.view.Nodes().Rows()[0]
	if first != analysis.Of(m.view.Cycle()).Winner {
		t.Errorf("sorted by score, first row is %s, want the winner", m.view.Cycle().NodeName(first))
	}
	m = keys(m, "/", "text:node-0499", "enter")
	if got := len(m.view.Nodes().Rows()); got != 10 {
		t.Errorf("name filter node-0499: %d rows, want 10", got)
	}
	m = keys(m, "esc", "f", "f") // rejected only
	if len(m.view.Nodes().Rows()) == 0 {
		t.Fatal("show rejected listed no node")
	}
	for _, n := range m.view.Nodes().Rows() {
		if analysis.Of(m.view.Cycle()).Nodes[n].State != analysis.Rejected {
			t.Fatalf("show rejected listed %s", m.view.Cycle().NodeName(n))
		}
	}
}
