// Package tui is the schedscope debugger: a bubbletea program that steps through
// recorded scheduling cycles, live from the engine or from a recording file.
//
// It knows only recorder types and the small interfaces of recorder/source
// (what a session comes from), which cmd/ satisfies; it never imports
// Kubernetes.
//
// The screens are built from components in subpackages, each with New,
// Update returning its own type, View, SetSize and a KeyMap that implements
// help.KeyMap, so that hints and help are generated from key bindings. The
// compiler holds the boundaries: a component's state is its own, and the
// root model asks its children through methods.
//
// Where things are in this package:
//
//   - The program. run.go runs it over a Source; signals.go: what SIGINT,
//     SIGTERM and SIGHUP do to it; model.go is the root model
//     (routing keys and events to the stack's top, the keys that act
//     everywhere, the layout of the screen and its title); session.go: the
//     session's data (the source's events applied, a replay's cycles read
//     when shown, problems and messages); panes.go: the cycle list and the
//     cycle view under the stack (side by side when wide), their keys and
//     clicks; commands.go is what the / and : prompts are open for and
//     the : commands; stream.go is the Stream that carries a source's events to the model and
//     the Cmd that reads it; window.go opens cycles of an indexed replay on
//     demand and keeps a bounded window of them.
//   - Layers. layers.go: the screens over the panes (the "?" screen, the
//     problems, the nodes, the pods, the breakpoints form, the fixtures
//     list), each holding its own component; a stack whose top takes the
//     keys, a shelf where closed ones wait to open again as they were, the
//     shape of the components they adapt, and the one layer both what-ifs
//     show their screens in (screenLayer, over a page's root side).
//   - Modes. podsmode.go: the Pods view's layer and its stories' cycles
//     (esc goes back to the story). observed.go: the
//     live bindings collected. whatif.go: the what-if page (pages/whatif)
//     on the stack: what the root hands it (here), what it does for it
//     (takeOut), and its side of the screens' layer. podgroup.go:
//     the session's pod-group cycles, the layer of their page
//     (pages/podgroup), :group and the key that opens a member's group.
//     groupwhatif.go: a pod group's what-if (pages/groupwhatif) on the
//     stack over the pod-group page: what the root hands it from that
//     page (groupHere), what it asks back (takeGroupOut), its side of
//     the screens' layer (drawn over the pod-group page).
//   - Shared pieces. statusbar.go: the status line, from what it says
//     (status) in steps: the engine, the tallies, the breakpoints, the
//     problems, and fitting them with the message (a message too long
//     for it takes a line or two above it while it shows). firstrun.go: the
//     first-run hint over the list (not over a lesson). marks.go: m marks a cycle with a note
//     (MarkStore keeps it beside the recording). export.go: X writes the
//     cycle on screen to share (Options.Export). lesson.go: a lesson's panel
//     and how it follows the learner (Options.Lesson). keys.go: the root's keys,
//     the help that joins several key maps, and the sections of the "?"
//     screen. printable.go: making
//     recorded strings safe to draw. trace.go: frame times for the replay
//     benchmark.
//
// Subpackages:
//
//   - pages/cyclepage: the cycle view, one cycle phase by phase, composing
//     the phase views, the node detail and the explain panel: its state and
//     what the root asks of it (cyclepage.go), routing keys to the child on
//     screen (update.go), the layout and the generated hint (view.go), the
//     plugin the explain panel talks about (plugin.go), the phases, what ran
//     and the phase bar (phase.go), its
//     keys (keys.go).
//   - pages/whatif: the what-if page: the session's re-runs and the runs
//     under way, and what it asks of the root (page.go); its screens, each
//     a page on the root's stack with its own state (screens.go: the menu,
//     the prompts, the evict picker, an edit's error, the diff, suggest's
//     list, the YAML); the Source it re-runs cycles through and
//     the changes (source.go), its keys and the help of each screen
//     (keys.go), suggest's list (suggest.go), $EDITOR (editor.go) and the
//     session's private directory for the files it edits, with removing
//     those that killed sessions left (editdir.go, editdir_unix.go,
//     editdir_other.go).
//   - pages/groupwhatif: a pod group's what-if, opened with w and S on
//     the pod-group page: the session's runs under way and what they ask
//     of the root (page.go); the Source that runs the fixture again and
//     what it returns (source.go); the menu and its prompts (screens.go);
//     the group's cycle before and after, side by side (compare.go);
//     suggest's list, each with the command that shows it (suggest.go);
//     its keys and the help of each screen (keys.go).
//   - pages/podgroup: the pod-group page: one pod-group cycle, its
//     members × nodes with the tentative placements, PlacementFeasible's
//     verdicts, why minCount was not met, what was reverted, the group's
//     PostFilter and condition (podgroup.go); the candidate placements
//     generated and scored with TopologyAwareWorkloadScheduling
//     (placements.go); its keys (keys.go).
//   - components/queuephase, prefilterphase, postfilterphase, bindphase:
//     the text phases (Queue; PreFilter; PostFilter; Reserve … PostBind),
//     each a components/textphase (a pager over what the phase's Render
//     words) with its own Render. components/selectphase: Select host.
//   - components/nodephase: the node phases over one node table: the
//     node × plugin Filter matrix (and the diagnostic pass's), the Score and
//     NormalizeScore heatmaps, the weighted sums.
//   - components/nodetable: the node rows the node phases share (cursor,
//     sort, show by status, name filter).
//   - components/nodedetail: one node as a cycle saw it.
//   - components/explain: the explain panel (what a phase and plugin do,
//     with the legacy predicate/priority names learners know).
//   - components/diffview: a what-if re-run beside the cycle it changed.
//   - components/cyclelist: the timeline of cycles, with its filter, the
//     marks' ★ column and the what-if re-runs listed after their cycles
//     (one namespace is said once, in the header).
//   - components/pods: the Pods view: every pod's state, and a pod's story.
//   - components/nodes: the Nodes view (:nodes): every node as a cycle saw
//     it, and what the cycle did with it.
//   - components/helpscreen: the "?" screen, every key by where it works
//     (the root gives the sections), the commands and the glyph legends.
//   - components/breakpoints: the form that edits a live run's breakpoints.
//   - components/prompt: the / and : input, with tab completion.
//   - components/whatifscreen: what the two what-ifs (pages/whatif,
//     pages/groupwhatif) share: the screen contract the root's stack
//     holds, the keys both decide once, the help of a menu, a prompt and
//     a list, and a panel drawn over what is under it (whatifscreen.go,
//     keys.go); what a page takes from the session, how it words an error
//     and the run under way (options.go).
//   - components/problems: the problems and messages list.
//   - components/pager: lines in a scrolling window.
//   - internal/recordings: the recordings under testdata, for tests.
//     internal/golden: a component's drawn screen against its own
//     package's testdata/golden (-update rewrites them).
//   - components/pluginstatus: the plugin status table, the outcome line.
//   - components/livebinding: a live cluster's binding against the
//     prediction.
//   - analysis: what a cycle did to each node, computed once per cycle
//     (the Filter matrix is recorder/table's, which every output draws).
//   - podnames: the part of a pod's name that tells it from the others,
//     fitted to a cell by giving up its middle (the cycle list, the Pods
//     view and the cycle's header use it).
//   - glyph: the outcome glyphs. theme: the styles (NO_COLOR aware).
//     layout: fitting text into cells. keyhint: hint lines generated from
//     key bindings.
package tui
