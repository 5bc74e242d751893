package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	resourcehelper "k8s.io/component-helpers/resource"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// SuggestOptions bound and aim a search for changes.
type SuggestOptions struct {
	// Node, if set, asks "why not this node?": only changes that put the pod
	// on it count.
	Node string
	// Budget is how many re-runs the search may make (the baseline included);
	// 0 means DefaultSuggestBudget.
	Budget int
}

// DefaultSuggestBudget is how many re-runs suggest makes unless told.
const DefaultSuggestBudget = 24

// Suggestion is one change that the re-run confirmed makes the pod
// schedulable: recorder's plain data, which every output renders.
type Suggestion = recorder.Suggestion

// SuggestResult is what a search found, as recorder's plain data.
type SuggestResult = recorder.SuggestResult

type candidate struct {
	change recorder.Change
	text   string
	cost   int
	// shrink breaks ties of cost: how much of the pod's requests a change
	// takes away (0 for changes that take none).
	shrink float64
	order  int
	// alike counts the other nodes that gave the same change.
	alike int
}

// Suggest searches single changes drawn from the cycle's own diagnosis that
// make the pod schedulable (or, with opts.Node, put it on that node), and
// confirms each by re-running the cycle on the fork. Nodes that fail on the
// fewest plugins are tried first; the search stops after opts.Budget re-runs.
func Suggest(ctx context.Context, f *Fork, opts SuggestOptions) (*SuggestResult, error) {
	if opts.Budget <= 0 {
		opts.Budget = DefaultSuggestBudget
	}
	res := &SuggestResult{Pod: f.Pod.Namespace + "/" + f.Pod.Name, Node: opts.Node, Budget: opts.Budget, Suggestions: []Suggestion{}}
	if opts.Node != "" {
		if _, err := f.nodeIndex(opts.Node); err != nil {
			return nil, err
		}
	}
	// The baseline and every change to the pod run on one scheduler over
	// the fork's cluster; the others on their own.
	runner := f.NewRunner()
	defer runner.Close()
	diag := f.withPod()
	diag.Diagnostic = DiagnosticAlways
	base, err := runner.Run(ctx, diag)
	if err != nil {
		return nil, err
	}
	res.Tried = 1
	res.Baseline = base.Cycle
	landed, preempts := base.Landing()
	if preempts && opts.Node == "" {
		// The scheduler places it by preemption; look for changes that
		// place it without evicting anything.
		res.Note = fmt.Sprintf("as it is, the pod lands on %s by preempting %s; listed are changes that place it without preemption",
			landed, victimsOf(base.Cycle))
		landed = ""
	}
	switch {
	case opts.Node == "" && landed != "":
		res.Note = fmt.Sprintf("the pod is schedulable as it is: it goes to %s; ask about another node with --node", landed)
		return res, nil
	case opts.Node != "" && landed == opts.Node:
		res.Note = fmt.Sprintf("the pod goes to %s as it is", opts.Node)
		return res, nil
	}
	failing := diagnosis(base.Cycle)
	if opts.Node != "" && len(failing[opts.Node]) == 0 {
		res.Note = notChosen(base.Cycle, opts.Node)
		return res, nil
	}
	cands := f.candidates(base.Cycle, failing, opts.Node)
	res.Candidates = len(cands)
	if len(cands) == 0 {
		res.Note = "no single change this search knows was drawn from the diagnosis (" + summarizeFailures(failing, opts.Node) + ")"
		return res, nil
	}
	for i, c := range cands {
		if res.Tried >= opts.Budget {
			res.Cut = len(cands)-i > 0
			break
		}
		g, err := f.With(c.change)
		if err != nil {
			// A change the API server would refuse is not a suggestion.
			continue
		}
		run, err := runner.Run(ctx, g)
		res.Tried++
		if err != nil {
			res.Unconfirmed++
			continue
		}
		node, viaPreemption := run.Landing()
		if node == "" || (opts.Node != "" && node != opts.Node) || (preempts && viaPreemption) {
			res.Unconfirmed++
			continue
		}
		res.Suggestions = append(res.Suggestions, Suggestion{Change: c.change, Text: c.text, Cost: c.cost, Shrink: c.shrink,
			Node: node, ViaPreemption: viaPreemption, Cycle: run.Cycle})
	}
	slices.SortStableFunc(res.Suggestions, func(a, b Suggestion) int {
		if x := cmp.Compare(a.Cost, b.Cost); x != 0 {
			return x
		}
		return cmp.Compare(a.Shrink, b.Shrink)
	})
	return res, nil
}

