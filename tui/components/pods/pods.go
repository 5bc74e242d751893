// Package pods is the Pods view: every pod the session knows, one row
// each, with its state (Bound, Unschedulable, Nominated, Gated, Backoff, …);
// enter tells a pod's story: the cycles it got, or why it got none.
package pods

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/components/pager"
	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/podnames"
	"github.com/schedscope/schedscope/tui/theme"
)

// KeyMap holds the Pods view's keys.
type KeyMap struct {
	// The moving keys: up, down, a page, first and last.
	pager.KeyMap
	// Open shows the selected pod's story; in a story, it opens the
	// selected cycle in the cycle view.
	Open   key.Binding
	Sort   key.Binding
	Filter key.Binding
	Back   key.Binding
}

// DefaultKeyMap returns the Pods view's keys, k9s style.
func DefaultKeyMap() KeyMap {
	k := KeyMap{
		KeyMap: pager.DefaultKeyMap(),
		Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "story")),
		Sort:   key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort")),
		Filter: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Back:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
	k.Top.SetHelp("g", "first")
	k.Bottom.SetHelp("G", "last")
	return k
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Sort, k.Filter, k.Back}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown}, {k.Open, k.Sort, k.Filter, k.Back}}
}

// podSort is the order of the Pods view's rows.
type podSort uint8

const (
	podSortArrival podSort = iota // by first cycle; pods without one last
	podSortState                  // the pods that need a look first
	podSortName
	podSortOwner // a workload's pods together
	numPodSorts
)

func (s podSort) String() string {
	return [...]string{"arrival", "state", "name", "owner"}[s]
}

// stateRank orders states for the state sort: pods that need a look first.
func stateRank(state string) int {
	switch state {
	case recorder.PodError:
		return 0
	case recorder.PodUnschedulable:
		return 1
	case recorder.PodNominated:
		return 2
	case recorder.PodGated:
		return 3
	case recorder.PodNoProfile:
		return 4
	case recorder.PodBackoff:
		return 5
	case recorder.PodActive:
		return 6
	case recorder.PodNotAttempted:
		return 7
	case recorder.PodBound:
		return 8
	case recorder.PodPreBound:
		return 9
	}
	return 10
}

// Row is one pod of the Pods view: its state, and its cycles as indices
// into the session's cycles.
type Row struct {
	recorder.PodState
	// Cycles are indices into the session's entries, in order.
	Cycles []int
	// NoMessage says the message is in the last cycle, not read yet (a replay).
	NoMessage bool
	search    string
}

// OpenCycleMsg asks the model that shows the view to open cycle index
// Index (into the session's cycles) in the cycle view.
type OpenCycleMsg struct{ Index int }

// Model is the Pods view: every pod the session knows, one row each, with its
// state; enter tells a pod's story, the cycles it got or why it got none.
type Model struct {
	st   *theme.Styles
	Keys KeyMap

	pods   []Row
	rows   []int // indices into pods, filtered and sorted
	filter string
	sort   podSort
	// neverKnown says the source told which pods never got a cycle.
	neverKnown bool
	// cluster is what a fixture run's controllers left, once it ended.
	cluster *recorder.ClusterState

	entries []recorder.CycleEntry
	cycles  []*recorder.Cycle

	cursor, offset int
	// story is the index (into pods) of the pod whose story is open, or -1;
	// storyCursor selects one of its storyItems.
	story                 int
	storyCursor, storyOff int
	w, h                  int
}

// New returns an empty Pods view.
func New(st *theme.Styles) Model {
	return Model{st: st, Keys: DefaultKeyMap(), story: -1}
}

// SetSize sets the view's size.
func (p *Model) SetSize(w, h int) {
	p.w, p.h = w, h
	p.keepVisible()
}

