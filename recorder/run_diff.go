package recorder

import (
	"cmp"
	"slices"
	"strings"
)

// RunDiff compares two runs (two recordings, one fixture under two
// configurations, or two cycles of one recording) pod by pod: the outcome
// of each pod's last cycle in A and in B, and the cycle diff of each pod
// that changed. It is diff's JSON output.
type RunDiff struct {
	A        string    `json:"a"`
	B        string    `json:"b"`
	Changed  int       `json:"changed"`
	Note     string    `json:"note,omitempty"`
	Pods     []PodDiff `json:"pods"`
	Problems []string  `json:"problems,omitempty"`
}

// PodDiff is one pod in both runs.
type PodDiff struct {
	Pod     string     `json:"pod"`
	A       *DiffSide  `json:"a"`
	B       *DiffSide  `json:"b"`
	Changed bool       `json:"changed"`
	Diff    *CycleDiff `json:"diff,omitempty"`
}

// DiffSide is one pod's outcome on one side.
type DiffSide struct {
	Node    string `json:"node"`
	Outcome string `json:"outcome"`
	Message string `json:"message"`
	Seq     int    `json:"seq"`
}

// SideOf is how the cycle c ended, as one side of a PodDiff.
func SideOf(c *Cycle) *DiffSide {
	return &DiffSide{Node: c.Outcome.Node, Outcome: c.Outcome.Result, Message: c.Outcome.Message, Seq: c.Seq}
}

// DiffPods compares each pair: a pod changed when it is on one side only,
// or when its node, result or message differ (then Diff says how).
func DiffPods(pairs []PodPair) (pods []PodDiff, changed int) {
	pods = []PodDiff{}
	for _, pr := range pairs {
		ca, cb := pr.A, pr.B
		p := PodDiff{Pod: pr.Name()}
		if ca != nil {
			p.A = SideOf(ca)
		}
		if cb != nil {
			p.B = SideOf(cb)
		}
		switch {
		case ca == nil || cb == nil:
			p.Changed = true
		default:
			p.Changed = p.A.Node != p.B.Node || p.A.Outcome != p.B.Outcome || p.A.Message != p.B.Message
			if p.Changed {
				p.Diff = DiffCycles(ca, cb)
			}
		}
		if p.Changed {
			changed++
		}
		pods = append(pods, p)
	}
	return pods, changed
}

// LastCycles keeps each pod's last cycle of a run, and the order pods
// first appeared in.
type LastCycles struct {
	order []string
	last  map[string]*Cycle
}

// NewLastCycles is an empty LastCycles.
func NewLastCycles() *LastCycles { return &LastCycles{last: map[string]*Cycle{}} }

// Add keeps c if it is its pod's last cycle so far.
func (l *LastCycles) Add(c *Cycle) {
	k := c.Pod.Key()
	prev, ok := l.last[k]
	if !ok {
		l.order = append(l.order, k)
	}
	if !ok || c.Seq >= prev.Seq {
		l.last[k] = c
	}
}

// Len is the number of pods kept.
func (l *LastCycles) Len() int { return len(l.order) }

// PodPair is one pod's last cycle in A and in B (either may be nil).
type PodPair struct{ A, B *Cycle }

// Name is the pod's key, or both keys when the pair joins two replicas.
func (p PodPair) Name() string {
	switch {
	case p.A == nil:
		return p.B.Pod.Key()
	case p.B == nil || p.A.Pod.Key() == p.B.Pod.Key():
		return p.A.Pod.Key()
	}
	return p.A.Pod.Key() + " / " + p.B.Pod.Key()
}

// Named says whether pod (a name or namespace/name) is on either side.
func (p PodPair) Named(pod string) bool {
	for _, c := range []*Cycle{p.A, p.B} {
		if c != nil && (c.Pod.Key() == pod || c.Pod.Name == pod) {
			return true
		}
	}
	return false
}

// PairPods pairs each pod of A with its pod in B. A pod is itself in both,
// but the replicas a controller names (web-565c44d98d-x4vdk) are named
// anew in each run: the replicas of one controller and template are
// paired by their outcomes, in order, so that replicas that went to the
// same nodes are the same, and a replica that went elsewhere is paired
// with the one that took its place.
func PairPods(a, b *LastCycles) []PodPair {
	type group struct{ a, b []*Cycle }
	groups := map[string]*group{}
	var order []string
	add := func(l *LastCycles, inA bool) {
		for _, k := range l.order {
			c := l.last[k]
			g := replicaGroup(c)
			if groups[g] == nil {
				groups[g] = &group{}
				order = append(order, g)
			}
			if inA {
				groups[g].a = append(groups[g].a, c)
			} else {
				groups[g].b = append(groups[g].b, c)
			}
		}
	}
	add(a, true)
	add(b, false)
	byOutcome := func(x, y *Cycle) int {
		return cmp.Or(cmp.Compare(x.Outcome.Node, y.Outcome.Node), cmp.Compare(x.Outcome.Result, y.Outcome.Result),
			cmp.Compare(x.Outcome.Message, y.Outcome.Message), cmp.Compare(x.Pod.Key(), y.Pod.Key()))
	}
	var pairs []PodPair
	for _, k := range order {
		g := groups[k]
		if len(g.a) > 1 || len(g.b) > 1 {
			slices.SortStableFunc(g.a, byOutcome)
			slices.SortStableFunc(g.b, byOutcome)
		}
		for i := range max(len(g.a), len(g.b)) {
			var p PodPair
			if i < len(g.a) {
				p.A = g.a[i]
			}
			if i < len(g.b) {
				p.B = g.b[i]
			}
			pairs = append(pairs, p)
		}
	}
	return pairs
}

// replicaGroup is the pod's key, or, for a pod its controller named with a
// random suffix, its controller's and its name's stem.
func replicaGroup(c *Cycle) string {
	name := c.Pod.Name
	if c.Pod.Owner == nil || len(name) < 7 || name[len(name)-6] != '-' {
		return c.Pod.Key()
	}
	for _, r := range name[len(name)-5:] {
		if !strings.ContainsRune(GeneratedSuffix, r) {
			return c.Pod.Key()
		}
	}
	return c.Pod.Namespace + "/" + name[:len(name)-5] + "* of " + c.Pod.Owner.String()
}

// GeneratedSuffix holds the letters the API server draws a generateName's
// suffix from (k8s.io/apimachinery/pkg/util/rand).
const GeneratedSuffix = "bcdfghjklmnpqrstvwxz2456789"
