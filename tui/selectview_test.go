package tui

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
)

// openAlone opens c, the only cycle of a replay, at w×h.
func openAlone(t *testing.T, c *recorder.Cycle, w, h int) Model {
	t.Helper()
	m := New(Options{Source: "replay test.rec"})
	m = send(m, tea.WindowSizeMsg{Width: w, Height: h})
	m = send(m, eventsMsg{events: []source.Event{{Header: &recorder.Header{}}, {Cycle: c}}})
	return keys(m, "enter")
}

// selectRows returns the Select view's rows of the named nodes, by name.
func selectRows(t *testing.T, m Model, names ...string) map[string]string {
	t.Helper()
	rows := map[string]string{}
	for _, line := range strings.Split(screen(m), "\n") {
		for _, l := range strings.Split(line, "│") { // the panes side by side
			f := strings.Fields(l)
			for _, n := range names {
				if len(f) > 0 && f[0] == n {
					if _, dup := rows[n]; dup {
						t.Errorf("node %s listed twice:\n%s", n, screen(m))
					}
					rows[n] = l
				}
			}
		}
	}
	if len(rows) != len(names) {
		t.Fatalf("Select view lists %d of the nodes %v:\n%s", len(rows), names, screen(m))
	}
	return rows
}

// TestUnknownNodeNames: a cycle whose node set is missing still reads
// correctly: nodes by index, the winner found by the recorded indices and
// not listed as a loser, the losers measured against it.
func TestUnknownNodeNames(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		w, h := size[0], size[1]
		b := makeCycle(1, "web").nodes("node-a", "node-b", "node-c", "node-d").
			score("NodeResourcesFit", 1, 40, 60, 90, 10).score("ImageLocality", 2, 5, 5, 20, 0)
		c := b.withoutNodeSet().obj()
		m := openAlone(t, c, w, h)
		if m.view.Phase() != cyclepage.Select {
			t.Fatalf("opened on %v, want Select host", m.view.Phase())
		}
		s := screen(m)
		if !strings.Contains(s, "chosen: ★ node-c") {
			t.Errorf("%dx%d: the chosen node's recorded name is lost:\n%s", w, h, s)
		}
		if regexp.MustCompile(`(?m)^\s+\?\s`).MatchString(s) {
			t.Errorf("%dx%d: a node is named ?:\n%s", w, h, s)
		}
		rows := selectRows(t, m, "#0", "#1", "#2", "#3")
		if !strings.Contains(rows["#2"], "highest total") {
			t.Errorf("%dx%d: the winner #2 should be the highest total: %q", w, h, rows["#2"])
		}
		for _, n := range []string{"#0", "#1", "#3"} {
			if !strings.Contains(rows[n], "lost by") || strings.Contains(rows[n], "highest total") {
				t.Errorf("%dx%d: %s should have lost to #2: %q", w, h, n, rows[n])
			}
		}
		// The node tables have a row per node, by index.
		m = toPhase(t, m, cyclepage.Filter)
		if n := len(m.view.Nodes().Rows()); n != 4 {
			t.Errorf("%dx%d: the filter table has %d rows, want 4:\n%s", w, h, n, screen(m))
		}
		if s := screen(m); !strings.Contains(s, "4/? nodes passed") || !strings.Contains(s, "#3") {
			t.Errorf("%dx%d: filter view:\n%s", w, h, s)
		}
		m = keys(m, "enter")
		if !detailOpen(m) || !strings.Contains(screen(m), "of ? in the snapshot") {
			t.Errorf("%dx%d: node detail:\n%s", w, h, screen(m))
		}
		if s := screen(toPhase(t, keys(m, "esc"), cyclepage.Queue)); !strings.Contains(s, "node names unknown") {
			t.Errorf("%dx%d: the queue view should say the names are unknown:\n%s", w, h, s)
		}
	}
}

// TestUnknownNodeNamesTie: without names, which of the tied nodes won is
// unknown: neither is called the winner or a loser.
func TestUnknownNodeNamesTie(t *testing.T) {
	c := makeCycle(1, "web").nodes("node-a", "node-b", "node-c").
		score("NodeResourcesFit", 1, 50, 50, 10).withoutNodeSet().obj()
	if c.Selection.Rule != recorder.RuleTie {
		t.Fatalf("rule %s, want a tie", c.Selection.Rule)
	}
	m := openAlone(t, c, 200, 50)
	rows := selectRows(t, m, "#0", "#1", "#2")
	for _, n := range []string{"#0", "#1"} {
		if !strings.Contains(rows[n], "tied for the highest total") {
			t.Errorf("%s: %q", n, rows[n])
		}
	}
	if !strings.Contains(rows["#2"], "lost by 40 to the highest total") {
		t.Errorf("#2: %q", rows["#2"])
	}
}

// TestUnknownNodeNamesEveryPhase walks every phase of cycles without node
// names (a fast path, a PreFilter node subset, nothing feasible): nothing
// panics and every screen fits.
func TestUnknownNodeNamesEveryPhase(t *testing.T) {
	fast := makeCycle(1, "web").nodes("node-a", "node-b").score("S", 1, 1, 2).obj()
	fast.Filter, fast.Score = nil, nil
	fast.FastPath = &recorder.FastPath{Kind: recorder.FastPathNominated, Node: "node-b", Feasible: true}
	fast.Selection = &recorder.Selection{Node: "node-b", Rule: recorder.RuleFastPath}
	subset := makeCycle(2, "web").nodes("node-a", "node-b").score("S", 1, 1, 2).obj()
	subset.PreFilter.NodeSubset, subset.PreFilter.SubsetPlugins = []string{"node-b"}, []string{"NodeAffinity"}
	none := makeCycle(3, "web").nodes("node-a").reject(0, "Insufficient cpu").obj()
	for _, c := range []*recorder.Cycle{fast, subset, none} {
		c.Nodes = nil
		for _, size := range [][2]int{{80, 24}, {200, 50}} {
			m := openAlone(t, c, size[0], size[1])
			m = toPhase(t, m, cyclepage.Queue)
			for p := range cyclepage.NumPhases {
				m = toPhase(t, m, p)
				checkScreen(t, m, size[0], size[1])
				checkScreen(t, keys(m, "enter"), size[0], size[1])
			}
		}
	}
}