// Landing is where the run put the pod: the node its cycle bound it to, or,
// when the cycle preempted, the node the retry bound it to (viaPreemption).
// "" when it found none.
func (r *RunResult) Landing() (node string, viaPreemption bool) {
	if r.Cycle.Outcome.Result == recorder.ResultBound {
		return r.Cycle.Outcome.Node, false
	}
	for _, c := range r.Later {
		if c.Outcome.Result == recorder.ResultBound {
			return c.Outcome.Node, true
		}
	}
	return "", false
}

// victimsOf names the pods a cycle's preemption evicted.
func victimsOf(c *recorder.Cycle) string {
	if c.PostFilter == nil || len(c.PostFilter.Victims) == 0 {
		return "other pods"
	}
	var keys []string
	for _, v := range c.PostFilter.Victims {
		keys = append(keys, v.Key())
	}
	return strings.Join(keys, ", ")
}

// diagnosis maps each node to the rejections it got, from the diagnostic
// full-filter pass (every plugin on every node), or the first rejection when
// that pass did not run, or PreFilter's when it rejected the pod everywhere.
func diagnosis(c *recorder.Cycle) map[string][]recorder.Rejection {
	out := map[string][]recorder.Rejection{}
	if d := c.Diagnostic; d != nil {
		for _, cell := range d.Cells {
			if cell.Code == recorder.CodeSuccess || cell.Code == recorder.CodeSkip {
				continue
			}
			r := recorder.Rejection{Code: cell.Code, Reasons: cell.Reasons}
			if cell.Plugin >= 0 && cell.Plugin < len(d.Plugins) {
				r.Plugin = d.Plugins[cell.Plugin]
			}
			n := c.NodeName(cell.Node)
			out[n] = append(out[n], r)
		}
		return out
	}
	if c.Filter != nil {
		for _, rj := range c.Filter.Rejected {
			r := recorder.Rejection{Code: rj.Code, Reasons: rj.Reasons}
			if rj.Plugin >= 0 && rj.Plugin < len(c.Filter.Plugins) {
				r.Plugin = c.Filter.Plugins[rj.Plugin]
			}
			out[c.NodeName(rj.Node)] = append(out[c.NodeName(rj.Node)], r)
		}
		return out
	}
	if pf := c.PreFilter; pf != nil {
		for _, ps := range pf.Plugins {
			if ps.Code != recorder.CodeSuccess && ps.Code != recorder.CodeSkip {
				for i := 0; i < c.NumNodes(); i++ {
					out[c.NodeName(i)] = append(out[c.NodeName(i)], recorder.Rejection{Plugin: ps.Plugin, Code: ps.Code, Reasons: ps.Reasons})
				}
			}
		}
	}
	return out
}

func summarizeFailures(failing map[string][]recorder.Rejection, node string) string {
	plugins := map[string]int{}
	for n, rs := range failing {
		if node != "" && n != node {
			continue
		}
		for _, r := range rs {
			plugins[r.Plugin]++
		}
	}
	var parts []string
	for p, k := range plugins {
		if p == "" {
			p = "unnamed"
		}
		parts = append(parts, fmt.Sprintf("%s on %d node(s)", p, k))
	}
	slices.Sort(parts)
	if len(parts) == 0 {
		return "no node was rejected by a filter"
	}
	return "rejected by " + strings.Join(parts, ", ")
}

// notChosen explains why a node that passed every filter did not get the pod.
func notChosen(c *recorder.Cycle, node string) string {
	if c.Score != nil && c.Selection != nil && c.Selection.Node != "" {
		row := slices.IndexFunc(c.Score.Nodes, func(n int) bool { return c.NodeName(n) == node })
		if w := c.WinnerRow(); row >= 0 && w >= 0 {
			return fmt.Sprintf("%s passes every filter; it scored %d against %d for %s (%s). Change weights with whatif --set-weight to see what moves it",
				node, c.Score.Totals[row], c.Score.Totals[w], c.Selection.Node, narrate.Loss(c.Score, w, row))
		}
		return fmt.Sprintf("%s passes every filter but was not scored: the search stopped before it (percentageOfNodesToScore); %s was chosen", node, c.Selection.Node)
	}
	return fmt.Sprintf("%s was not rejected by any filter", node)
}

