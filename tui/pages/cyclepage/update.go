package cyclepage

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/components/nodedetail"
	"github.com/schedscope/schedscope/tui/components/pager"
)

// enterPhase sets the node table up for the current phase.
func (v *Model) enterPhase() {
	v.scroll = 0
	defer v.updateKeys()
	if v.a == nil {
		return
	}
	switch point, bind := v.phase.bindPoint(); {
	case v.phase == Queue:
		v.queue.SetCycle(v.c)
	case v.phase == PreFilter:
		v.preFilter.SetCycle(v.c)
	case v.phase == PostFilter:
		v.postFilter.SetCycle(v.c)
	case v.phase == Select:
		v.selectHost.SetCycle(v.c, v.a)
		v.selectHost.SetObserved(v.observed)
	case bind:
		v.bind.SetCycle(v.c, point)
	}
	v.sizeText()
	if k, ok := v.phase.nodeKind(); ok {
		v.nodes.SetKind(k)
		v.nodes.SetSize(v.bodyWidth(), v.bodyHeight())
	}
}

// focusRejection puts the Filter matrix's plugin column on the plugin that
// rejected the selected node.
func (v *Model) focusRejection() {
	if v.phase == Filter {
		v.nodes.FocusRejection()
	}
}

// updateKeys enables the keys that have something to act on in the current
// phase, so that the key bar offers nothing that would do nothing.
func (v *Model) updateKeys() {
	ran := v.c != nil
	if ran {
		ran, _ = Ran(v.c, v.phase)
	}
	nodes := ran && v.phase.nodeRows() && v.detail == nil
	_, row := v.nodes.Selected()
	v.Keys.Detail.SetEnabled(nodes && row)
	v.nodes.SetActive(v.phase.nodeRows(), nodes)
}

// Back closes what is open inside the view (node detail, explain panel, a
// filter) and reports whether there was anything to close.
func (v *Model) Back() bool {
	switch {
	case v.detail != nil:
		v.detail = nil
	case v.explain.Close():
	case v.nodes.Name() != "":
		v.SetNodeFilter("")
	default:
		return false
	}
	v.updateKeys()
	v.SetSize(v.w, v.h)
	return true
}

// Update handles the cycle view's keys and mouse.
func (v Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if v.c == nil || v.pending != "" {
		return v, nil
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		v.handleKey(msg)
	case tea.MouseWheelMsg:
		v.moveRows(pager.Wheel(msg))
	}
	return v, nil
}

func (v *Model) handleKey(msg tea.KeyPressMsg) {
	if d := v.detail; d != nil && key.Matches(msg, d.Keys.Up, d.Keys.Down) {
		next, _ := d.Update(msg)
		v.detail = &next
		return
	}
	if v.textHandles(msg) {
		v.updateText(msg)
		return
	}
	if v.phase.nodeRows() && (v.detail == nil || key.Matches(msg, v.nodes.Keys.Diagnostic)) && v.nodes.Handles(msg) {
		v.nodes, _ = v.nodes.Update(msg)
		v.updateKeys()
		return
	}
	if n, ok := v.Keys.Step(msg, 2*v.page()); ok {
		v.moveRows(n)
		return
	}
	k := v.Keys
	switch {
	case key.Matches(msg, k.PrevPhase):
		if v.phase > 0 {
			v.goTo(v.phase - 1)
		}
	case key.Matches(msg, k.NextPhase):
		if v.phase < NumPhases-1 {
			v.goTo(v.phase + 1)
		}
	case key.Matches(msg, k.Detail):
		if node, ok := v.nodes.Selected(); ok {
			v.openDetail(node)
		}
	case key.Matches(msg, v.explain.Keys.Toggle):
		v.explain, _ = v.explain.Update(msg)
		v.SetSize(v.w, v.h)
	}
}

