package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/components/nodetable"
	"github.com/schedscope/schedscope/tui/components/prompt"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
)

// promptMode is what the bottom-line prompt is open for.
type promptMode uint8

const (
	promptNone promptMode = iota
	promptCycleFilter
	promptNodeFilter
	promptCommand
	promptPodFilter
	promptMark
)

// openPrompt opens the bottom-line prompt for mode, starting from value.
func (m *Model) openPrompt(mode promptMode, value string) tea.Cmd {
	m.promptFor = mode
	r := prompt.Request{Prefix: "/", Value: value, Placeholders: placeholders(mode, m.prompt.Keys.Complete.Help().Key)}
	switch mode {
	case promptCommand:
		r.Prefix, r.Completions = ":", commandSuggestions()
	case promptMark:
		r.Prefix = fmt.Sprintf("note for cycle %d: ", m.marking.Seq)
	}
	return m.prompt.Open(r)
}

// commandSuggestions complete ":" commands with tab.
func commandSuggestions() []string {
	out := []string{"cycle ", "filter ", "fixtures", "group ", "help", "marked", "nodes", "pods", "problems", "quit"}
	for p := range cyclepage.NumPhases {
		out = append(out, "phase "+strings.ToLower(p.Short()))
	}
	for s := range nodetable.NumSorts {
		out = append(out, "sort "+s.String())
	}
	return out
}

// placeholders are what a prompt shows before anything is typed, longest
// first: the prompt shows the longest that fits. complete is the key that
// completes a command.
func placeholders(mode promptMode, complete string) []string {
	switch mode {
	case promptCommand:
		return []string{
			"cycle N|POD · phase NAME · filter TEXT · sort name|status|score|snapshot · problems · help · q (" + complete + " completes)",
			"cycle N · phase NAME · filter TEXT · sort KEY · help · q (" + complete + " completes)",
			"cycle N · phase P · filter T · sort K · help · q · " + complete + " completes",
		}
	case promptNodeFilter:
		return []string{"node name substring"}
	case promptMark:
		return []string{"what this cycle shows (enter keeps it beside the recording; an empty note unmarks)", "a note (empty unmarks)"}
	case promptPodFilter:
		return []string{"pod, state or node (pod:web state:unsch node:a)", "pod, state or node"}
	}
	return []string{
		"pod, node, outcome or plugin (pod:web node:a outcome:unsch plugin:taint disagree)",
		"text or pod:web node:a outcome:unsch plugin:taint disagree",
	}
}

