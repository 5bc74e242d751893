package cyclepage

// phaseDoc says what a phase does.
func phaseDoc(p Phase) string {
	switch p {
	case Queue:
		return "The pod leaves the scheduling queue (ordered by PrioritySort) and one scheduling cycle starts. The attempt counts how many times this pod has been tried; the scheduler takes a snapshot of the nodes and works on it for the whole cycle."
	case PreFilter:
		return "PreFilter plugins look at the pod once, before any node, to precompute what their Filter will need. A plugin may answer Skip (it has nothing to check for this pod, so its Filter will not run), reject the pod outright, or narrow the nodes to a subset."
	case Filter:
		return "Filter (the old \"predicates\") decides which nodes can run the pod at all. On each node the plugins run in order and stop at the first rejection. Unschedulable means preemption might help; UnschedulableAndUnresolvable means it cannot. The search may stop once enough feasible nodes are found (percentageOfNodesToScore)."
	case PostFilter:
		return "PostFilter runs only when no node passed filtering. DefaultPreemption looks for a node where evicting lower-priority pods would make room, evicts them and nominates that node; the pod is retried later."
	case Score:
		return "Score (the old \"priorities\") ranks the feasible nodes: each score plugin gives each node a raw score. PreScore computed shared state first; a plugin whose PreScore said Skip gives no score."
	case Normalize:
		return "NormalizeScore rescales a plugin's raw scores to 0–100 so that plugins are comparable; plugins without it keep their raw scores."
	case Weighted:
		return "Each normalized score is multiplied by the plugin's weight from the profile, and the products are summed per node. The highest total wins."
	case Select:
		return "The scheduler puts the scored nodes in a max-heap keyed on their totals and takes the top one. When several nodes tie, the heap decides, so the order in which the nodes passed filtering matters. With only one feasible node there is nothing to choose and scoring is skipped."
	case Reserve:
		return "Reserve plugins set aside resources on the chosen node (volumes, devices) before binding. The pod is assumed onto the node in the scheduler's cache so the next cycle sees it. If a later step fails, Unreserve undoes this."
	case Permit:
		return "Permit plugins may approve, deny or delay (Wait) the binding, e.g. to gang-schedule pods together."
	case PreBind:
		return "PreBind plugins do the work binding needs first, such as binding PersistentVolumeClaims or allocating devices."
	case Bind:
		return "Bind plugins tell the API server which node the pod runs on. DefaultBinder creates the Binding."
	case PostBind:
		return "PostBind plugins are told the binding succeeded, for cleanup and bookkeeping."
	}
	return ""
}
