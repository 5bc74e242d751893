// Package tui is the schedscope debugger: a bubbletea program that steps through
// recorded scheduling cycles, live from the engine or from a recording file.
//
// It knows only recorder types and the small interfaces in source.go, which cmd/
// satisfies; it never imports Kubernetes.
//
// Where things are:
//
//   - The program. run.go runs it over a Source; model.go is the root model
//     (routing keys and events, the layout of the screen); source.go is what
//     a session comes from (Source, which cmd/ implements for a fixture's
//     run, a recording and a live cluster), what it delivers (Event) and how
//     it is driven (Controller, Recording); stream.go is the Stream that
//     carries a source's events to the model and the Cmd that reads it;
//     window.go opens cycles of an indexed replay on demand and keeps a
//     bounded window of them.
//   - The cycle list and cycle view. cyclelist.go: the timeline of cycles.
//     cycleview.go: one cycle phase by phase, with phasebar.go (the phase tabs),
//     queueview.go (queue, PreFilter and status tables), filterview.go (the
//     node × plugin filter matrix), scoreview.go and weighted.go (raw,
//     normalized and weighted scores), selectview.go (the chosen host, ties and
//     losers), bindview.go (Reserve … PostBind), nodetable.go and
//     nodedetail.go (nodes, sorted and in detail), analysis.go (what a cycle
//     did to each node, computed once per cycle).
//   - Panels and modes. explain.go: the explain panel (what a phase and plugin
//     do, with the legacy predicate/priority names learners know). podsview.go
//     and podsmode.go: the Pods view and a pod's story. problems.go: the
//     problems list. breakpoints.go: breakpoints of a live run. observed.go:
//     live bindings compared with the cycles. whatif*.go and diffview.go: the
//     what-if mode, its edits (whatif_editor.go), suggestions
//     (whatif_suggest.go) and the diff of a re-run against its cycle.
//   - Shared pieces. statusbar.go: the status line. prompt.go: the / and :
//     input. keys.go: key maps (help is generated from them). styles.go,
//     glyphs.go and layout.go: colours, cell glyphs, fitting text.
//     printable.go: making recorded strings safe to draw. trace.go: frame
//     times for the replay benchmark.
package tui
