// Package otel sends recorded scheduling cycles to a tracing backend
// (Jaeger, Tempo, any OTLP endpoint) as OpenTelemetry traces, through the
// OpenTelemetry Go SDK and its OTLP exporters (gRPC or HTTP/protobuf).
//
// A cycle is a trace, named as KEP-5927 ("Distributed tracing in
// kube-scheduler", proposed) names its spans, so that schedscope's traces
// read the same as kube-scheduler's will once upstream has them:
//
//	SchedulePod                        the cycle, from its start to its outcome
//	├─ schedulingCycle
//	│  ├─ preFilter                    a phase: scheduler.phase=PreFilter
//	│  │  └─ plugin: NodeResourcesFit  where a phase runs once per plugin
//	│  ├─ filter
//	│  │  └─ plugin: TaintToleration   Filter and Score: one span per plugin,
//	│  ├─ postFilter                   summarising its calls on every node
//	│  ├─ preScore, score, reserve, permit
//	└─ bindingCycle
//	   └─ waitOnPermit, preBind, bind, postBind
//
// Phases the engine times beyond the KEP's (waitOnPermit, batchHint) are
// named the same way. A Filter or Score plugin span starts with its phase
// and lasts as long as the plugin's calls added up (never longer than the
// phase: calls on different nodes run in parallel); a per-plugin phase's
// plugin spans follow one another in the order the plugins ran. Each
// rejection is a span event "rejection" on the plugin that made it (on
// Filter, one per rejected node up to MaxRejectionEvents, the rest
// counted). Spans take the cycle's own times, so a recording exported
// later shows its incident when it happened.
//
// Attributes are the KEP's where it names them: k8s.pod.name,
// k8s.pod.namespace, k8s.pod.uid, scheduler.profile, scheduler.phase,
// scheduler.plugin.name, scheduler.plugin.extension_point, scheduler.result
// (scheduled, unschedulable or error, as kube-scheduler's
// schedule_attempts_total spells them) and scheduler.selected_node. What
// the KEP does not name carries the schedscope. prefix:
//
//	schedscope.cycle.seq, schedscope.cycle.attempt    the cycle's number and the pod's attempt
//	schedscope.pod.priority, schedscope.pod.owner
//	schedscope.nodes.total, .evaluated, .feasible, .rejected
//	schedscope.selection.rule, schedscope.tie_set     how the host was chosen; the nodes that tied
//	schedscope.message, schedscope.reason             the PodScheduled condition's
//	schedscope.nominated_node, schedscope.victims     preemption
//	schedscope.queue.wait                             from the pod's last move into activeQ to the cycle (ns)
//	schedscope.source, schedscope.whatif              what ran the cycle; the what-if that changed it
//	schedscope.plugin.code, .reasons                  a per-plugin phase's status
//	schedscope.plugin.calls, .time, .weight           Filter and Score summaries (time in ns, summed)
//	schedscope.plugin.rejections                      rejections by the plugin (any phase), so that one query finds them
//	schedscope.plugin.rejections_by_reason            Filter: "reason ×n", most first
//
// A pod-group cycle (kube-scheduler's scheduleOnePodGroup, KEP-4671) is a
// trace of its own, one span SchedulePodGroup over the group's cycle,
// linked to each member's SchedulePod. The group
// record does not time its steps, so they are span events: "member" a
// member in the order the cycle took it (its cycle, its tentative node,
// the earlier members' placements it saw assumed), "placementFeasible" a
// verdict of the KEP's PlacementFeasible extension point, "postFilter" the
// group's PostFilter (workload-aware preemption). Its attributes:
//
//	schedscope.pod_group.name, .namespace, .seq        the group and the pod-group cycle's number
//	schedscope.pod_group.policy, .min_count            Gang or Basic; a gang's minCount
//	schedscope.pod_group.members, .placed, .reverted   how many were queued and placed; "pod@node" undone
//	schedscope.pod_group.condition                     PodGroupInitiallyScheduled=True|False
//	schedscope.pod_group.waiting_on_preemption         the group PostFilter nominated victims
//	schedscope.pod_group.tentative_node, .assumed      a member event's placement and what it saw
//	schedscope.pod_group.scheduled, .remaining         a PlacementFeasible verdict's counts
//	schedscope.pod_group.kind, .min_group_count        CompositePodGroup, and a composite gang's minGroupCount
//	schedscope.pod_group.pod_groups, .overruled        the PodGroups under it; those failed only by their parent
//
// With TopologyAwareWorkloadScheduling the span also says how the cycle's
// candidate placements went, and has an
// event "placement" a candidate, in the order tried:
//
//	schedscope.pod_group.placement.generator, .topology_key   the PlacementGenerate plugin; the group's constraint
//	schedscope.pod_group.placement.candidates, .fitting       how many were generated; how many the group fit in
//	schedscope.pod_group.placement.scored, .chosen            PlacementScore ran; the name of the one submitted
//	schedscope.pod_group.placement.generate_code              PlacementGenerate's status
//	schedscope.pod_group.placement.name, .index, .domain      an event's candidate (index from 1 in the order tried)
//	schedscope.pod_group.placement.nodes, .members            its nodes; "pod@node" where its members went
//	schedscope.pod_group.placement.tried, .is_chosen          whether the cycle tried it, and submitted it
//	schedscope.pod_group.placement.scores, .total             "Plugin=score" (weighted) and their sum
//
// with scheduler.result, scheduler.profile, schedscope.message and
// schedscope.reason as on a pod's cycle.
//
// The pod's queue story since its previous cycle (added, moved by a cluster
// event with each plugin's queueing hint, backed off, gated) is a span event
// "queue: <operation>" on SchedulePod at the time it happened.
//
// The resource is service.name=schedscope, its version, the source
// (schedscope.source: "fixture NAME" or "cluster CONTEXT") and, for a
// cluster, k8s.cluster.name (the kubeconfig context); the standard
// OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME add to it and win.
//
// Trace and span IDs are derived from the recording (its creation time and
// source) and the cycle's number, so exporting one recording twice, or a
// recording a live export already sent, gives the same traces.
//
// Export never waits on the backend: cycles go through a bounded queue to
// the SDK's batch span processor, and what does not fit is dropped and
// counted (Summary). Nor does closing, for long: Options.Timeout (default
// DefaultTimeout) bounds how long the backend may take nothing, after
// which the exporter gives up on it, cancels its requests and counts what
// it dropped (exporter.go).
package otel
