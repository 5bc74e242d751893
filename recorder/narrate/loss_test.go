package narrate

import (
	"github.com/schedscope/schedscope/recorder"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// lossSum adds up the signed parts of a LossReason line.
func lossSum(t *testing.T, reason string) int64 {
	t.Helper()
	var sum int64
	for _, part := range strings.Split(reason, ", ") {
		f := strings.Fields(part)
		if len(f) < 2 {
			t.Fatalf("part %q of %q has no signed number", part, reason)
		}
		num := f[len(f)-1]
		var sign int64
		switch {
		case strings.HasPrefix(num, "+"):
			sign, num = 1, num[1:]
		case strings.HasPrefix(num, "−"):
			sign, num = -1, strings.TrimPrefix(num, "−")
		default:
			t.Fatalf("part %q of %q is not signed", part, reason)
		}
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			t.Fatalf("part %q of %q: %v", part, reason, err)
		}
		sum += sign * n
	}
	return sum
}

// scorePhase builds a score phase over two nodes (winner 0, loser 1) from
// per-plugin weighted scores; totals are their sums.
func scorePhase(plugins map[string][2]int64, order ...string) *recorder.ScorePhase {
	s := &recorder.ScorePhase{Nodes: recorder.Ints[int]{0, 1}, Totals: recorder.Ints[int64]{0, 0}}
	for _, name := range order {
		sc := plugins[name]
		s.Plugins = append(s.Plugins, recorder.ScorePlugin{Name: name, Weight: 1, Raw: recorder.Ints[int64]{sc[0], sc[1]}})
		s.Totals[0] += sc[0]
		s.Totals[1] += sc[1]
	}
	return s
}

func TestLoss(t *testing.T) {
	tests := []struct {
		name string
		s    *recorder.ScorePhase
		want string
	}{
		{
			name: "a plugin where the loser was ahead is shown with its plus",
			s:    scorePhase(map[string][2]int64{"NodeAffinity": {200, 0}, "ImageLocality": {0, 42}}, "ImageLocality", "NodeAffinity"),
			want: "NodeAffinity −200, ImageLocality +42",
		},
		{
			name: "equal plugins are left out",
			s:    scorePhase(map[string][2]int64{"A": {10, 10}, "B": {50, 5}}, "A", "B"),
			want: "B −45",
		},
		{
			name: "four parts are all shown",
			s:    scorePhase(map[string][2]int64{"A": {40, 0}, "B": {0, 30}, "C": {20, 0}, "D": {0, 10}}, "A", "B", "C", "D"),
			want: "A −40, B +30, C −20, D +10",
		},
		{
			name: "more than four are summed after three",
			s:    scorePhase(map[string][2]int64{"A": {40, 0}, "B": {0, 30}, "C": {20, 0}, "D": {0, 10}, "E": {5, 0}}, "A", "B", "C", "D", "E"),
			want: "A −40, B +30, C −20, … 2 more +5",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Loss(tt.s, 0, 1)
			if got != tt.want {
				t.Errorf("Loss = %q, want %q", got, tt.want)
			}
			if gap := tt.s.Totals[0] - tt.s.Totals[1]; lossSum(t, got) != -gap {
				t.Errorf("%q adds up to %d, the gap is %d", got, lossSum(t, got), gap)
			}
		})
	}
}

func TestLossReasonShowsTotalsTheFrameworkGave(t *testing.T) {
	s := scorePhase(map[string][2]int64{"A": {10, 0}}, "A")
	s.Totals[1] -= 3 // something outside the plugins' weighted sum
	got := Loss(s, 0, 1)
	if want := "A −10, other −3"; got != want {
		t.Errorf("Loss = %q, want %q", got, want)
	}
}

// TestLossReasonAddsUpOnRecordings checks every loser of every recorded host
// selection in the TUI's test recordings.
func TestLossReasonAddsUpOnRecordings(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "tui", "testdata", "*.rec"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no recordings under ../../tui/testdata")
	}
	checked := 0
	for _, f := range files {
		rec, err := recorder.LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range rec.Cycles {
			if c.Score == nil || c.Selection == nil || len(c.Score.Nodes) < 2 {
				continue
			}
			w := -1
			for i, n := range c.Score.Nodes {
				if c.NodeName(n) == c.Selection.Node {
					w = i
				}
			}
			if w < 0 {
				t.Fatalf("%s cycle %d: the chosen node %s was not scored", f, c.Seq, c.Selection.Node)
			}
			for l := range c.Score.Nodes {
				gap := c.Score.Totals[w] - c.Score.Totals[l]
				if gap <= 0 {
					continue
				}
				reason := Loss(c.Score, w, l)
				if got := lossSum(t, reason); got != -gap {
					t.Errorf("%s cycle %d node %s: %q adds up to %d, lost by %d", filepath.Base(f), c.Seq, c.NodeName(c.Score.Nodes[l]), reason, got, gap)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no recorded loser to check")
	}
	t.Logf("%d losers checked", checked)
}
