package tui

import (
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/pages/whatif"
)

// endOnSignal makes SIGINT, SIGTERM and SIGHUP end the session whatever it
// is doing, $EDITOR running included: first the session's edit directory
// is removed (the editor ended before), then the program is told to end,
// as bubbletea's own handler would (SIGINT interrupts, the others quit).
// That handler, which Run turns off, drops signals while a program runs
// under tea.Exec and does not catch SIGHUP, so a session killed while
// editing left the manifest behind. Once a signal is taken the next one has
// its default action. stop releases the signals.
func endOnSignal(p *tea.Program, edits *whatif.EditDir) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
		case s := <-sigs:
			edits.Close()
			signal.Stop(sigs)
			if s == syscall.SIGINT {
				p.Send(tea.InterruptMsg{})
			} else {
				p.Quit()
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}