// SetData computes the pods' states from the session's cycle entries (and
// the cycles read so far, for their messages; cycles is aligned with
// entries, nil where a replay has not read one) and the pods that never got
// a cycle; neverKnown says whether the source can tell those; queue holds
// the scheduling queue's events, which tell a pod's moves and make a pod
// the queue holds after its last cycle Backoff or Active; groups are the
// session's pod-group cycles, which give a member they never reached the
// message they sent it back with (recorder.GroupPodStates). Entries that are
// what-if re-runs (tagged) are left out. The selection stays on its pod.
func (p *Model) SetData(entries []recorder.CycleEntry, cycles []*recorder.Cycle, whatIf map[int]string, never []recorder.PodState, neverKnown bool, queue []*recorder.QueueEvent, groups []*recorder.PodGroupCycle) {
	selected, storyKey := p.selectedKey(), ""
	if p.story >= 0 && p.story < len(p.pods) {
		storyKey = p.pods[p.story].Pod.Key()
	}
	p.entries, p.cycles, p.neverKnown = entries, cycles, neverKnown
	byPod := map[string]int{}
	p.pods = p.pods[:0]
	for i := range entries {
		if _, ok := whatIf[i]; ok {
			continue
		}
		e := &entries[i]
		k := e.Pod.Key()
		at, ok := byPod[k]
		if !ok {
			at = len(p.pods)
			byPod[k] = at
			p.pods = append(p.pods, Row{PodState: recorder.PodState{Pod: recorder.PodRef{Namespace: e.Pod.Namespace, Name: e.Pod.Name, Owner: e.Pod.Owner}}})
		}
		r := &p.pods[at]
		r.Cycles = append(r.Cycles, i)
		r.Seqs = append(r.Seqs, e.Seq)
	}
	events := map[string][]recorder.QueueEvent{}
	var evOrder []string
	for _, ev := range queue {
		if ev.PodGroup != nil {
			continue // a pod group's own move, not a pod's
		}
		k := ev.Pod.Key()
		if _, ok := events[k]; !ok {
			evOrder = append(evOrder, k)
		}
		events[k] = append(events[k], *ev)
	}
	deleted := map[string]recorder.PodState{}
	for _, n := range never {
		if n.State == recorder.PodDeleted {
			deleted[n.Pod.Key()] = n
		}
	}
	for k := range p.pods {
		r := &p.pods[k]
		r.fromLast(entries, cycles)
		r.FollowQueue(events[r.Pod.Key()], entries[r.Cycles[len(r.Cycles)-1]].Start)
		if d, ok := deleted[r.Pod.Key()]; ok {
			r.Deleted(d)
		}
	}
	for _, n := range never {
		if _, ok := byPod[n.Pod.Key()]; ok {
			continue
		}
		byPod[n.Pod.Key()] = len(p.pods)
		if n.State == recorder.PodNotAttempted {
			n.FollowQueue(events[n.Pod.Key()], time.Time{})
		} else {
			n.Queue = events[n.Pod.Key()]
		}
		p.pods = append(p.pods, Row{PodState: n})
	}
	// Pods only the queue names: waiting for their first cycle (live, or a
	// run still going), or gated.
	for _, k := range evOrder {
		if _, ok := byPod[k]; ok {
			continue
		}
		evs := events[k]
		last := evs[len(evs)-1]
		if last.Op == recorder.QueueDelete {
			continue
		}
		st := recorder.PodState{Pod: last.Pod, State: recorder.PodNotAttempted}
		st.Pod.Node = ""
		if last.Gated {
			st.State = recorder.PodGated
		}
		st.FollowQueue(evs, time.Time{})
		byPod[k] = len(p.pods)
		p.pods = append(p.pods, Row{PodState: st})
	}
	// Victims, as the cycles loaded so far name them (a replay reads its
	// cycles on demand; an entry does not carry them).
	evicted := recorder.Evictions(cycles)
	var sent recorder.PodStateBuilder
	for _, g := range groups {
		sent.AddGroup(g)
	}
	for k := range p.pods {
		r := &p.pods[k]
		if e, ok := evicted[r.Pod.Key()]; ok {
			r.Evicted(e)
		}
		var last time.Time
		if len(r.Cycles) > 0 {
			last = entries[r.Cycles[len(r.Cycles)-1]].Start
		}
		msg := r.Message
		if sent.SentBack(&r.PodState, last); r.Message != msg {
			r.NoMessage = false
		}
		r.search = strings.ToLower(strings.Join([]string{"pod:" + r.Pod.Key(), "state:" + r.State, "node:" + r.Node, "queue:" + recorder.QueueOf(r.Queue), "owner:" + r.Pod.Owner.String()}, " "))
	}
	p.story = -1
	if at, ok := byPod[storyKey]; ok {
		p.story = at
	}
	p.setStoryKeys()
	p.apply(selected)
}

