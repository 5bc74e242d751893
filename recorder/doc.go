// Package recorder holds the scheduling-cycle data model shared by the engine,
// recordings, exports and the TUI, and the recording file format.
//
// It imports nothing from Kubernetes: every value is plain data, so a recording
// can be read by tools that know nothing about the scheduler's internals.
//
// Where things are:
//
//   - The model. cycle.go: Cycle and its phases (PreFilter, Filter, PostFilter,
//     Score, Selection, Reserve … PostBind), node sets, the winner and loss
//     reasons. pod_group.go: a pod-group cycle (KindPodGroup), its members
//     linked to their own cycles; pod_group_placement.go: its candidate
//     placements (TopologyAwareWorkloadScheduling); composite_pod_group.go:
//     the hierarchy of one whose group is a CompositePodGroup.
//     pod_state.go: where each pod stands at the end of a run.
//     unused.go: the kinds of a fixture's objects a run leaves unused.
//     usage.go: what was placed on each node, rebuilt from cycles' NodeUse;
//     device_shortfall.go: the numbers behind a DRA rejection (devices a
//     claim's request asks for, published and allocated on the node);
//     shortfall.go: the numbers behind a resource rejection (asked, free,
//     short by) and whether the free capacity is fragmented.
//     queue_event.go: the scheduling queue's events. cluster_state.go: what
//     a fixture run's controllers left; lost.go: what a run lost (a
//     workload not made, a claim not provisioned). pod_handle.go: handles
//     that name a controller's pod across runs (deploy/web#3) and the
//     workload kinds commands take. change.go: a what-if's changes, one
//     type a kind, as plain data, and the PLUGIN=N and PLUGIN[:POINT] forms
//     the flags and the TUI's prompt both parse. ints.go: the run-length lists node
//     indices and scores are written as; duration.go: durations as Go
//     spells them.
//   - Writing. file.go: the record kinds, the checksummed line format and
//     Writer; frame.go: a record's frame (checksum, body), made by the
//     writer and opened by every reader. encode_cycle.go: a cycle record
//     encoded by hand, into the bytes encoding/json writes. async_writer.go: writing off the scheduler's goroutines, waiting
//     for the disk (record) or dropping and noting drops (live). rotate.go: the
//     live flight recorder's size-bounded files. atomic_file.go: an output
//     renamed into place when whole; leftover.go: the partial outputs of
//     writers that ended first (process_unix.go tells a dead writer;
//     process_other.go cannot).
//   - Reading. line.go: bounded lines. reader.go: the sequential Reader (torn
//     tails, damaged records, follows rotation). decode.go: a record's checks and
//     decoding, shared by every reader. check.go: what a valid checksum can still
//     get wrong. sequence.go: the numbers records carry, which must not repeat
//     (and a queue event's must increase); both readers skip a record out of
//     place. problem.go: the problems a reader reports (IsProblem). index.go,
//     skim.go and skim_cycle.go: the index reader, which skims cycles instead
//     of decoding them (skim_cycle.go reads one cycle's entry, and decides the
//     plugins an entry names for EntryOf too).
//     seek.go: File, random access to any cycle through an index. follow.go:
//     tail -f of a growing recording. recording.go: a whole recording in memory.
//     verify.go: the headless check behind `verify`. marks.go: the cycles a
//     user marked, in a sidecar file beside the recording.
//   - Comparing. diff.go: the diff of two cycles as data: which nodes changed
//     and why the winner changed (WinnerChange.Reason). run_diff.go: two
//     runs compared pod by pod (each pod's last cycle, a controller's
//     replicas paired by where they went), diff's output. what_if.go: a
//     cycle run again with changes, as the engine fills it and every output
//     renders it; pod_group_what_if.go, a pod group's pod-group cycle in a
//     whole run as it is and changed. suggestion.go: what a search for
//     single changes that make a pod schedulable found, likewise;
//     pod_group_suggestion.go, one that lets a pod group bind.
//     capacity.go: how many more replicas of a workload fit (capacity);
//     pod_group_capacity.go, how many more copies of a pod group. scaled_run.go: where a
//     workload's pods went in a whole run with it scaled (whatif --scale). header.go: the recording's header and version.
//
// Four subpackages present this data: narrate puts it into English for every
// output (the steps of a cycle and the names they answer to, outcomes, the selection rule, why a node lost, durations, plugin
// abbreviations, diffs, queue events and a pod's story, where a pod stands
// and what would help it, what a what-if changed), export holds every renderer of a recording side
// by side, a subpackage a format: export itself is the JSON of
// explain/replay/live -o json (its schema is in schema/), of whatif and
// diff, and the YAML every -o yaml writes in the JSON's key order; export/text
// walks a cycle's phases for a terminal, export/markdown (-o markdown,
// tables to paste) and export/html (-o html, one standalone page) draw the
// tables export/document builds in words over table's matrix;
// export/report picks the renderer an -o names and prints a run's cycles,
// their groups and the summary after them through it (all at once, or one
// cycle at a time from a recording), and writes the files the TUI's X
// shares; export/otel sends cycles to a tracing backend as
// OpenTelemetry traces (export/otel/testreceiver, a module of its own, is
// the OTLP receiver its tests send to, which export/otel/otlptest starts);
// table is what a cycle did to each node as the tables every output draws
// (the Filter matrix cell by cell, the score order), and visible is how the text output and the TUI
// show a recorded string on a terminal (control characters and bidirectional
// overrides, isolates and marks escaped). Package input reads what a user
// hands schedscope, with bounds. Package source is the protocol between
// what a session comes from (a fixture's run, a recording, a live cluster)
// and what consumes it (the debugger and the headless commands alike).
package recorder