// candidates draws single changes from the diagnosis: nodes that fail on
// the fewest plugins first, then in the cluster's order.
func (f *Fork) candidates(c *recorder.Cycle, failing map[string][]recorder.Rejection, only string) []candidate {
	var nodes []*v1.Node
	for _, n := range f.Nodes {
		if len(failing[n.Name]) > 0 && (only == "" || n.Name == only) {
			nodes = append(nodes, n)
		}
	}
	slices.SortStableFunc(nodes, func(a, b *v1.Node) int { return cmp.Compare(len(failing[a.Name]), len(failing[b.Name])) })
	var out []candidate
	seen := map[string]int{}
	add := func(ch recorder.Change, text string, cost int, shrink ...float64) {
		// A change of the pod is the same change whichever node it was
		// drawn from (the same request lowered to what many alike nodes
		// have free): tried once, told with how many nodes gave it.
		key := fmt.Sprintf("%T%+v", withWhy(ch, ""), withWhy(ch, ""))
		if i, ok := seen[key]; ok {
			out[i].alike++
			return
		}
		seen[key] = len(out)
		c := candidate{change: ch, text: text, cost: cost, order: len(out)}
		if len(shrink) > 0 {
			c.shrink = shrink[0]
		}
		out = append(out, c)
	}
	// A copy of a node is the same as a copy of another node alike (the
	// same allocatable, taints and labels but its hostname): one is tried.
	copied := map[string]bool{}
	addCopy := func(n *v1.Node) {
		if !fitsEmpty(f.Pod, n) {
			return
		}
		if k := nodeShape(n); !copied[k] {
			copied[k] = true
			add(recorder.CopyNode{From: n.Name, Node: n.Name + "-copy"}, fmt.Sprintf("add one more node like %s (as %s-copy), empty", n.Name, n.Name), 3)
		}
	}
	// Uncordoning a node clears spec.unschedulable and, as the node
	// lifecycle controller does then, its cordon taint; offered once a
	// node, whether NodeUnschedulable or TaintToleration turned it down.
	uncordoned := map[string]bool{}
	uncordon := func(n *v1.Node) {
		if uncordoned[n.Name] {
			return
		}
		uncordoned[n.Name] = true
		add(uncordonPatch(n), fmt.Sprintf("uncordon node %s (kubectl uncordon %s)", n.Name, n.Name), 1)
	}
	pod := f.Pod
	logger := klog.Background()
	var used map[string]v1.ResourceList
	edits := map[string]editResult{}
	for _, n := range nodes {
		for _, r := range failing[n.Name] {
			switch r.Plugin {
			case "NodeAffinity":
				for k, v := range pod.Spec.NodeSelector {
					if n.Labels[k] != v {
						if ch, err := podEdit(pod, fmt.Sprintf("drop nodeSelector %s=%s from the pod", k, v), func(p *v1.Pod) { delete(p.Spec.NodeSelector, k) }); err == nil {
							add(ch, fmt.Sprintf("drop the pod's nodeSelector %s=%s (node %s has %s)", k, v, n.Name, labelValue(n, k)), 1)
						}
					}
				}
				f.affinityCandidates(n, add)
			case "TaintToleration":
				for _, t := range n.Spec.Taints {
					if t.Effect == v1.TaintEffectPreferNoSchedule || corev1helpers.TolerationsTolerateTaint(logger, pod.Spec.Tolerations, &t, false) {
						continue
					}
					if t.Key == v1.TaintNodeUnschedulable {
						uncordon(n)
						continue
					}
					if lifecycleTaint(t.Key) {
						continue // the node's state, not a policy: it goes when the node recovers
					}
					tol := v1.Toleration{Key: t.Key, Operator: v1.TolerationOpEqual, Value: t.Value, Effect: t.Effect}
					if t.Value == "" {
						tol.Operator, tol.Value = v1.TolerationOpExists, ""
					}
					if ch, err := podEdit(pod, "tolerate the taint "+taintString(t), func(p *v1.Pod) { p.Spec.Tolerations = append(p.Spec.Tolerations, tol) }); err == nil {
						add(ch, fmt.Sprintf("tolerate the taint %s (on %s)", taintString(t), n.Name), 1)
					}
				}
			case "NodeUnschedulable":
				uncordon(n)
			case "NodeResourcesFit":
				if used == nil {
					used = f.requestsOn()
				}
				f.resourceCandidates(n, r, add, used, edits)
				addCopy(n)
			case "InterPodAffinity":
				f.podAffinityCandidates(add)
				addCopy(n)
			case "PodTopologySpread":
				for i, tsc := range pod.Spec.TopologySpreadConstraints {
					if tsc.WhenUnsatisfiable != v1.DoNotSchedule {
						continue
					}
					if tsc.MinDomains != nil {
						// Fewer domains than minDomains count the smallest
						// as 0: without it, the smallest is what is there.
						text := fmt.Sprintf("drop minDomains %d from the spread constraint on %s", *tsc.MinDomains, tsc.TopologyKey)
						if ch, err := podEdit(pod, text, func(p *v1.Pod) {
							p.Spec.TopologySpreadConstraints[i].MinDomains = nil
						}); err == nil {
							add(ch, text, 1)
						}
					}
					// minDomains is valid with DoNotSchedule only, so it goes too.
					text := fmt.Sprintf("make the spread constraint on %s (maxSkew %d) ScheduleAnyway", tsc.TopologyKey, tsc.MaxSkew)
					if tsc.MinDomains != nil {
						text += " without its minDomains"
					}
					if ch, err := podEdit(pod, text, func(p *v1.Pod) {
						p.Spec.TopologySpreadConstraints[i].WhenUnsatisfiable = v1.ScheduleAnyway
						p.Spec.TopologySpreadConstraints[i].MinDomains = nil
					}); err == nil {
						add(ch, text, 1)
					}
				}
			case "NodePorts", "VolumeRestrictions", "NodeVolumeLimits":
				addCopy(n)
			}
		}
	}
	// The pods preemption would evict, where it found a node.
	if pf := c.PostFilter; pf != nil {
		for _, cand := range pf.Candidates {
			if only != "" && cand.Node != only || len(cand.Victims) == 0 {
				continue
			}
			var keys []string
			for _, v := range cand.Victims {
				keys = append(keys, v.Key())
			}
			add(recorder.Evict{Pods: keys}, fmt.Sprintf("evict %s from %s (the pods preemption would evict there)", strings.Join(keys, ", "), cand.Node), 2+len(keys))
		}
	}
	for i := range out {
		if c := &out[i]; c.alike > 0 {
			c.text = alikeNodes.ReplaceAllString(c.text, fmt.Sprintf("(what $1 and %d other node(s) have free)", c.alike))
		}
	}
	slices.SortStableFunc(out, func(a, b candidate) int {
		if x := cmp.Compare(a.cost, b.cost); x != 0 {
			return x
		}
		if x := cmp.Compare(a.shrink, b.shrink); x != 0 {
			return x
		}
		return cmp.Compare(a.order, b.order)
	})
	return out
}