// fromLast sets the row's state from its last cycle, as recorder.PodStates does.
func (r *Row) fromLast(entries []recorder.CycleEntry, cycles []*recorder.Cycle) {
	last := r.Cycles[len(r.Cycles)-1]
	e := &entries[last]
	switch {
	case e.Result == recorder.ResultBound:
		r.State, r.Node = recorder.PodBound, e.Node
	case e.NominatedNode != "":
		r.State, r.Node = recorder.PodNominated, e.NominatedNode
	case e.Result == recorder.ResultError:
		r.State = recorder.PodError
	default:
		r.State = recorder.PodUnschedulable
	}
	if last < len(cycles) && cycles[last] != nil {
		o := cycles[last].Outcome
		r.Reason, r.Message = o.Reason, o.Message
		return
	}
	r.NoMessage = r.State != recorder.PodBound
}

func (p *Model) selectedKey() string {
	if r := p.selected(); r != nil {
		return r.Pod.Key()
	}
	return ""
}

// selected is the pod under the cursor, or nil.
func (p *Model) selected() *Row {
	if p.cursor < 0 || p.cursor >= len(p.rows) {
		return nil
	}
	return &p.pods[p.rows[p.cursor]]
}

// Filter returns the active filter.
func (p Model) Filter() string { return p.filter }

// SetFilter narrows the rows to pods whose name, state or node contain every
// word of f; "pod:", "state:" and "node:" restrict a word to one field.
func (p *Model) SetFilter(f string) {
	p.filter = strings.TrimSpace(f)
	p.apply(p.selectedKey())
}

// apply filters and sorts the rows, keeping the cursor on the pod keyed sel.
func (p *Model) apply(sel string) {
	p.rows = p.rows[:0]
	words := strings.Fields(strings.ToLower(p.filter))
	for i := range p.pods {
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(p.pods[i].search, w)
		}
		if ok {
			p.rows = append(p.rows, i)
		}
	}
	switch p.sort {
	case podSortArrival:
		// Cycles reach the view in the order they end; a preemption's cycle
		// is held until its victims are known, so order by cycle number.
		slices.SortStableFunc(p.rows, func(a, b int) int {
			return cmp.Compare(firstSeq(p.pods[a].Seqs), firstSeq(p.pods[b].Seqs))
		})
	case podSortState:
		slices.SortStableFunc(p.rows, func(a, b int) int {
			return cmp.Compare(stateRank(p.pods[a].State), stateRank(p.pods[b].State))
		})
	case podSortName:
		slices.SortStableFunc(p.rows, func(a, b int) int {
			return cmp.Compare(p.pods[a].Pod.Key(), p.pods[b].Pod.Key())
		})
	case podSortOwner:
		// A workload's pods together, in arrival order; bare pods last.
		slices.SortStableFunc(p.rows, func(a, b int) int {
			oa, ob := p.pods[a].Pod.Owner, p.pods[b].Pod.Owner
			if (oa == nil) != (ob == nil) {
				return cmp.Compare(b2i(oa == nil), b2i(ob == nil))
			}
			if c := cmp.Compare(p.pods[a].Pod.Namespace+"/"+oa.String(), p.pods[b].Pod.Namespace+"/"+ob.String()); c != 0 {
				return c
			}
			return cmp.Compare(firstSeq(p.pods[a].Seqs), firstSeq(p.pods[b].Seqs))
		})
	}
	p.cursor = 0
	for r, i := range p.rows {
		if p.pods[i].Pod.Key() == sel {
			p.cursor = r
		}
	}
	p.keepVisible()
}

// InStory reports whether a pod's story is open.
func (p Model) InStory() bool { return p.story >= 0 }

