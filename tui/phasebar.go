package tui

import (
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/components/nodephase"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// phase is one step of the cycle view's stepper.
type phase uint8

const (
	phQueue phase = iota
	phPreFilter
	phFilter
	phPostFilter
	phScore
	phNormalize
	phWeighted
	phSelect
	phReserve
	phPermit
	phPreBind
	phBind
	phPostBind
	numPhases
)

// String is the phase's name as the framework spells it where it has one.
func (p phase) String() string {
	return [...]string{"Queue", recorder.PhasePreFilter, recorder.PhaseFilter, recorder.PhasePostFilter,
		recorder.PhaseScore, recorder.PhaseNormalize, "Weighted sum", "Select host", recorder.PhaseReserve,
		recorder.PhasePermit, recorder.PhasePreBind, recorder.PhaseBind, recorder.PhasePostBind}[p]
}

// short is the phase's name in the narrow phase bar.
func (p phase) short() string {
	return [...]string{"Queue", "PreF", "Filter", "PostF", "Score", "Norm", "Sum", "Select", "Resv", "Permit", "PreB", "Bind", "PostB"}[p]
}

// nodeKind is the node phase view's kind of a node phase, ok false for the
// others.
func (p phase) nodeKind() (nodephase.Kind, bool) {
	switch p {
	case phFilter:
		return nodephase.Filter, true
	case phScore:
		return nodephase.Score, true
	case phNormalize:
		return nodephase.Normalize, true
	case phWeighted:
		return nodephase.Weighted, true
	}
	return 0, false
}

// bindPoint is the extension point of a phase of the binding cycle, ok
// false for the others.
func (p phase) bindPoint() (string, bool) {
	switch p {
	case phReserve:
		return recorder.PhaseReserve, true
	case phPermit:
		return recorder.PhasePermit, true
	case phPreBind:
		return recorder.PhasePreBind, true
	case phBind:
		return recorder.PhaseBind, true
	case phPostBind:
		return recorder.PhasePostBind, true
	}
	return "", false
}

// nodeRows tells whether the phase shows node rows (and so node detail on enter).
func (p phase) nodeRows() bool {
	return p == phFilter || p == phScore || p == phNormalize || p == phWeighted
}

// decisivePhase is the phase that decided the cycle's outcome: Select host for
// a bound pod; for a failed one the phase whose status failed it (PreFilter,
// Filter, PostFilter when preemption nominated a node, or a binding phase).
func decisivePhase(c *recorder.Cycle) phase {
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
			return phSelect
		}
		return phBind
	}
	if c.PreFilter != nil && c.PreFilter.Code != recorder.CodeSuccess && c.PreFilter.Code != recorder.CodeSkip {
		return phPreFilter
	}
	if c.Selection == nil {
		switch {
		case c.PostFilter != nil && c.PostFilter.NominatedNode != "":
			return phPostFilter
		case c.Filter != nil || c.FastPath != nil:
			return phFilter
		case c.PreFilter != nil:
			return phPreFilter
		}
		return phQueue
	}
	for _, b := range []struct {
		p  phase
		ps []recorder.PluginStatus
	}{{phReserve, c.Reserve}, {phPermit, c.Permit}, {phPreBind, c.PreBind}, {phBind, c.Bind}} {
		if failed(b.ps) {
			return b.p
		}
	}
	return phSelect
}

// phaseRan tells whether the cycle reached a phase, and if not, why.
func phaseRan(c *recorder.Cycle, p phase) (bool, string) {
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
	case phQueue:
		return true, ""
	case phPreFilter:
		if c.PreFilter == nil {
			return false, "PreFilter was not recorded for this cycle"
		}
		return true, ""
	case phFilter:
		if c.Filter == nil && c.FastPath == nil {
			if c.PreFilter != nil && c.PreFilter.Code != recorder.CodeSuccess {
				return false, "PreFilter rejected the pod, so no node was filtered"
			}
			return false, "no node was filtered"
		}
		return true, ""
	case phPostFilter:
		if c.PostFilter == nil {
			if c.Selection != nil {
				return false, "a node passed filtering, so preemption was not needed"
			}
			return false, "PostFilter did not run"
		}
		return true, ""
	case phScore, phNormalize, phWeighted:
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
	case phSelect:
		if c.Selection == nil {
			return false, "no node passed filtering, so no host could be selected"
		}
		return true, ""
	case phReserve:
		return bindingPhase(c.Reserve, recorder.PhaseReserve)
	case phPermit:
		return bindingPhase(c.Permit, recorder.PhasePermit)
	case phPreBind:
		return bindingPhase(c.PreBind, recorder.PhasePreBind)
	case phBind:
		return bindingPhase(c.Bind, recorder.PhaseBind)
	case phPostBind:
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
func renderPhaseBar(st *theme.Styles, c *recorder.Cycle, cur phase, w int) string {
	full := 0
	for p := range numPhases {
		full += len(p.String()) + 3
	}
	wide := full+2 <= w
	var b strings.Builder
	for p := range numPhases {
		name := p.short()
		sep := " "
		if wide {
			name, sep = p.String(), " › "
		}
		if p > 0 {
			b.WriteString(st.Dim.Render(sep))
		}
		ran, _ := phaseRan(c, p)
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
