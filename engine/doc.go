// Package engine runs the upstream kube-scheduler in-process over a cluster held in
// memory and records every scheduling cycle as recorder types. Its package
// tree (engine, engine/fixture, engine/controllers, engine/live,
// engine/cluster) is the only one
// of schedscope that imports k8s.io/kubernetes.
//
// Where things are:
//
//   - Loading a cluster. Package engine/fixture decodes and admits a
//     fixture's manifests (the objects, the pending pods, the timeline's
//     steps) as an API server would. config.go loads a
//     KubeSchedulerConfiguration through the upstream scheme. Package
//     engine/featuregates reads and sets kube-scheduler's feature gates,
//     process-wide, before anything is built; feature_gates.go refuses a
//     run (a fork's) under other gates than it was set up with, and says
//     what GenericWorkload's pod groups do in a run.
//   - The scheduler. engine.go: Options, Engine, New and build (scheduler.New
//     over informers on an in-memory clientset); store.go: that clientset's
//     object store, one copy of each object shared with the informers;
//     store_watch.go: its watches, which queue what their reader has not
//     taken yet; fake_api.go: its reactors (binding, resource versions, nominations,
//     preemption victims);
//     termination.go: a victim's graceful termination on the run's clock;
//     hooks.go: the hooks on the scheduler's exported functions; clock.go: the
//     simulated clock and call timing; upstream.go: every touch of upstream
//     internals, each naming its symbol and version (the one seam);
//     upstream_logs.go: klog off the terminal, its errors a run's problems;
//     out_of_tree.go: the out-of-tree plugins and args types a main adds
//     (Use, WithPlugin, WithPluginArgs), and the refusal of a configuration
//     that names a plugin the binary does not have.
//   - Recording a cycle. wrap_plugins.go wraps every plugin, wrap_framework.go
//     the profile's framework (phase boundaries, filter results, scores),
//     wrap_extenders.go the extenders, wrap_preemption.go preemption's dry runs.
//     cycle_trace.go holds a cycle's trace while it runs; cycle_lifecycle.go
//     takes it from start to the recorded Cycle (selection, outcome, emit);
//     pod_group_cycle.go records a pod-group cycle (its members' cycles
//     linked, PlacementFeasible's verdicts, the outcome and condition);
//     pod_group_placement.go its candidate placements with
//     TopologyAwareWorkloadScheduling (PlacementGenerate and PlacementScore
//     wrapped, the candidates handed over in a defined order, each
//     candidate tried, the one chosen);
//     composite_pod_group.go, that of a CompositePodGroup's hierarchy (its
//     groups, the verdicts about each, the leaves' conditions, where each
//     member is reserved when the cycle ends, its run in the chosen
//     placement as its cycle record);
//     diagnostic.go runs the diagnostic full-filter pass; device_shortfall.go
//     works out the numbers behind DynamicResources' rejections (devices a
//     claim asks for, published and allocated on each node); unread.go names the
//     kinds of a fixture's objects nothing in the run acts on; events.go catches
//     the scheduler's events; queue_events.go records the scheduling queue's
//     events (and which PreEnqueue plugin gated a pod); header.go describes the scheduler for a recording; version.go:
//     schedscope's and the pinned kube-scheduler's versions.
//   - Running a fixture. sim.go: Run (sequential arrival; with
//     Options.Story it stops once the rest cannot change the story of the
//     pods asked for) and RunBurst; arrivals.go: the order in which the
//     pods the controllers make reach the scheduler (document order, then
//     name), held until the controllers are done;
//     pod_handle.go: which pod a handle (deploy/web#3, recorder's) stands
//     for, found by a run;
//     steps.go writes a timeline's step; settle.go: when the scheduler and
//     the controllers beside it have nothing left to do (counted informer
//     events, no pod in flight, no controller work), and unfinished, the
//     pods as kube-scheduler's field-selected informer has them; stall.go
//     judges a wait by the run's progress (a settle goes on while objects
//     are written and cycles finish);
//     queue_counts.go.
//     Package engine/controllers runs the controllers, the simulated
//     kubelet and provisioner; cluster_api.go is what the in-memory API
//     server does for them (the create path through fixture.Admitter,
//     status and generation on update, events dropped); cluster_state.go
//     reads what they left (workloads, budgets, claims); owners.go names a
//     pod's workload.
//   - A live cluster. mirror.go is the seam live mode drives the engine
//     through (NewMirrored, ReadResources, Tracker, LockPods, Start, Schedule,
//     FlushHeld, with Options.OnDecided); the session itself is package
//     engine/live, and engine/cluster is the read-only connection it shares
//     with snapshot (kubeconfig loading, the read-only transport, the access
//     check). snapshot.go writes a cluster as a fixture, keeping only what
//     the scheduler reads (package engine/scrub, the one allow-list of it);
//     package engine/anonymize replaces, over that allow-list, what names the
//     cluster with stand-ins that keep every decision (snapshot --anonymize,
//     anonymize -f), and rewrites a recording by the same rules, its free
//     text through an allow-list of the scheduler's words (anonymize RECORDING).
//   - What-if. fork.go captures the state a cycle saw and re-runs it;
//     fork_runner.go re-runs many changes of one pod, and of nodes it can
//     write and write back, on one scheduler;
//     whatif_change.go applies the changes a user can make (recorder.Change,
//     plain data: flags, keys and suggest make them); suggest.go: the search
//     for the smallest change that places a pod; pod_group_suggest.go: the
//     changes that let a pod group bind, each confirmed by a whole run (the
//     group's cycle run again; pod_group_suggest_request.go: a member's
//     request lowered to what a node had free; pod_group_suggest_victims.go:
//     the fewest running pods evicted to make room for its members);
//     pod_group_whatif.go: a pod group's cycle
//     in a whole run before and after changes (whatif --pod-group);
//     capacity.go: whole runs
//     with a workload scaled (capacity, whatif --scale); pod_group_capacity.go:
//     whole runs with copies of a pod group (capacity --pod-group).
//
// Package engine/scenario is schedscope as a Go library for tests (load a
// fixture, run it with a configuration and gates, read the recording, fork
// a cycle with changes, suggest, capacity) over this package's API;
// engine/scenario/scenariohook carries the hooks schedscope's own commands
// hear a run through (the debugger's pause, a recording cycle by cycle),
// outside the library's contract.
// Package engine/extendertest runs a real HTTP scheduler extender for tests;
// engine/internal/scale writes the large snapshot the benchmarks share;
// engine/internal/zonebudget is an out-of-tree plugin (Filter, Score, Permit,
// args of its own) with its scenario, which the tests build schedscope and
// kube-scheduler with.
package engine