// Back closes the story, then clears the filter; it reports false when there
// was nothing to go back from (then the view itself closes).
func (p *Model) Back() bool {
	switch {
	case p.story >= 0:
		p.story = -1
		p.setStoryKeys()
		return true
	case p.filter != "":
		p.SetFilter("")
		return true
	}
	return false
}

// ShowStory opens the story of the pod named key, if the view holds it.
func (p *Model) ShowStory(key string) bool {
	for i := range p.pods {
		if p.pods[i].Pod.Key() == key {
			p.story, p.storyOff = i, 0
			items := p.storyItems()
			p.storyCursor = max(len(items)-1, 0)
			for k, it := range items {
				if it.ev == nil {
					p.storyCursor = k // the last cycle
				}
			}
			p.setStoryKeys()
			return true
		}
	}
	return false
}

// setStoryKeys words and enables the keys for the list or the story.
func (p *Model) setStoryKeys() {
	in := p.story >= 0
	p.Keys.Sort.SetEnabled(!in)
	p.Keys.Filter.SetEnabled(!in)
	p.Keys.Open.SetHelp("enter", "story")
	if in {
		p.Keys.Open.SetHelp("enter", "open cycle")
		p.Keys.Open.SetEnabled(len(p.pods[p.story].Cycles) > 0)
	} else {
		p.Keys.Open.SetEnabled(true)
	}
}

// Update moves the cursor, cycles the sort and opens stories; enter on a
// story's cycle returns a Cmd asking the root to open that cycle.
func (p Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	move := 0
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		k := p.Keys
		if n, ok := k.Step(msg, p.bodyHeight()); ok {
			move = n
			break
		}
		switch {
		case key.Matches(msg, k.Sort):
			p.sort = (p.sort + 1) % numPodSorts
			p.apply(p.selectedKey())
		case key.Matches(msg, k.Open):
			if p.story >= 0 {
				items := p.storyItems()
				if p.storyCursor >= 0 && p.storyCursor < len(items) && items[p.storyCursor].ev == nil {
					i := items[p.storyCursor].cycle
					return p, func() tea.Msg { return OpenCycleMsg{Index: i} }
				}
				return p, nil
			}
			if r := p.selected(); r != nil {
				p.ShowStory(r.Pod.Key())
			}
		}
	case tea.MouseWheelMsg:
		move = pager.Wheel(msg)
	}
	if move != 0 {
		if p.story >= 0 {
			n := len(p.storyItems())
			p.storyCursor = layout.Clamp(p.storyCursor+layout.Clamp(move, -n, n), 0, max(n-1, 0))
		} else {
			p.cursor = layout.Clamp(p.cursor+layout.Clamp(move, -len(p.rows), len(p.rows)), 0, max(len(p.rows)-1, 0))
			p.keepVisible()
		}
	}
	return p, nil
}

// bodyHeight is how many pod rows fit: the view less its title, its column
// header and its footer.
func (p *Model) bodyHeight() int { return max(p.h-4, 1) }

func (p *Model) keepVisible() {
	p.offset = layout.ScrollTo(p.offset, p.cursor, p.bodyHeight(), len(p.rows))
}

// Crumb names where the view is, for the title line.
func (p Model) Crumb() string {
	c := "pods"
	if p.filter != "" {
		c += " /" + p.filter
	}
	if p.story >= 0 {
		c += " › " + p.pods[p.story].Pod.Key()
	}
	return c
}

// stateStyle is the theme's colour for a pod state.
func (p Model) stateStyle(state string) lipgloss.Style {
	switch state {
	case recorder.PodBound, recorder.PodPreBound:
		return p.st.Success
	case recorder.PodUnschedulable:
		return p.st.Unschedulable
	case recorder.PodNominated, recorder.PodBackoff:
		return p.st.Wait
	case recorder.PodError:
		return p.st.Error
	}
	return p.st.Skip
}

