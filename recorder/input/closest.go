package input

import (
	"slices"
	"strings"

	"github.com/agnivade/levenshtein"
)

// Closest returns the candidates a mistyped name most likely meant, for a
// "did you mean" in an error: those within a few edits of it (a third of
// its length, at least two), nearest first, at most three. A candidate
// "namespace/name" also matches by its name alone.
func Closest(name string, candidates []string) []string {
	limit := max(2, len([]rune(name))/3)
	type near struct {
		s string
		d int
	}
	var found []near
	for _, c := range candidates {
		d := levenshtein.ComputeDistance(name, c)
		if _, short, ok := strings.Cut(c, "/"); ok && !strings.Contains(name, "/") {
			d = min(d, levenshtein.ComputeDistance(name, short))
		}
		if d <= limit && c != name {
			found = append(found, near{c, d})
		}
	}
	slices.SortStableFunc(found, func(a, b near) int { return a.d - b.d })
	var out []string
	for _, f := range found[:min(len(found), 3)] {
		out = append(out, f.s)
	}
	return out
}

// DidYouMean words Closest's answer: " (did you mean a or b?)", or "".
func DidYouMean(name string, candidates []string) string {
	c := Closest(name, candidates)
	if len(c) == 0 {
		return ""
	}
	return " (did you mean " + strings.Join(c, " or ") + "?)"
}
