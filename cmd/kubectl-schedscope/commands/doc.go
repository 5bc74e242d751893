// Package commands implements the kubectl-schedscope subcommands.
//
// Where things are: root.go builds the cobra tree and maps errors to exit
// codes; completion.go completes flag values (formats, modes, fixtures, the
// fixture's pods and nodes); command.go runs each command's options Complete → Validate → Run.
// One file per command: sim.go (the debugger on a fixture; learn.go opens
// it with a lesson beside it), record.go,
// replay.go, explain.go, live.go
// (a real cluster, read-only, and its --no-tui printer; control.go is the
// pause/step/breakpoint gate of sim and live), snapshot.go (live and
// snapshot read a cluster through cluster.go: the kubeconfig flags, --config
// and the connection), anonymize.go (a fixture or a recording
// with stand-ins for the cluster's names, engine/anonymize), verify.go,
// rbac.go, feature_gates.go (--feature-gates, set in the process by the
// root before any command runs), version.go (firstrun.go remembers the TUI's first-run hint),
// and the what-if commands whatif.go (whatif_pod_group.go: whatif
// --pod-group), suggest.go
// (suggest_pod_group.go: suggest --pod-group) and
// diff.go (the runs compared by recorder's PairPods and DiffPods, worded by
// recorder/export/text, as every pod and pod-group what-if, suggest and
// capacity is; whatif_tui.go serves the TUI's what-if
// mode, whatif_pod_group_tui.go the TUI's what-if and suggest of a pod
// group; whatif_scale.go is whatif --scale), and capacity.go (capacity_pod_group.go:
// capacity --pod-group). The last two run
// the fixture whole, again and again (simulate.go: wholeRuns). Every fixture
// command runs through the Go library (package engine/scenario), as a test
// calling it would: a run (fixture_source.go) with its Run, a what-if and a
// suggestion with its Fork, WhatIf and Suggest, capacity with its Capacity,
// NextReplica and Suggest, whatif --scale with its Scale. What only the
// commands need of a run as it goes (the debugger's pause, a recording
// written cycle by cycle, explain --pod's early stop) they hear through
// engine/scenario/scenariohook, hooks carried in the context, not the library's
// public API.
//
// Every session comes from a source.Source, which the debugger (tui.Run) and the
// headless outputs (headless.go: consume) read alike: fixture_source.go, a
// fixture's run (sim, explain, record, diff); replay_index.go, a
// recording (replay, with the files its index entries are opened from;
// replay_marks.go keeps a replay's marks beside its recording;
// replay_whatif.go finds the fixture a recording names, so that its cycles
// can be questioned);
// live_source.go, a live cluster. session_recorder.go (sim --record) and
// flight_recorder.go (live --record) are sources that also record what they
// pass on. simulate.go holds what the fixture commands share (flags,
// loading, --arrival); memory.go is the process's memory policy (the soft
// limit main sets, looser in whatif and suggest); cycles_output.go checks -o and picks
// the cycles to print (a pod's, each once, in order); recorder/export/report
// prints them in every format (explain's all at once, replay --no-tui's one
// at a time) and writes the files of the TUI's X; a what-if and a diff are
// worded by recorder/export/text and written as JSON or YAML by
// recorder/export; explain_pod_group.go picks a pod group's cycles for
// explain --pod-group. otlp.go is the --otlp-endpoint and --otlp-timeout of sim, record and live:
// a source that also sends each cycle as an OpenTelemetry trace
// (recorder/export/otel); export.go sends a recording's cycles the same way.
// deploy.go prints the in-cluster flight recorder's manifests, whose probes
// health.go serves (live --health-addr). interrupt.go is how record and
// live take SIGINT, SIGTERM and SIGHUP: as the end of the run, closing what
// they write. root.go also adds the reference pages of the subpackage help
// (one Markdown file a topic, embedded) as cobra's help topics: `help
// fixtures` prints one.
package commands
