package tui

import (
	"strings"

	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// pluginDoc says in plain words what a plugin checks, and which names older
// articles (the Policy-era predicates and priorities) used for the same check.
type pluginDoc struct {
	what   string
	legacy string
}

// pluginDocs describes the in-tree plugins. The wording is ours; the behaviour
// follows pkg/scheduler/framework/plugins.
func pluginDocs(name string) (pluginDoc, bool) {
	d, ok := map[string]pluginDoc{
		"PrioritySort":                    {"Orders the scheduling queue: higher pod priority first, then earlier arrival.", "the default FIFO-by-priority queue"},
		"SchedulingGates":                 {"Holds a pod out of scheduling while its spec.schedulingGates list is not empty.", "new; no legacy name"},
		"NodeName":                        {"Filter: if the pod sets spec.nodeName, only that node passes.", "predicate PodFitsHost (part of GeneralPredicates)"},
		"NodeUnschedulable":               {"Filter: rejects nodes marked spec.unschedulable (cordoned), unless the pod tolerates the node.kubernetes.io/unschedulable taint.", "predicate CheckNodeUnschedulable"},
		"TaintToleration":                 {"Filter: rejects nodes with a NoSchedule or NoExecute taint the pod does not tolerate. Score: fewer untolerated PreferNoSchedule taints score higher (normalized so the best node gets 100).", "predicate PodToleratesNodeTaints; priority TaintTolerationPriority"},
		"NodeAffinity":                    {"Filter: the node must match the pod's nodeSelector and required node affinity. Score: sums the weights of the preferred node-affinity terms the node matches, normalized to 0–100.", "predicate MatchNodeSelector; priority NodeAffinityPriority"},
		"NodePorts":                       {"Filter: rejects nodes where a hostPort the pod asks for is already taken.", "predicate PodFitsHostPorts (part of GeneralPredicates)"},
		"NodeResourcesFit":                {"Filter: the pod's requests (cpu, memory, pods, extended resources) must fit in the node's allocatable minus what is already requested there. Score: by default LeastAllocated — emptier nodes score higher; MostAllocated and RequestedToCapacityRatio are the other strategies.", "predicate PodFitsResources; priorities LeastRequestedPriority, MostRequestedPriority, RequestedToCapacityRatioPriority"},
		"NodeResourcesBalancedAllocation": {"Score: favours nodes whose cpu and memory would be used in similar proportions once the pod is placed.", "priority BalancedResourceAllocation"},
		"VolumeRestrictions":              {"Filter: rejects nodes where the pod's volumes conflict with volumes already mounted (same disk, ReadWriteOncePod already in use).", "predicate NoDiskConflict"},
		"NodeVolumeLimits":                {"Filter: rejects nodes where attaching the pod's volumes would exceed the node's CSI attach limit.", "predicates MaxCSIVolumeCount, MaxEBSVolumeCount, MaxGCEPDVolumeCount, MaxAzureDiskVolumeCount"},
		"VolumeBinding":                   {"Filter: the pod's PersistentVolumeClaims must be bound to, or bindable to, volumes usable from the node. Reserve and PreBind then bind the claims.", "predicate CheckVolumeBinding"},
		"VolumeZone":                      {"Filter: rejects nodes in a different zone or region from the pod's already-bound volumes.", "predicate NoVolumeZoneConflict"},
		"PodTopologySpread":               {"Filter: rejects nodes that would make a topologySpreadConstraint (whenUnsatisfiable: DoNotSchedule) exceed its maxSkew. Score: favours nodes that keep the spread even.", "predicate EvenPodsSpread; priorities SelectorSpreadPriority, ServiceSpreadingPriority"},
		"InterPodAffinity":                {"Filter: the node's topology domain must satisfy the pod's required pod affinity and anti-affinity, and the anti-affinity of pods already running. Score: preferred affinity terms, normalized to 0–100.", "predicate MatchInterPodAffinity; priority InterPodAffinityPriority"},
		"ImageLocality":                   {"Score: favours nodes that already hold the pod's container images, weighted by image size and how widely the image is spread.", "priority ImageLocalityPriority"},
		"DynamicResources":                {"Filter: the pod's ResourceClaims (DRA devices) must be allocatable on the node. Reserve and PreBind allocate the claims.", "new; no legacy name"},
		"NodeDeclaredFeatures":            {"Filter: the node must declare every feature the pod needs.", "new; no legacy name"},
		"DefaultPreemption":               {"PostFilter: when no node fits, looks for nodes where evicting lower-priority pods would let the pod fit, picks one, evicts the victims and nominates the node.", "the preemption step of the generic scheduler"},
		"DefaultBinder":                   {"Bind: writes the pod's binding to the API server, which sets spec.nodeName.", "the scheduler's bind call"},
		"GangScheduling":                  {"Schedules a group of pods together: Permit holds members until the whole gang can be placed.", "new; no legacy name"},
	}[name]
	return d, ok
}

// phaseDoc says what a phase does.
func phaseDoc(p phase) string {
	switch p {
	case phQueue:
		return "The pod leaves the scheduling queue (ordered by PrioritySort) and one scheduling cycle starts. The attempt counts how many times this pod has been tried; the scheduler takes a snapshot of the nodes and works on it for the whole cycle."
	case phPreFilter:
		return "PreFilter plugins look at the pod once, before any node, to precompute what their Filter will need. A plugin may answer Skip (it has nothing to check for this pod, so its Filter will not run), reject the pod outright, or narrow the nodes to a subset."
	case phFilter:
		return "Filter (the old \"predicates\") decides which nodes can run the pod at all. On each node the plugins run in order and stop at the first rejection. Unschedulable means preemption might help; UnschedulableAndUnresolvable means it cannot. The search may stop once enough feasible nodes are found (percentageOfNodesToScore)."
	case phPostFilter:
		return "PostFilter runs only when no node passed filtering. DefaultPreemption looks for a node where evicting lower-priority pods would make room, evicts them and nominates that node; the pod is retried later."
	case phScore:
		return "Score (the old \"priorities\") ranks the feasible nodes: each score plugin gives each node a raw score. PreScore computed shared state first; a plugin whose PreScore said Skip gives no score."
	case phNormalize:
		return "NormalizeScore rescales a plugin's raw scores to 0–100 so that plugins are comparable; plugins without it keep their raw scores."
	case phWeighted:
		return "Each normalized score is multiplied by the plugin's weight from the profile, and the products are summed per node. The highest total wins."
	case phSelect:
		return "The scheduler puts the scored nodes in a max-heap keyed on their totals and takes the top one. When several nodes tie, the heap decides, so the order in which the nodes passed filtering matters. With only one feasible node there is nothing to choose and scoring is skipped."
	case phReserve:
		return "Reserve plugins set aside resources on the chosen node (volumes, devices) before binding. The pod is assumed onto the node in the scheduler's cache so the next cycle sees it. If a later step fails, Unreserve undoes this."
	case phPermit:
		return "Permit plugins may approve, deny or delay (Wait) the binding, e.g. to gang-schedule pods together."
	case phPreBind:
		return "PreBind plugins do the work binding needs first, such as binding PersistentVolumeClaims or allocating devices."
	case phBind:
		return "Bind plugins tell the API server which node the pod runs on. DefaultBinder creates the Binding."
	case phPostBind:
		return "PostBind plugins are told the binding succeeded, for cleanup and bookkeeping."
	}
	return ""
}

// explainLines renders the explain panel for a phase and an optional plugin.
func explainLines(st *theme.Styles, p phase, plugin string, w int) []string {
	lines := []string{st.Title.Render("Explain · " + p.String())}
	lines = append(lines, layout.Wrap(phaseDoc(p), w, "")...)
	if plugin != "" {
		lines = append(lines, "", st.Title.Render(plugin))
		if d, ok := pluginDocs(plugin); ok {
			lines = append(lines, layout.Wrap(d.what, w, "")...)
			lines = append(lines, layout.Wrap(st.Dim.Render("older articles: ")+d.legacy, w, "  ")...)
		} else {
			lines = append(lines, st.Dim.Render("an out-of-tree plugin; see its own documentation"))
		}
	}
	return lines
}

// legacyHint is the short legacy-name hint used beside plugin names in wide tables.
func legacyHint(plugin string) string {
	d, ok := pluginDocs(plugin)
	if !ok || strings.HasPrefix(d.legacy, "new") {
		return ""
	}
	return d.legacy
}
