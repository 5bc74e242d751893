package tui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"
)

// Run runs the debugger full-screen on the terminal over src's events until
// the user quits or ctx is done; src runs in the background and is stopped
// when the debugger ends. It returns the debugger's error, or else src's (a
// source stopped by the end of the session has none). opts.Events is set
// from src.
func Run(ctx context.Context, src Source, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s, srcDone := start(ctx, src)
	opts.Events = s.Events()
	err := runProgram(ctx, opts)
	cancel()
	srcErr := <-srcDone
	if err != nil {
		return err
	}
	if errors.Is(srcErr, context.Canceled) {
		return nil
	}
	return srcErr
}

// runProgram runs the bubbletea program until the user quits or ctx is done.
func runProgram(ctx context.Context, opts Options) error {
	p := tea.NewProgram(New(opts), tea.WithContext(ctx))
	_, err := p.Run()
	if err != nil && ctx.Err() != nil && errors.Is(err, tea.ErrProgramKilled) {
		return nil
	}
	return err
}
