package table

import (
	"cmp"
	"slices"

	"github.com/schedscope/schedscope/recorder"
)

// ScoreOrder is the scored nodes' rows (indices into s.Nodes), highest
// total first, ties in the order they were scored: the order of every
// score table. A row lacking a node or a total is left out.
func ScoreOrder(s *recorder.ScorePhase) []int {
	order := make([]int, min(len(s.Nodes), len(s.Totals)))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(s.Totals[y], s.Totals[x]) })
	return order
}
