package narrate

import (
	"slices"
	"strings"

	"github.com/schedscope/schedscope/recorder"
)

// Names of the steps of a cycle that are not extension points of their own,
// as the walk-through through a cycle names them.
const (
	PhaseQueue    = "Queue"
	PhaseWeighted = "Weighted sum"
	PhaseSelect   = "Select host"
)

// A Step is one step of a cycle as a walk-through through it names it: an
// extension point, or one of PhaseQueue, PhaseWeighted and PhaseSelect.
type Step struct {
	// Name is the step's name: an extension point's as upstream spells it.
	Name string
	// Short is the name in a narrow bar.
	Short string
	// Aliases are the other names a step answers to whole, lower case:
	// the legacy predicates and priorities, and words a learner types.
	Aliases []string
}

// steps are the steps of a cycle, in order.
var steps = [...]Step{
	{Name: PhaseQueue, Short: "Queue"},
	{Name: recorder.PhasePreFilter, Short: "PreF"},
	{Name: recorder.PhaseFilter, Short: "Filter", Aliases: []string{"predicates"}},
	{Name: recorder.PhasePostFilter, Short: "PostF"},
	{Name: recorder.PhaseScore, Short: "Score", Aliases: []string{"priorities"}},
	{Name: recorder.PhaseNormalize, Short: "Norm", Aliases: []string{"normalize"}},
	{Name: PhaseWeighted, Short: "Sum", Aliases: []string{"weighted"}},
	{Name: PhaseSelect, Short: "Select"},
	{Name: recorder.PhaseReserve, Short: "Resv"},
	{Name: recorder.PhasePermit, Short: "Permit"},
	{Name: recorder.PhasePreBind, Short: "PreB"},
	{Name: recorder.PhaseBind, Short: "Bind"},
	{Name: recorder.PhasePostBind, Short: "PostB"},
}

// Steps are the steps of a cycle in the order they run: the one list of
// their names, short names and aliases, which the TUI's stepper, its
// :phase and the lessons read.
func Steps() []Step { return steps[:len(steps):len(steps)] }

// Names are every name the step answers to, lower case, its short name
// first: the short name, the name, the name without spaces, the aliases.
func (s Step) Names() []string {
	name := strings.ToLower(s.Name)
	var out []string
	for _, n := range append([]string{strings.ToLower(s.Short), name, strings.ReplaceAll(name, " ", "")}, s.Aliases...) {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// StepNamed is the index in Steps of the step name names, in any case,
// ok false when none has the name.
func StepNamed(name string) (int, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for i, s := range steps {
		for _, n := range s.Names() {
			if n == name {
				return i, true
			}
		}
	}
	return 0, false
}

// PhaseDoc says what a step of a cycle does (an extension point, or one of
// PhaseQueue, PhaseWeighted and PhaseSelect), for a learner, with the legacy
// predicates/priorities names; "" for a name it does not know.
func PhaseDoc(name string) string {
	switch name {
	case PhaseQueue:
		return "The pod leaves the scheduling queue (ordered by PrioritySort) and one scheduling cycle starts. The attempt counts how many times this pod has been tried; the scheduler takes a snapshot of the nodes and works on it for the whole cycle."
	case recorder.PhasePreFilter:
		return "PreFilter plugins look at the pod once, before any node, to precompute what their Filter will need. A plugin may answer Skip (it has nothing to check for this pod, so its Filter will not run), reject the pod outright, or narrow the nodes to a subset."
	case recorder.PhaseFilter:
		return "Filter (the old \"predicates\") decides which nodes can run the pod at all. On each node the plugins run in order and stop at the first rejection. Unschedulable means preemption might help; UnschedulableAndUnresolvable means it cannot. The search may stop once enough feasible nodes are found (percentageOfNodesToScore)."
	case recorder.PhasePostFilter:
		return "PostFilter runs only when no node passed filtering. DefaultPreemption looks for a node where evicting lower-priority pods would make room, evicts them and nominates that node; the pod is retried later."
	case recorder.PhaseScore:
		return "Score (the old \"priorities\") ranks the feasible nodes: each score plugin gives each node a raw score. PreScore computed shared state first; a plugin whose PreScore said Skip gives no score."
	case recorder.PhaseNormalize:
		return "NormalizeScore rescales a plugin's raw scores to 0–100 so that plugins are comparable; plugins without it keep their raw scores."
	case PhaseWeighted:
		return "Each normalized score is multiplied by the plugin's weight from the profile, and the products are summed per node. The highest total wins."
	case PhaseSelect:
		return "The scheduler puts the scored nodes in a max-heap keyed on their totals and takes the top one. When several nodes tie, the heap decides, so the order in which the nodes passed filtering matters. With only one feasible node there is nothing to choose and scoring is skipped."
	case recorder.PhaseReserve:
		return "Reserve plugins set aside resources on the chosen node (volumes, devices) before binding. The pod is assumed onto the node in the scheduler's cache so the next cycle sees it. If a later step fails, Unreserve undoes this."
	case recorder.PhasePermit:
		return "Permit plugins may approve, deny or delay (Wait) the binding, e.g. to gang-schedule pods together."
	case recorder.PhasePreBind:
		return "PreBind plugins do the work binding needs first, such as binding PersistentVolumeClaims or allocating devices."
	case recorder.PhaseBind:
		return "Bind plugins tell the API server which node the pod runs on. DefaultBinder creates the Binding."
	case recorder.PhasePostBind:
		return "PostBind plugins are told the binding succeeded, for cleanup and bookkeeping."
	}
	return ""
}

// PhaseHeading is a step's one-line summary, as explain's walk-through
// heads it; "" for a name it does not know.
func PhaseHeading(name string) string {
	switch name {
	case recorder.PhasePreFilter:
		return "plugins precompute what Filter needs, and may reject the pod outright."
	case recorder.PhaseFilter:
		return "each node runs the filter plugins in order until one rejects it."
	case recorder.PhasePostFilter:
		return "no node fits, so preemption looks for lower-priority pods to evict."
	case recorder.PhaseScore:
		return "each plugin scores each feasible node 0–100; scores are weighted and summed."
	}
	return ""
}

// PostFilterStatus is what a PostFilter plugin's status says, in words:
// its reasons, or, for an Unschedulable without any (the plugin found
// nothing to do, which the scheduler's own message leaves out), what
// upstream means by it.
func PostFilterStatus(s recorder.PluginStatus) string {
	var reasons []string
	for _, r := range s.Reasons {
		if strings.TrimSpace(r) != "" {
			reasons = append(reasons, r)
		}
	}
	if len(reasons) > 0 {
		return strings.Join(reasons, "; ")
	}
	if s.Code != recorder.CodeUnschedulable {
		return ""
	}
	if s.Plugin == "DynamicResources" {
		return "nothing to do: the pod has no resource claims to free"
	}
	return "nothing to do: the plugin found no way to make room (it gave no reason)"
}
