package recorder

import "testing"

// Replicas a controller named anew in each run are paired by where they
// went: the same places are no change, one replica elsewhere is one change.
func TestDiffPairsReplicasByOutcome(t *testing.T) {
	rs := &Owner{Kind: "ReplicaSet", Name: "web-565c44d98d"}
	cycle := func(name, node string, owner *Owner) *Cycle {
		return &Cycle{Pod: PodRef{Namespace: "default", Name: name, Owner: owner},
			Outcome: Outcome{Result: ResultBound, Node: node}}
	}
	side := func(cs ...*Cycle) *LastCycles {
		l := NewLastCycles()
		for i, c := range cs {
			c.Seq = i + 1
			l.Add(c)
		}
		return l
	}
	a := side(cycle("web-565c44d98d-x4vdk", "n1", rs), cycle("web-565c44d98d-hsvn2", "n2", rs), cycle("db-0", "n3", &Owner{Kind: "StatefulSet", Name: "db"}), cycle("solo", "n1", nil))
	b := side(cycle("web-565c44d98d-7br89", "n2", rs), cycle("web-565c44d98d-zx66n", "n1", rs), cycle("db-0", "n3", &Owner{Kind: "StatefulSet", Name: "db"}), cycle("solo", "n1", nil))
	pairs := PairPods(a, b)
	if len(pairs) != 4 {
		t.Fatalf("%d pairs, want 4", len(pairs))
	}
	for _, p := range pairs {
		if p.A == nil || p.B == nil || p.A.Outcome.Node != p.B.Outcome.Node {
			t.Errorf("pair %s: %v → %v, want the same node", p.Name(), p.A, p.B)
		}
	}
	b.last["default/web-565c44d98d-7br89"].Outcome.Node = "n3"
	changed := 0
	for _, p := range PairPods(a, b) {
		if p.A.Outcome.Node != p.B.Outcome.Node {
			changed++
			if p.Name() != "default/web-565c44d98d-hsvn2 / default/web-565c44d98d-7br89" {
				t.Errorf("the changed pair is %s", p.Name())
			}
		}
	}
	if changed != 1 {
		t.Errorf("%d pairs changed, want the one replica that moved", changed)
	}
}
