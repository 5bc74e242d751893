// Package whatifscreen is what the debugger's two what-ifs (a pod's,
// pages/whatif, and a pod group's, pages/groupwhatif) share: the contract of
// a what-if screen as the root's stack holds it, the keys both decide once
// (the letters that open a what-if and the changes both menus offer, the
// list keys, back), the help lines of the menu, a prompt and a list, and the
// drawing of a panel over the bottom of what is under it.
package whatifscreen

import (
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// Screen is one what-if screen as the root's stack holds it. It holds its
// own state; what it needs of the session (a run, a message) it asks for
// with an A, which the root hands to the page that opened it.
type Screen[A any] interface {
	// Update takes a key or the mouse wheel. It returns the screen shown
	// next (itself, another screen of its what-if, or nil when the
	// what-if closes) and what it asks of the session.
	Update(msg tea.Msg) (Screen[A], A, tea.Cmd)
	// View draws the screen: the whole body, or, when Over, the panel
	// drawn over the bottom of what is under it.
	View() string
	// Over tells whether the screen is drawn over the bottom of what is
	// under it, as a completion menu is (the menus, the prompts).
	Over() bool
	// SetSize fits the screen to the body.
	SetSize(w, h int) Screen[A]
	// Keys is the help line's key map.
	Keys() help.KeyMap
	// Crumb is the screen's part of the title line's path.
	Crumb() string
}

// Over draws panel over the bottom lines of body, keeping body's line
// count; a panel taller than body keeps its last lines.
func Over(body []string, panel []string) string {
	if len(panel) >= len(body) {
		panel = panel[len(panel)-len(body):]
	}
	return strings.Join(append(body[:len(body)-len(panel):len(body)-len(panel)], panel...), "\n")
}
