package tui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"
)

// Run runs the debugger full-screen on the terminal until the user quits or ctx is done.
func Run(ctx context.Context, opts Options) error {
	p := tea.NewProgram(New(opts), tea.WithContext(ctx))
	_, err := p.Run()
	if err != nil && ctx.Err() != nil && errors.Is(err, tea.ErrProgramKilled) {
		return nil
	}
	return err
}