// View renders the list, or the open story.
func (p Model) View() string {
	if p.w <= 0 || p.h <= 0 {
		return ""
	}
	if p.story >= 0 {
		return strings.Join(layout.Box(p.storyLines(), p.w, p.h), "\n")
	}
	lines := []string{p.summary(), p.clusterLine()}
	// Columns as wide as what they hold, within bounds; the message takes
	// the rest.
	oneNS := p.namespace() != ""
	var names podnames.Set
	for i := range p.pods {
		names.Add(p.pods[i].Pod)
	}
	name, state, node, tries, owner := 4, 13, 4, 5, 0
	if p.owned() {
		owner = 5
	}
	for _, i := range p.rows {
		name = max(name, len(p.podName(&p.pods[i], oneNS)))
		node = max(node, len(p.pods[i].Node))
		if owner > 0 {
			owner = max(owner, len(p.pods[i].Pod.Owner.String()))
		}
	}
	name, node, owner = min(name, max(p.w/4, 20)), min(node, max(p.w/8, 12)), min(owner, max(p.w/5, 16))
	gap := 0
	if owner > 0 {
		gap = 1
	}
	msgW := max(p.w-2-name-state-node-tries-owner-gap-4, 0)
	row := func(n, o, s, nd, t, m string) string {
		out := layout.Fit(n, name) + " "
		if owner > 0 {
			out += layout.Fit(o, owner) + " "
		}
		return out + layout.Fit(s, state) + " " + layout.Fit(nd, node) + " " + layout.FitLeft(t, tries) + " " + layout.Fit(m, msgW)
	}
	lines = append(lines, p.st.Header.Render("  "+row("POD", "OWNER", "STATE", "NODE", "TRIES", "MESSAGE")))
	if len(p.rows) == 0 {
		msg := "no pods yet: they appear with their first cycle"
		if p.filter != "" {
			msg = fmt.Sprintf("no pod matches %q (%s clears)", p.filter, p.Keys.Back.Help().Key)
		}
		lines = append(lines, "  "+p.st.Dim.Render(msg))
	}
	end := min(p.offset+p.bodyHeight(), len(p.rows))
	for r := p.offset; r < end; r++ {
		pr := &p.pods[p.rows[r]]
		msg := narrate.PodMessage(pr.PodState)
		switch hint := narrate.PodHint(pr.PodState); {
		case pr.NoMessage:
			msg = p.st.Dim.Render(p.Keys.Open.Help().Key + ", then open the cycle for its message")
		case pr.State == recorder.PodGated && hint != "" || msg == "":
			msg = hint
		}
		switch {
		case pr.State == recorder.PodBackoff && !pr.BackoffUntil.IsZero():
			msg = "until " + pr.BackoffUntil.UTC().Format("15:04:05.000") + " · " + msg
		case pr.State == recorder.PodActive && msg == "":
			msg = "in activeQ, about to be tried"
		}
		node := pr.Node
		if node == "" {
			node = "-"
		}
		ownerName := pr.Pod.Owner.String()
		if ownerName == "" {
			ownerName = "-"
		}
		line := row(p.podCell(pr, oneNS, &names, name), ownerName, p.stateStyle(pr.State).Render(pr.State), node, fmt.Sprint(len(pr.Cycles)), flatten(msg))
		if r == p.cursor {
			lines = append(lines, p.st.Selected.Render("▸ "+layout.Fit(ansi.Strip(line), p.w-2)))
			continue
		}
		lines = append(lines, "  "+line)
	}
	out := layout.Box(lines, p.w, p.h-1)
	return strings.Join(append(out, p.footer()), "\n")
}

// namespace is the namespace every pod is in, or "" when they are in several.
func (p Model) namespace() string {
	ns := ""
	for i, r := range p.pods {
		if i > 0 && r.Pod.Namespace != ns {
			return ""
		}
		ns = r.Pod.Namespace
	}
	return ns
}

// podName is a row's pod: its name when all pods share a namespace (the
// summary names it), namespace/name otherwise.
func (p Model) podName(r *Row, oneNS bool) string {
	if oneNS {
		return r.Pod.Name
	}
	return r.Pod.Key()
}

// podCell is a row's pod fitted to w cells, keeping the part of its name
// that tells it from the other pods (replicas differ in a suffix).
func (p Model) podCell(r *Row, oneNS bool, names *podnames.Set, w int) string {
	s, shared := r.Pod.Key(), names.Shared(r.Pod)
	if oneNS {
		s, shared = r.Pod.Name, shared-len(r.Pod.Namespace)-1
	}
	return podnames.Fit(s, shared, w)
}