// fitsEmpty reports whether pod's requests fit an empty node like n, by
// the NodeResourcesFit filter's own arithmetic (noderesources.Fits). An
// empty copy of a node the pod is too big for cannot place it: suggest
// does not spend a re-run (at cluster scale, a new scheduler) on it.
func fitsEmpty(pod *v1.Pod, n *v1.Node) bool {
	ni := framework.NewNodeInfo()
	ni.SetNode(n)
	fts := feature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
	return len(noderesources.Fits(pod, ni, nil, noderesources.ResourceRequestsOptions{
		EnablePodLevelResources:   fts.EnablePodLevelResources,
		EnableDRAExtendedResource: fts.EnableDRAExtendedResource,
	})) == 0
}

// alikeNodes finds the node a lowered request was drawn from in its text.
var alikeNodes = regexp.MustCompile(`\(what (\S+) has free\)`)

// nodeShape is what an empty copy of n is made of, but its name.
func nodeShape(n *v1.Node) string {
	labels := maps.Clone(n.Labels)
	delete(labels, v1.LabelHostname)
	b, _ := json.Marshal(struct {
		Labels      map[string]string
		Taints      []v1.Taint
		Allocatable v1.ResourceList
		Capacity    v1.ResourceList
		Unsched     bool
	}{labels, n.Spec.Taints, n.Status.Allocatable, n.Status.Capacity, n.Spec.Unschedulable})
	return string(b)
}

func labelValue(n *v1.Node, k string) string {
	if v, ok := n.Labels[k]; ok {
		return k + "=" + v
	}
	return "no label " + k
}

// lifecycleTaint reports whether a taint is one the node lifecycle puts on
// a node to say its state (not ready, unreachable, under pressure, cordoned,
// not initialized by its cloud provider): a pod should not tolerate it to
// be scheduled; the node recovers, or is uncordoned.
func lifecycleTaint(key string) bool {
	return strings.HasPrefix(key, "node.kubernetes.io/") || key == taintUninitialized
}

