package livebinding

import (
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/theme"
)

func TestVerdictAndMark(t *testing.T) {
	tests := []struct {
		name    string
		o       recorder.Observed
		verdict Verdict
		mark    string
	}{
		{"same node", recorder.Observed{Seq: 1, Node: "a", Predicted: "a"}, Same, "="},
		{"no node on both sides", recorder.Observed{Seq: 1}, Same, "="},
		{"another node of the tie", recorder.Observed{Seq: 1, Node: "b", Predicted: "a", TieSet: []string{"a", "b"}}, TieBreak, "≈ b"},
		{"the nominated node", recorder.Observed{Seq: 1, Node: "n", Nominated: "n"}, Preemption, "="},
		{"elsewhere", recorder.Observed{Seq: 1, Node: "c", Predicted: "a"}, Miss, "≠ c"},
		{"no node, predicted one", recorder.Observed{Seq: 1, Predicted: "a"}, Miss, "≠ no node"},
	}
	st := theme.New(true)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := VerdictOf(&tc.o); got != tc.verdict {
				t.Errorf("VerdictOf = %d, want %d", got, tc.verdict)
			}
			if got := ansi.Strip(Mark(&st, &tc.o)); got != tc.mark {
				t.Errorf("Mark = %q, want %q", got, tc.mark)
			}
		})
	}
}

func TestText(t *testing.T) {
	st := theme.New(true)
	o := recorder.Observed{Seq: 1, Node: "b", Predicted: "a", TieSet: []string{"a", "b"}}
	if got, want := ansi.Strip(Text(&st, &o)), "≈ cluster bound it to b (predicted a; in the tie set → a tie-break, not a miss)"; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
	if Lines(&st, nil, nil, nil, 80) != nil {
		t.Error("no binding, no lines")
	}
}
