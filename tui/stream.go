package tui

import tea "charm.land/bubbletea/v2"

// eventsMsg carries the events read from the source in one go; closed says the
// channel was closed after them.
type eventsMsg struct {
	events []Event
	closed bool
}

// maxBatch bounds how many already-waiting events one read collects, so that a
// fast replay renders in batches instead of once per cycle.
const maxBatch = 256

// waitForEvents reads the next events from ch. The root model re-arms it after
// every eventsMsg until the channel closes.
func waitForEvents(ch <-chan Event) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return eventsMsg{closed: true}
		}
		msg := eventsMsg{events: []Event{ev}}
		for len(msg.events) < maxBatch {
			select {
			case ev, ok := <-ch:
				if !ok {
					msg.closed = true
					return msg
				}
				msg.events = append(msg.events, ev)
			default:
				return msg
			}
		}
		return msg
	}
}

// controlDoneMsg reports that a Controller call returned.
type controlDoneMsg struct{}

// control calls the controller in a Cmd, off the update loop.
func control(f func()) tea.Cmd {
	return func() tea.Msg {
		f()
		return controlDoneMsg{}
	}
}
