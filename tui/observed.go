package tui

import (
	"github.com/schedscope/schedscope/recorder"
)

// observations holds what a live cluster's own scheduler did with the pods
// schedscope ran cycles for, by cycle Seq. An observation may arrive before its
// cycle; it is kept until the cycle comes.
type observations struct {
	bySeq  map[int]*recorder.Observed
	agreed int
	// untracked counts bindings of pods schedscope ran no cycle for (Seq 0).
	untracked int
}

// add records o; a later observation for the same Seq replaces the earlier one.
func (obs *observations) add(o *recorder.Observed) {
	if o.Seq == 0 {
		obs.untracked++
		return
	}
	if obs.bySeq == nil {
		obs.bySeq = map[int]*recorder.Observed{}
	}
	if old := obs.bySeq[o.Seq]; old != nil && old.Agrees() {
		obs.agreed--
	}
	obs.bySeq[o.Seq] = o
	if o.Agrees() {
		obs.agreed++
	}
}

// of returns the observation for cycle seq, or nil.
func (obs *observations) of(seq int) *recorder.Observed { return obs.bySeq[seq] }

// any reports whether any observation arrived.
func (obs *observations) any() bool { return len(obs.bySeq) > 0 || obs.untracked > 0 }

// checked is how many predictions a binding confirmed or contradicted.
func (obs *observations) checked() int { return len(obs.bySeq) }