// Position is "cursor/rows" for the title line, or the story's cycle.
func (p Model) Position() string {
	if p.story >= 0 {
		if n := len(p.storyItems()); n > 0 {
			return fmt.Sprintf("%d/%d", p.storyCursor+1, n)
		}
		return ""
	}
	if len(p.rows) == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", p.cursor+1, len(p.rows))
}

// flatten joins a message's lines, for a table cell.
func flatten(s string) string { return strings.Join(strings.Fields(s), " ") }

// summary counts the pods by state, with the sort in effect.
func (p Model) summary() string {
	counts := map[string]int{}
	for _, r := range p.pods {
		counts[r.State]++
	}
	title := fmt.Sprintf("Pods (%d)", len(p.pods))
	if ns := p.namespace(); ns != "" {
		title += " in " + ns
	}
	parts := []string{p.st.Title.Render(title)}
	for _, s := range []string{recorder.PodBound, recorder.PodUnschedulable, recorder.PodNominated, recorder.PodError, recorder.PodBackoff, recorder.PodActive, recorder.PodGated, recorder.PodNoProfile, recorder.PodNotAttempted, recorder.PodPreBound, recorder.PodPreempted, recorder.PodDeleted} {
		if n := counts[s]; n > 0 {
			parts = append(parts, p.stateStyle(s).Render(fmt.Sprintf("%d %s", n, s)))
		}
	}
	return strings.Join(parts, "  ")
}

// footer says the sort in effect and what the view cannot know.
func (p Model) footer() string {
	return p.known() + p.st.Dim.Render(" · sorted by "+p.sort.String())
}

func (p Model) known() string {
	if p.neverKnown {
		// A pod that arrived bound needed no cycle; one still waiting did.
		never, bound := 0, 0
		for _, r := range p.pods {
			switch {
			case len(r.Cycles) > 0:
			case recorder.Placed(r.State):
				bound++
			default:
				never++
			}
		}
		var parts []string
		if never > 0 {
			parts = append(parts, fmt.Sprintf("%d pod(s) never got a cycle", never))
		}
		if bound > 0 {
			parts = append(parts, fmt.Sprintf("%d arrived bound (the scheduler only counts them)", bound))
		}
		if len(parts) == 0 {
			return p.st.Dim.Render("  every pod got a cycle")
		}
		return p.st.Dim.Render(fmt.Sprintf("  %s: %s tells why", strings.Join(parts, ", "), p.Keys.Open.Help().Key))
	}
	return p.st.Dim.Render("  only pods with a cycle: pods that never got one are known in sim only")
}