// runCommand runs a ":" command.
func (m Model) runCommand(line string) (tea.Model, tea.Cmd) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return m, nil
	}
	arg := strings.Join(fields[1:], " ")
	switch fields[0] {
	case "q!":
		return m, tea.Quit
	case "q", "quit", "exit":
		return m.quit()
	case "cycle", "c":
		seq, err := strconv.Atoi(arg)
		if err != nil {
			i, problem := m.lastCycleOf(arg)
			if problem != "" {
				m.say("%s", problem)
				return m, nil
			}
			m.opts.Trace.seek(m.list.Entry(i).Seq)
			m.open(i)
			return m, nil
		}
		if i, ok := m.list.IndexOf(seq); ok {
			m.opts.Trace.seek(seq)
			m.open(i)
			return m, nil
		}
		m.say("no cycle %d", seq)
	case "phase", "p":
		// A name whole (any of narrate's names and aliases: predicates is
		// Filter), or the start of a short name or a name.
		p, whole := narrate.StepNamed(arg)
		var matches []string
		if !whole {
			var names [][]string
			for _, s := range narrate.Steps() {
				names = append(names, []string{strings.ToLower(s.Short), strings.ToLower(s.Name)})
			}
			p, matches = pick(arg, names)
		}
		switch {
		case arg == "":
			m.say(":phase NAME; %s lists the names", m.prompt.Keys.Complete.Help().Key)
		case p >= 0:
			if m.focus != focusCycle {
				m.open(m.list.Selected())
			}
			m.view.SetPhase(cyclepage.Phase(p))
		case len(matches) > 1:
			m.say("phase %q: %s?", arg, strings.Join(matches, " "))
		default:
			m.say("no phase %q; %s lists them", arg, m.prompt.Keys.Complete.Help().Key)
		}
	case "sort":
		names := make([][]string, nodetable.NumSorts)
		for s := range nodetable.NumSorts {
			names[s] = []string{s.String()}
		}
		s, matches := pick(arg, names)
		switch {
		case s >= 0:
			m.view.SetSort(nodetable.Sort(s))
		case len(matches) > 1:
			m.say("sort %q: %s?", arg, strings.Join(matches, " "))
		default:
			m.say("sort by name, status, score or snapshot")
		}
	case "filter":
		// As "/" does, where the keys are: nodes inside a cycle, cycles outside.
		if m.focus == focusCycle {
			m.setPromptValue(promptNodeFilter, arg)
		} else {
			m.setPromptValue(promptCycleFilter, arg)
		}
	case "help", "h", "?":
		m.openHelp()
	case "problems":
		m.openProblems()
	case "pods", "pod", "po":
		m.openPods()
		change(&m, func(l *podsLayer) { l.p.SetFilter(arg) })
	case "nodes", "node", "no":
		m.openNodes(arg)
	case "fixtures", "fixture", "fx":
		m.openFixtures()
	case "group", "pg", "podgroup":
		return m, m.openGroup(arg)
	case "marked", "marks":
		// The marked cycles, as the filter finds them.
		m.setFocus(focusList)
		m.setPromptValue(promptCycleFilter, "marked "+arg)
	default:
		m.say("no command %q; :help lists them", fields[0])
	}
	return m, nil
}

// lastCycleOf finds the last cycle (not a what-if's re-run) of the pod
// arg names: namespace/name, a name, or a workload's handle (deploy/web,
// deploy/shop/web#2) as every command takes one; problem says why there
// is none.
func (m Model) lastCycleOf(arg string) (i int, problem string) {
	if arg == "" {
		return 0, ":cycle wants a number or a pod (deploy/web#2, shop/web-…)"
	}
	tags, entries := m.list.Tags(), m.list.Entries()
	var order []int // the recorded cycles' indices, in the order they ran
	for k := range entries {
		if _, rerun := tags[k]; !rerun {
			order = append(order, k)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return entries[a].Seq - entries[b].Seq })
	key := arg
	h, isHandle, err := recorder.ParsePodHandle(arg)
	switch {
	case err != nil:
		return 0, err.Error()
	case isHandle:
		recorded := make([]recorder.CycleEntry, len(order))
		for k, i := range order {
			recorded[k] = entries[i]
		}
		if key, err = h.ResolveEntries(recorded); err != nil {
			return 0, err.Error()
		}
	}
	for k := len(order) - 1; k >= 0; k-- {
		p := entries[order[k]].Pod
		if p.Key() == key || (!strings.Contains(key, "/") && p.Name == key) {
			return order[k], ""
		}
	}
	return 0, fmt.Sprintf("no cycle of pod %q", arg)
}

// pick finds what arg names among options, each known by one or more names:
// a name itself, or a prefix of the names of only one option. When the
// prefix fits several, it returns -1 and their first names.
func pick(arg string, options [][]string) (int, []string) {
	arg = strings.ToLower(arg)
	if arg == "" {
		return -1, nil
	}
	found := -1
	var matches []string
	for i, names := range options {
		for _, n := range names {
			if n == arg {
				return i, nil
			}
		}
		for _, n := range names {
			if strings.HasPrefix(n, arg) {
				found = i
				matches = append(matches, names[0])
				break
			}
		}
	}
	if len(matches) == 1 {
		return found, nil
	}
	return -1, matches
}
