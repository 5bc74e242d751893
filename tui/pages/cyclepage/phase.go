package cyclepage

import (
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/components/nodephase"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// Phase is one step of the cycle view's stepper.
type Phase uint8

const (
	Queue Phase = iota
	PreFilter
	Filter
	PostFilter
	Score
	Normalize
	Weighted
	Select
	Reserve
	Permit
	PreBind
	Bind
	PostBind
	NumPhases
)

// String is the phase's name as the framework spells it where it has one
// (narrate.Steps, whose order the phases follow).
func (p Phase) String() string {
	if steps := narrate.Steps(); int(p) < len(steps) {
		return steps[p].Name
	}
	return "?"
}

// Short is the phase's name in the narrow phase bar.
func (p Phase) Short() string {
	if steps := narrate.Steps(); int(p) < len(steps) {
		return steps[p].Short
	}
	return "?"
}

// nodeKind is the node phase view's kind of a node phase, ok false for the
// others.
func (p Phase) nodeKind() (nodephase.Kind, bool) {
	switch p {
	case Filter:
		return nodephase.Filter, true
	case Score:
		return nodephase.Score, true
	case Normalize:
		return nodephase.Normalize, true
	case Weighted:
		return nodephase.Weighted, true
	}
	return 0, false
}

// bindPoint is the extension point of a phase of the binding cycle, ok
// false for the others.
func (p Phase) bindPoint() (string, bool) {
	switch p {
	case Reserve:
		return recorder.PhaseReserve, true
	case Permit:
		return recorder.PhasePermit, true
	case PreBind:
		return recorder.PhasePreBind, true
	case Bind:
		return recorder.PhaseBind, true
	case PostBind:
		return recorder.PhasePostBind, true
	}
	return "", false
}

// nodeRows tells whether the phase shows node rows (and so node detail on enter).
func (p Phase) nodeRows() bool {
	return p == Filter || p == Score || p == Normalize || p == Weighted
}

// Decisive is the phase that decided the cycle's outcome: Select host for
// a bound pod; for a failed one the phase whose status failed it (PreFilter,
// Filter, PostFilter when preemption nominated a node, or a binding phase).
func Decisive(c *recorder.Cycle) Phase {
	failed := func(ps []recorder.PluginStatus) bool {
		for _, s := range ps {
			if s.Code != recorder.CodeSuccess && s.Code != recorder.CodeSkip {
				return true
			}
		}
		return false
	}
	if c.Outcome.Result == recorder.ResultBound {
		if c.Selection != nil {
			return Select
		}
		return Bind
	}
	if c.PreFilter != nil && c.PreFilter.Code != recorder.CodeSuccess && c.PreFilter.Code != recorder.CodeSkip {
		return PreFilter
	}
	if c.Selection == nil {
		switch {
		case c.PostFilter != nil && c.PostFilter.NominatedNode != "":
			return PostFilter
		case c.Filter != nil || c.FastPath != nil:
			return Filter
		case c.PreFilter != nil:
			return PreFilter
		}
		return Queue
	}
	for _, b := range []struct {
		p  Phase
		ps []recorder.PluginStatus
	}{{Reserve, c.Reserve}, {Permit, c.Permit}, {PreBind, c.PreBind}, {Bind, c.Bind}} {
		if failed(b.ps) {
			return b.p
		}
	}
	return Select
}

// Ran tells whether the cycle reached a phase, and if not, why.
func Ran(c *recorder.Cycle, p Phase) (bool, string) {
	scored := c.Score != nil && len(c.Score.Plugins) > 0 && len(c.Score.Nodes) > 0
	bindingPhase := func(ps []recorder.PluginStatus, name string) (bool, string) {
		if len(ps) > 0 || hasTiming(c, name) {
			return true, ""
		}
		if c.Selection == nil {
			return false, "no host was selected, so the binding cycle never started"
		}
		return false, "this phase did not run in this cycle"
	}
	switch p {
	case Queue:
		return true, ""
	case PreFilter:
		if c.PreFilter == nil {
			return false, "PreFilter was not recorded for this cycle"
		}
		return true, ""
	case Filter:
		if c.Filter == nil && c.FastPath == nil {
			if c.PreFilter != nil && c.PreFilter.Code != recorder.CodeSuccess {
				return false, "PreFilter rejected the pod, so no node was filtered"
			}
			return false, "no node was filtered"
		}
		return true, ""
	case PostFilter:
		if c.PostFilter == nil {
			if c.Selection != nil {
				return false, "a node passed filtering, so preemption was not needed"
			}
			return false, "PostFilter did not run"
		}
		return true, ""
	case Score, Normalize, Weighted:
		if scored {
			return true, ""
		}
		switch {
		case c.Selection != nil && c.Selection.Rule == recorder.RuleFastPath:
			return false, "the fast path chose the node, so nothing was scored"
		case c.Selection != nil && c.Selection.Rule == recorder.RuleOnlyFeasible:
			return false, "only one node passed filtering, so the scheduler skipped scoring"
		case c.Selection == nil:
			return false, "no node passed filtering, so there was nothing to score"
		}
		return false, "scoring did not run"
	case Select:
		if c.Selection == nil {
			return false, "no node passed filtering, so no host could be selected"
		}
		return true, ""
	case Reserve:
		return bindingPhase(c.Reserve, recorder.PhaseReserve)
	case Permit:
		return bindingPhase(c.Permit, recorder.PhasePermit)
	case PreBind:
		return bindingPhase(c.PreBind, recorder.PhasePreBind)
	case Bind:
		return bindingPhase(c.Bind, recorder.PhaseBind)
	case PostBind:
		return bindingPhase(c.PostBind, recorder.PhasePostBind)
	}
	return false, ""
}

func hasTiming(c *recorder.Cycle, name string) bool {
	for _, t := range c.Timings {
		if t.Phase == name {
			return true
		}
	}
	return false
}

// renderPhaseBar draws every phase on one line: the current one highlighted and
// bracketed, phases the cycle skipped dimmed.
func renderPhaseBar(st *theme.Styles, c *recorder.Cycle, cur Phase, w int) string {
	full := 0
	for p := range NumPhases {
		full += len(p.String()) + 3
	}
	wide := full+2 <= w
	var b strings.Builder
	for p := range NumPhases {
		name := p.Short()
		sep := " "
		if wide {
			name, sep = p.String(), " › "
		}
		if p > 0 {
			b.WriteString(st.Dim.Render(sep))
		}
		ran, _ := Ran(c, p)
		switch {
		case p == cur:
			b.WriteString(st.Cursor.Render("[" + name + "]"))
		case !ran:
			b.WriteString(st.Dim.Render(strings.ToLower(name)))
		default:
			b.WriteString(name)
		}
	}
	return layout.Fit(b.String(), w)
}