// storyLines tells the open pod's story: where it stands, then each cycle.
func (p Model) storyLines() []string {
	pr := &p.pods[p.story]
	st := p.stateStyle(pr.State)
	head := p.st.Title.Render(pr.Pod.Key()) + "  " + st.Render(pr.State)
	if pr.Node != "" {
		head += " " + pr.Node
	}
	lines := []string{head, ""}
	say := func(label, text string) {
		if text == "" {
			return
		}
		w := layout.Wrap(flatten(text), max(p.w-4-len(label), 20), "")
		for i, l := range w {
			lead := strings.Repeat(" ", len(label))
			if i == 0 {
				lead = p.st.Dim.Render(label)
			}
			lines = append(lines, "  "+lead+l)
		}
	}
	if pr.State == recorder.PodBackoff && !pr.BackoffUntil.IsZero() {
		lines[0] += p.st.Dim.Render(fmt.Sprintf(" until %s, after %d attempt(s)", pr.BackoffUntil.UTC().Format("15:04:05.000"), pr.Attempts))
	}
	msg := narrate.PodMessage(pr.PodState)
	switch {
	case len(pr.Cycles) == 0:
		if recorder.Placed(pr.State) {
			say("no cycle:        ", narrate.NeverAttempted(pr.State)) // it needed none
		} else {
			say("never attempted: ", narrate.NeverAttempted(pr.State))
		}
		if pr.Reason != "" {
			say("PodScheduled:    ", strings.TrimSpace(pr.Reason+" "+quoted(msg)))
		} else {
			say("why:             ", msg)
		}
		say("what would help: ", narrate.PodHint(pr.PodState))
		if len(pr.Queue) == 0 {
			return lines
		}
		lines = append(lines, "")
	case pr.Message != "":
		say("PodScheduled: ", strings.TrimSpace(pr.Reason+" "+quoted(pr.Message)))
		lines = append(lines, "")
	case msg != "":
		say("why: ", msg)
		lines = append(lines, "")
	}
	title := fmt.Sprintf("  Cycles (%d)", len(pr.Cycles))
	if len(pr.Queue) > 0 {
		title += fmt.Sprintf(" and queue events (%d)", len(pr.Queue))
	}
	lines = append(lines, p.st.Header.Render(title))
	var rows []string
	items := p.storyItems()
	for k, it := range items {
		line := ""
		if it.ev != nil {
			line = p.storyQueue(it.ev)
		} else {
			line = p.storyCycle(it.cycle, it.early)
		}
		if k == p.storyCursor {
			rows = append(rows, p.st.Selected.Render("▸ "+layout.Fit(ansi.Strip(line), p.w-2)))
			continue
		}
		rows = append(rows, "  "+line)
	}
	// The selected queue event whole, below, when its line was cut.
	var detail []string
	if k := p.storyCursor; k >= 0 && k < len(items) && items[k].ev != nil {
		if text := narrate.QueueEvent(items[k].ev); len([]rune(text))+24 > p.w {
			detail = append([]string{""}, layout.Wrap(text, max(p.w-4, 20), "    ")...)
			for i := 1; i < len(detail); i++ {
				detail[i] = "  " + p.st.Dim.Render(detail[i])
			}
		}
	}
	room := max(p.h-len(lines)-len(detail), 1)
	off := layout.ScrollTo(0, p.storyCursor, room, len(rows))
	lines = append(lines, rows[off:min(off+room, len(rows))]...)
	if len(lines)+len(detail) <= p.h {
		lines = append(lines, detail...)
	}
	return lines
}

// storyItem is one line of a story: a cycle (an index into the session's
// entries) or a queue event.
type storyItem struct {
	cycle int
	ev    *recorder.QueueEvent
	early bool // a cycle taken from backoffQ before its backoff ended
}

// storyItems are the open story's cycles and queue events in time order.
func (p Model) storyItems() []storyItem {
	if p.story < 0 || p.story >= len(p.pods) {
		return nil
	}
	pr := &p.pods[p.story]
	starts := make([]time.Time, len(pr.Cycles))
	for k, i := range pr.Cycles {
		starts[k] = p.entries[i].Start
	}
	story := narrate.Story(starts, pr.Queue)
	items := make([]storyItem, len(story))
	for k, it := range story {
		items[k] = storyItem{ev: it.Event, early: it.Early}
		if it.Event == nil {
			items[k].cycle = pr.Cycles[it.Cycle]
		}
	}
	return items
}

// storyQueue is one queue event of a story, in one line: the event that
// moved the pod, what each plugin's queueing hint said, where it went.
func (p Model) storyQueue(ev *recorder.QueueEvent) string {
	text := narrate.QueueEvent(ev)
	style := p.st.Dim
	switch {
	case ev.Op == recorder.QueueSkip:
	case ev.To == recorder.QueueBackoff:
		style = p.st.Wait
	case ev.To == recorder.QueueActive:
		style = p.st.Success
	}
	return strings.Join([]string{layout.FitLeft("⇢", 5), p.st.Dim.Render(ev.Time.UTC().Format("15:04:05.000")), style.Render(text)}, "  ")
}

