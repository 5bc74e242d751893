// Package scenario is schedscope as a Go library for tests: load a fixture
// (a cluster's manifests and the pods to schedule), run it with the real
// kube-scheduler under a configuration and feature gates, and read what
// happened as schedscope's recording model (package recorder): every
// cycle with its filter verdicts and scores, each pod's outcome, node and
// story, the warnings. A cycle can be forked and re-run with any change a
// whatif flag makes (recorder.Change), and suggest's and capacity's searches
// run on a scenario as the commands run them.
//
// A platform team's test that a configuration change keeps a Deployment
// spread over three zones and a Job placed (TestWebStillSpreads runs it):
//
//	sc, err := scenario.Embedded("workloads") // or scenario.LoadFile("testdata/cluster.yaml")
//	if err != nil {
//		t.Fatal(err)
//	}
//	res, err := sc.Run(context.Background(), scenario.Options{ConfigPath: "testdata/new-config.yaml"})
//	if err != nil {
//		t.Fatal(err)
//	}
//	if zones := res.Spread("deploy/web", "topology.kubernetes.io/zone"); len(zones) != 3 || !res.Fits("job/report") {
//		t.Errorf("web over zones %v; report fits: %v", zones, res.Fits("job/report"))
//	}
//
// Every run is the real scheduler's, in-process, on a cluster held in
// memory with kube-controller-manager's controllers beside it (package
// engine); nothing is computed by arithmetic. Feature gates and upstream
// code's logs are process-wide: runs under different gates must not run at
// once, and runs at once share their Problems. Out-of-tree plugins are
// added to the process with engine.Use.
//
// schedscope's commands run through this package too (there is no second
// path); what only they hear of a run as it goes (the debugger's pause, a
// recording written cycle by cycle) comes through hooks in the run's
// context (engine/scenario/scenariohook), not through this API.
//
// Where things are: scenario.go loads a scenario and runs it (Options);
// snapshot.go makes one of a running cluster, only reading it; result.go
// reads a run (Result); fork.go forks a cycle and re-runs it changed (Fork,
// At, WhatIf) and searches suggestions; capacity.go answers how many more
// replicas of a workload fit, and runs one scaled (Scale).
package scenario