// taintUninitialized is the taint a node carries until its cloud provider
// has initialized it (k8s.io/cloud-provider/api.TaintExternalCloudProvider).
const taintUninitialized = "node.cloudprovider.kubernetes.io/uninitialized"

// uncordonPatch uncordons node n: spec.unschedulable false and, as the node
// lifecycle controller removes it then, the cordon taint gone.
func uncordonPatch(n *v1.Node) recorder.PatchNode {
	var kept []v1.Taint
	for _, t := range n.Spec.Taints {
		if t.Key != v1.TaintNodeUnschedulable {
			kept = append(kept, t)
		}
	}
	patch := `{"spec":{"unschedulable":false}}`
	if len(kept) < len(n.Spec.Taints) {
		taints, _ := json.Marshal(kept) // null when none is left
		patch = `{"spec":{"unschedulable":false,"taints":` + string(taints) + `}}`
	}
	return recorder.PatchNode{Node: n.Name, Patch: patch, Why: "uncordon node " + n.Name}
}

func taintString(t v1.Taint) string {
	if t.Value == "" {
		return t.Key + ":" + string(t.Effect)
	}
	return t.Key + "=" + t.Value + ":" + string(t.Effect)
}

// affinityCandidates relaxes the pod's required node affinity for node n:
// drop an expression n fails (within each term), or the requirement.
func (f *Fork) affinityCandidates(n *v1.Node, add func(recorder.Change, string, int, ...float64)) {
	pod := f.Pod
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return
	}
	terms := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	for ti, term := range terms {
		for ei, expr := range term.MatchExpressions {
			sel, err := nodeaffinity.NewNodeSelector(&v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: []v1.NodeSelectorRequirement{expr}}}})
			if err != nil || sel.Match(n) {
				continue
			}
			text := fmt.Sprintf("drop the required node affinity expression %s %s %s (node %s has %s)", expr.Key, expr.Operator, strings.Join(expr.Values, ","), n.Name, labelValue(n, expr.Key))
			ch, err := podEdit(pod, text, func(p *v1.Pod) {
				t := &p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[ti]
				t.MatchExpressions = slices.Delete(t.MatchExpressions, ei, ei+1)
				if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
					p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = nil
				}
			})
			if err == nil {
				add(ch, text, 1)
			}
		}
	}
	text := "drop the pod's required node affinity"
	if ch, err := podEdit(pod, text, func(p *v1.Pod) { p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = nil }); err == nil {
		add(ch, text, 2)
	}
}

// podAffinityCandidates removes one required pod (anti-)affinity term.
func (f *Fork) podAffinityCandidates(add func(recorder.Change, string, int, ...float64)) {
	pod := f.Pod
	a := pod.Spec.Affinity
	if a == nil {
		return
	}
	if a.PodAffinity != nil {
		for i, t := range a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
			text := fmt.Sprintf("drop the required pod affinity term %d (%s over %s)", i+1, selectorString(t.LabelSelector), t.TopologyKey)
			if ch, err := podEdit(pod, text, func(p *v1.Pod) {
				r := &p.Spec.Affinity.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution
				*r = slices.Delete(*r, i, i+1)
			}); err == nil {
				add(ch, text, 1)
			}
		}
	}
	if a.PodAntiAffinity != nil {
		for i, t := range a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
			text := fmt.Sprintf("drop the required pod anti-affinity term %d (%s over %s)", i+1, selectorString(t.LabelSelector), t.TopologyKey)
			if ch, err := podEdit(pod, text, func(p *v1.Pod) {
				r := &p.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution
				*r = slices.Delete(*r, i, i+1)
			}); err == nil {
				add(ch, text, 1)
			}
		}
	}
}

func selectorString(s interface{ String() string }) string {
	if s == nil {
		return "any pod"
	}
	return s.String()
}

// resourceCandidates lowers one of the pod's requests to what node n has
// free, for each resource n is short of.
// requestsOn sums the requests of the pods placed on each node.
func (f *Fork) requestsOn() map[string]v1.ResourceList {
	out := map[string]v1.ResourceList{}
	for _, p := range f.Placed {
		used := out[p.Spec.NodeName]
		if used == nil {
			used = v1.ResourceList{}
			out[p.Spec.NodeName] = used
		}
		for k, q := range resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{}) {
			u := used[k]
			u.Add(q)
			used[k] = u
		}
	}
	return out
}

