package tui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/tui/pages/whatif"
)

// Run runs the debugger full-screen on the terminal over src's events until
// the user quits or ctx is done; src runs in the background and is stopped
// when the debugger ends. It returns the debugger's error, or else src's (a
// source stopped by the end of the session has none). opts.Events is set
// from src.
func Run(ctx context.Context, src source.Source, opts Options) error {
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
// It first removes what killed sessions left in $TMPDIR.
func runProgram(ctx context.Context, opts Options) error {
	whatif.RemoveStaleEdits("")
	m := New(opts)
	return runModel(ctx, m, m.wi.Edits())
}

// runModel runs m until it quits, ctx is done or a signal ends it, then
// removes the session's edit directory, edits. popts add to the program's
// options (tests run it without a terminal).
func runModel(ctx context.Context, m tea.Model, edits *whatif.EditDir, popts ...tea.ProgramOption) error {
	defer edits.Close()
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithoutSignalHandler()}, popts...)...)
	defer endOnSignal(p, edits)()
	_, err := p.Run()
	if err != nil && ctx.Err() != nil && errors.Is(err, tea.ErrProgramKilled) {
		return nil
	}
	return err
}
