// Package commands implements the kubectl-schedscope subcommands.
//
// Where things are: root.go builds the cobra tree and maps errors to exit
// codes. One file per command: sim.go (the debugger on a fixture), record.go,
// replay.go (with replay_index.go, the index a replay reads through, and
// replay_print.go, its headless output), explain.go, live.go (a real cluster,
// read-only; control.go is its pause/step/breakpoint gate and the event sink
// the TUI reads), snapshot.go (both read a cluster through cluster.go: the
// kubeconfig flags, --config and the connection), verify.go, rbac.go,
// version.go, and the what-if
// commands whatif.go, suggest.go and diff.go (worded in whatif_text.go;
// whatif_tui.go serves the TUI's what-if mode). simulate.go holds what the
// fixture commands share (flags, loading, --arrival); cycles_output.go picks
// and prints cycles for -o; text.go words a cycle for text output.
package commands
