// Package podnames keeps the part of a pod's name that tells it from the
// other pods shown: replicas share all but a suffix, and a name cut at its
// end makes them look the same. The cycle list, the Pods view and the
// cycle's header fit names with it, eliding the middle.
package podnames

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
)

// Set is the distinct pods listed, so that a row can show the part of its
// pod's name that tells it apart from the others.
type Set struct {
	keys       []string       // namespace/name, sorted, each once
	namespaces map[string]int // how many of keys are in each namespace
}

// Add notes pod p.
func (n *Set) Add(p recorder.PodRef) {
	k := p.Key()
	i, found := slices.BinarySearch(n.keys, k)
	if found {
		return
	}
	n.keys = slices.Insert(n.keys, i, k)
	if n.namespaces == nil {
		n.namespaces = map[string]int{}
	}
	n.namespaces[p.Namespace]++
}

// OneNamespace is the namespace of every pod listed, or "" when they are
// in several (or none are listed).
func (n *Set) OneNamespace() string {
	if len(n.namespaces) != 1 {
		return ""
	}
	for ns := range n.namespaces {
		return ns
	}
	return ""
}

// Shared is how many leading bytes of pod p's key it shares with the pod
// most like it (its neighbours in sorted order): what follows is what
// tells it apart.
func (n *Set) Shared(p recorder.PodRef) int {
	k := p.Key()
	i, found := slices.BinarySearch(n.keys, k)
	if !found {
		return 0
	}
	best := 0
	if i > 0 {
		best = commonPrefix(k, n.keys[i-1])
	}
	if i+1 < len(n.keys) {
		best = max(best, commonPrefix(k, n.keys[i+1]))
	}
	return best
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// Fit fits s, whose first shared bytes it shares with another
// pod's name, into w cells, keeping what differs: the shared part gives
// up its middle ("checkout-96…-g6jq8"), never the end. When even the part
// that differs does not fit, the name keeps its start of that part after
// an ellipsis; with nothing shared it is cut at its end, as any cell.
func Fit(s string, shared, w int) string {
	if w <= 0 || ansi.StringWidth(s) <= w {
		return s
	}
	shared = min(max(shared, 0), len(s))
	for shared > 0 && shared < len(s) && !utf8.RuneStart(s[shared]) {
		shared--
	}
	if shared == 0 {
		return ansi.Truncate(s, w, "…")
	}
	// Cut at a separator when there is room, so that the part kept after
	// the ellipsis reads as a word: "…-g6jq8" rather than "…g6jq8".
	cuts := []int{shared}
	if j := strings.LastIndexAny(s[:shared], "-./"); j > 0 && shared-j <= 8 {
		cuts = []int{j, shared}
	}
	for _, cut := range cuts {
		tail := s[cut:]
		if head := w - 1 - ansi.StringWidth(tail); head >= 3 {
			return ansi.Truncate(s[:cut], head, "") + "…" + tail
		}
	}
	tail := s[shared:]
	if ansi.StringWidth(tail)+1 <= w {
		// Too little room for a useful start: keep as much of the end as fits.
		return "…" + ansi.TruncateLeft(s, ansi.StringWidth(s)-(w-1), "")
	}
	return "…" + ansi.Truncate(tail, w-1, "…")
}

// FitAlone fits pod name s into w cells when no other pod is known to
// compare it with: its last part after a "-" is taken as what tells it
// apart (a replica's suffix), and the middle gives way first.
func FitAlone(s string, w int) string {
	return Fit(s, max(strings.LastIndex(s, "-"), 0), w)
}