// openDetail opens the detail of node (an index into the cycle's node set).
func (v *Model) openDetail(node int) {
	d := nodedetail.New(v.st, v.c, v.a, node)
	d.SetUsage(v.nodeUsage())
	if v.indexed {
		d.AwaitUsage()
	}
	d.SetSize(v.bodyWidth(), v.bodyHeight())
	v.detail = &d
	v.updateKeys()
}

// OpenNode opens the detail of the node named name, over the Filter phase
// when the cycle filtered, and reports whether the cycle knows the node.
func (v *Model) OpenNode(name string) bool {
	if v.c == nil || v.a == nil {
		return false
	}
	n := v.a.NodeIndex(name)
	if n < 0 {
		return false
	}
	if ran, _ := Ran(v.c, Filter); ran && !v.phase.nodeRows() {
		v.phase = Filter
		v.enterPhase()
	}
	v.openDetail(n)
	return true
}

// textShown tells whether the body is a text phase view: a phase other than
// the node phases, that ran.
func (v *Model) textShown() bool {
	if v.c == nil || v.phase.nodeRows() {
		return false
	}
	ran, _ := Ran(v.c, v.phase)
	return ran
}

// textHandles tells whether msg is a key of the text phase view on screen.
func (v *Model) textHandles(msg tea.KeyPressMsg) bool {
	if !v.textShown() {
		return false
	}
	switch v.phase {
	case Queue:
		return v.queue.Handles(msg)
	case PreFilter:
		return v.preFilter.Handles(msg)
	case PostFilter:
		return v.postFilter.Handles(msg)
	case Select:
		return v.selectHost.Handles(msg)
	}
	return v.bind.Handles(msg)
}

// updateText passes msg to the text phase view on screen.
func (v *Model) updateText(msg tea.Msg) {
	switch v.phase {
	case Queue:
		v.queue, _ = v.queue.Update(msg)
	case PreFilter:
		v.preFilter, _ = v.preFilter.Update(msg)
	case PostFilter:
		v.postFilter, _ = v.postFilter.Update(msg)
	case Select:
		v.selectHost, _ = v.selectHost.Update(msg)
	default:
		v.bind, _ = v.bind.Update(msg)
	}
}

// scrollText scrolls the text phase view on screen by d lines.
func (v *Model) scrollText(d int) {
	switch v.phase {
	case Queue:
		v.queue.Scroll(d)
	case PreFilter:
		v.preFilter.Scroll(d)
	case PostFilter:
		v.postFilter.Scroll(d)
	case Select:
		v.selectHost.Scroll(d)
	default:
		v.bind.Scroll(d)
	}
}

// sizeText gives the text phase views the body's size.
func (v *Model) sizeText() {
	w, h := v.bodyWidth(), v.bodyHeight()
	v.queue.SetSize(w, h)
	v.preFilter.SetSize(w, h)
	v.postFilter.SetSize(w, h)
	v.bind.SetSize(w, h)
	v.selectHost.SetSize(w, h)
}

// page is how far a page key moves the node detail and a skipped phase's
// text: half the node rows (the body less a header line and three footer
// lines outside the node phases).
func (v *Model) page() int {
	rows := v.bodyHeight() - 4
	if v.phase.nodeRows() {
		rows = v.nodes.RowsHeight()
	}
	return max(max(rows, 1)/2, 1)
}

// moveRows moves the node cursor, the node detail or the text scroll.
func (v *Model) moveRows(d int) {
	switch {
	case v.detail != nil:
		v.detail.Scroll(d)
	case v.phase.nodeRows():
		v.nodes.Move(d)
	case v.textShown():
		v.scrollText(d)
	default:
		v.scroll = max(v.scroll+d, 0)
	}
}

// Click handles a click at (x, y) relative to the view.
func (v *Model) Click(x, y int) {
	if v.detail != nil || !v.phase.nodeRows() {
		return
	}
	v.nodes.Click(y - v.titleH - 1) // below the cycle header and the phase bar
}
