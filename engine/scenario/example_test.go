package scenario_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/scenario"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// mostAllocated is a configuration change a platform team might make:
// pack nodes (NodeResourcesFit's MostAllocated) instead of spreading load.
const mostAllocated = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]
`

// A platform team's test: after this configuration change, web still
// spreads over three zones and the report Job still fits.
func Example() {
	ctx := context.Background()
	sc, err := scenario.Embedded("workloads")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := sc.Run(ctx, scenario.Options{Config: []byte(mostAllocated)})
	if err != nil {
		fmt.Println(err)
		return
	}
	zones := res.Spread("deploy/web", "topology.kubernetes.io/zone")
	fmt.Println("web by zone:", zones)
	fmt.Println("three zones:", len(zones) == 3, "report fits:", res.Fits("job/report"))
	// Output:
	// web by zone: map[zone-a:2 zone-b:2 zone-c:2]
	// three zones: true report fits: true
}

// A pod's story, as explain --pod tells it, and its outcome.
func ExampleResult_Story() {
	sc, err := scenario.Embedded("unschedulable")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := sc.Run(context.Background(), scenario.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	st, err := res.Pod("stuck")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.State, narrate.PodMessage(st))
	story, err := res.Story("stuck")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range story {
		_, step, _ := strings.Cut(line, "  ") // after the time
		fmt.Println(step)
	}
	c := res.CyclesOf("stuck")[0]
	for _, r := range c.Filter.Rejected {
		fmt.Printf("%s: %s\n", c.NodeName(r.Node), c.Filter.Plugins[r.Plugin])
	}
	// Output:
	// Unschedulable 0/4 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.
	// added → Active
	// cycle 1 (attempt 1): Unschedulable: 0/4 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.
	// ScheduleAttemptFailure → Unschedulable
	// cordoned: NodeUnschedulable
	// tainted: TaintToleration
	// too-small: NodeResourcesFit
	// wrong-tier: NodeAffinity
}

// What if the cordoned node were uncordoned? The cycle is forked and run
// again by the real scheduler on a changed copy of what it saw.
func ExampleFork_WhatIf() {
	ctx := context.Background()
	sc, err := scenario.Embedded("unschedulable")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := sc.Run(ctx, scenario.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := res.Fork(ctx, "stuck")
	if err != nil {
		fmt.Println(err)
		return
	}
	w, err := f.WhatIf(ctx, recorder.PatchNode{Node: "cordoned", Patch: `{"spec":{"unschedulable":false}}`})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(w.Changes)
	fmt.Println("before:", w.Before.Outcome.Result, "after:", w.After.Outcome.Result, "on", w.Landing)
	// Output:
	// [patch node cordoned with {"spec":{"unschedulable":false}}]
	// before: Unschedulable after: Bound on cordoned
}

// The smallest single changes that would place a pending pod, each
// confirmed by a re-run.
func ExampleResult_Suggest() {
	ctx := context.Background()
	sc, err := scenario.Embedded("unschedulable")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := sc.Run(ctx, scenario.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	sg, err := res.Suggest(ctx, "stuck", engine.SuggestOptions{Budget: 8})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range sg.Suggestions {
		fmt.Printf("%s → %s\n", s.Text, s.Node)
	}
	// Output:
	// uncordon node cordoned (kubectl uncordon cordoned) → cordoned
	// tolerate the taint team=ml:NoSchedule (on tainted) → tainted
	// drop the pod's nodeSelector tier=batch (node wrong-tier has tier=web) → wrong-tier
	// lower container c's cpu request from 2 to 1 and container c's memory request from 4Gi to 2Gi (what too-small has free) → too-small
}

// How many more replicas of a Deployment fit, by whole runs.
func ExampleScenario_Capacity() {
	sc, err := scenario.Embedded("deployment")
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := sc.Capacity(context.Background(), scenario.Options{}, "deploy/web")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("asks for %d, %d placed, %d more fit\n", c.Replicas, c.Placed, c.More)
	fmt.Println("runs:", c.Runs)
	fmt.Println("next:", c.Stopped)
	// Output:
	// asks for 3, 3 placed, 23 more fit
	// runs: [3 4 5 7 11 19 35]
	// next: 0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match pod topology spread constraints. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.
}