// storyCycle is one cycle of a story: what it did, in one line.
func (p Model) storyCycle(i int, early bool) string {
	e := &p.entries[i]
	var c *recorder.Cycle
	if i < len(p.cycles) {
		c = p.cycles[i]
	}
	parts := []string{layout.FitLeft(fmt.Sprint(e.Seq), 5), p.st.Dim.Render(e.Start.UTC().Format("15:04:05.000")), fmt.Sprintf("try %d", e.Attempt)}
	if early {
		parts[2] += p.st.Dim.Render(" (" + narrate.EarlyPop + ")")
	}
	switch e.Result {
	case recorder.ResultBound:
		parts = append(parts, p.st.Success.Render("✓ bound "+e.Node))
	case recorder.ResultUnschedulable:
		if e.NominatedNode != "" {
			parts = append(parts, p.st.Wait.Render("✗ preempted, nominated "+e.NominatedNode))
		} else {
			parts = append(parts, p.st.Unschedulable.Render("✗ Unschedulable"))
		}
	default:
		parts = append(parts, p.st.Error.Render("! "+e.Result))
	}
	if c != nil && c.FastPath != nil {
		// The outcome comes first: a narrow window cuts what follows.
		fp := c.FastPath
		verdict := p.st.Unschedulable.Render("did not fit")
		if fp.Feasible {
			verdict = p.st.Success.Render("fit")
		}
		parts = append(parts, fmt.Sprintf("%s fast path: %s %s", fp.Kind, fp.Node, verdict))
	}
	switch {
	case c != nil && e.Result != recorder.ResultBound && c.Outcome.Message != "":
		parts = append(parts, flatten(c.Outcome.Message))
	case c == nil && e.Result != recorder.ResultBound:
		parts = append(parts, p.st.Dim.Render(p.Keys.Open.Help().Key+" opens it, with its message"))
	}
	return strings.Join(parts, "  ")
}

// firstSeq is the number of a pod's first cycle, or the largest int for a
// pod without one.
func firstSeq(seqs []int) int {
	if len(seqs) == 0 {
		return math.MaxInt
	}
	return slices.Min(seqs)
}

func quoted(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf("%q", s)
}

// All are every pod known, in the order they came.
func (p Model) All() []Row { return p.pods }

// Rows are the pods shown, filtered and sorted.
func (p Model) Rows() []Row {
	out := make([]Row, len(p.rows))
	for k, i := range p.rows {
		out[k] = p.pods[i]
	}
	return out
}

// StoryCursor is the line of the open story the cursor is on.
func (p Model) StoryCursor() int { return p.storyCursor }

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}

// owned says whether some pod of the view has an owner: the view then
// shows an OWNER column.
func (p Model) owned() bool {
	for _, r := range p.pods {
		if r.Pod.Owner != nil {
			return true
		}
	}
	return false
}

// SetCluster gives the view what a fixture run's controllers left (nil
// while the run goes on, and in live mode and replays).
func (p *Model) SetCluster(st *recorder.ClusterState) { p.cluster = st }

// clusterLine sums up, on one line, what the run's controllers left: each
// workload's pods placed of those it asks for, each budget's allowed
// disruptions, the claims by phase; "" when there is none of it.
func (p Model) clusterLine() string {
	st := p.cluster
	if st == nil || len(st.Workloads)+len(st.Budgets)+len(st.Claims) == 0 {
		return ""
	}
	var parts []string
	for _, w := range st.Workloads {
		placed := len(w.Pods) - w.Pending()
		style := p.st.Success
		if placed < int(w.Desired) {
			style = p.st.Unschedulable
		}
		parts = append(parts, style.Render(fmt.Sprintf("%s/%s %d/%d", w.Kind, w.Name, placed, w.Desired)))
	}
	for _, b := range st.Budgets {
		parts = append(parts, fmt.Sprintf("budget %s: %d allowed", b.Name, b.DisruptionsAllowed))
	}
	phases := map[string]int{}
	var order []string
	for _, c := range st.Claims {
		if phases[c.Phase] == 0 {
			order = append(order, c.Phase)
		}
		phases[c.Phase]++
	}
	for _, ph := range order {
		parts = append(parts, fmt.Sprintf("%d claim(s) %s", phases[ph], ph))
	}
	return layout.Fit(p.st.Dim.Render("at the end: ")+strings.Join(parts, p.st.Dim.Render(" · ")), p.w)
}