// resourceCandidates lowers the pod's requests to what n has free; used
// holds what the placed pods request on each node (requestsOn), edits the
// pod changes already made, by what they change.
func (f *Fork) resourceCandidates(n *v1.Node, r recorder.Rejection, add func(recorder.Change, string, int, ...float64), used map[string]v1.ResourceList, edits map[string]editResult) {
	pod := f.Pod
	want := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{})
	usedOn := used[n.Name]
	type lowering struct {
		name      v1.ResourceName
		container int
		from, to  resource.Quantity
	}
	var lows []lowering
	for _, name := range []v1.ResourceName{v1.ResourceCPU, v1.ResourceMemory, v1.ResourceEphemeralStorage} {
		need, ok := want[name]
		if !ok || !mentions(r, name) {
			continue
		}
		free := n.Status.Allocatable[name].DeepCopy()
		u := usedOn[name]
		free.Sub(u)
		if free.Sign() <= 0 || free.Cmp(need) >= 0 {
			continue
		}
		// Take the difference off the container that asks the most.
		cut := need.DeepCopy()
		cut.Sub(free)
		ci := -1
		var most resource.Quantity
		for i, c := range pod.Spec.Containers {
			if q, ok := c.Resources.Requests[name]; ok && (ci < 0 || q.Cmp(most) > 0) {
				ci, most = i, q
			}
		}
		if ci < 0 || most.Cmp(cut) < 0 {
			continue
		}
		to := most.DeepCopy()
		to.Sub(cut)
		lows = append(lows, lowering{name: name, container: ci, from: most, to: to})
	}
	apply := func(p *v1.Pod, l lowering) {
		c := &p.Spec.Containers[l.container]
		c.Resources.Requests[l.name] = l.to
		if lim, ok := c.Resources.Limits[l.name]; ok && lim.Cmp(l.to) < 0 {
			c.Resources.Limits[l.name] = l.to
		}
	}
	shrinkOf := func(l lowering) float64 {
		cut := l.from.DeepCopy()
		cut.Sub(l.to)
		need := want[l.name]
		return float64(cut.MilliValue()) / float64(max(need.MilliValue(), 1))
	}
	describe := func(l lowering) string {
		return fmt.Sprintf("container %s's %s request from %s to %s", pod.Spec.Containers[l.container].Name, l.name, l.from.String(), l.to.String())
	}
	// Alike nodes give the same edit: it is made once.
	edit := func(key, text string, do func(p *v1.Pod)) (recorder.Change, error) {
		if e, ok := edits[key]; ok {
			return withWhy(e.change, text), e.err
		}
		ch, err := podEdit(pod, text, do)
		edits[key] = editResult{ch, err}
		return ch, err
	}
	for _, l := range lows {
		text := fmt.Sprintf("lower %s (what %s has free)", describe(l), n.Name)
		if ch, err := edit(describe(l), text, func(p *v1.Pod) { apply(p, l) }); err == nil {
			add(ch, text, 2, shrinkOf(l))
		}
	}
	// Short of several resources: one change of the pod's requests that
	// lowers them all to what the node has free.
	if len(lows) > 1 {
		var parts []string
		var shrink float64
		for _, l := range lows {
			parts = append(parts, describe(l))
			shrink += shrinkOf(l)
		}
		text := fmt.Sprintf("lower %s (what %s has free)", strings.Join(parts, " and "), n.Name)
		if ch, err := edit(strings.Join(parts, " and "), text, func(p *v1.Pod) {
			for _, l := range lows {
				apply(p, l)
			}
		}); err == nil {
			add(ch, text, 3, shrink)
		}
	}
}

// editResult is a pod edit made, or refused.
type editResult struct {
	change recorder.Change
	err    error
}

// mentions reports whether a NodeResourcesFit rejection names the resource.
func mentions(r recorder.Rejection, name v1.ResourceName) bool {
	for _, s := range r.Reasons {
		if strings.Contains(strings.ToLower(s), strings.ToLower(string(name))) {
			return true
		}
	}
	return false
}

// withWhy is c, its words set to why if it is a patch (suggest words each
// patch it makes).
func withWhy(c recorder.Change, why string) recorder.Change {
	switch p := c.(type) {
	case recorder.PatchPod:
		p.Why = why
		return p
	case recorder.PatchNode:
		p.Why = why
		return p
	}
	return c
}
