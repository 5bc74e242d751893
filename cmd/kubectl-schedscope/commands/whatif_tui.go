package commands

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/live"
	"github.com/schedscope/schedscope/engine/scenario"
	"github.com/schedscope/schedscope/engine/scenario/scenariohook"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui/pages/whatif"
)

// whatIfSource lets the TUI re-run cycles of the session. Over a fixture it
// forks the fixture at a cycle the first time it is asked about it (running
// the fixture up to that cycle on its own engine, never the session's) and
// keeps the fork for the next question. Over a live cluster it forks from the
// mirror, in memory, each time (the cluster moves on); nothing is sent to
// the cluster.
type whatIfSource struct {
	ctx  context.Context
	fork func(ctx context.Context, c *recorder.Cycle) (*engine.Fork, error)
	// cache keeps one fork per cycle (a fixture's forks never change).
	cache bool

	mu    sync.Mutex
	forks map[int]*forkEntry
}

// forkEntry is one cycle's fork, made once.
type forkEntry struct {
	once sync.Once
	f    *engine.Fork
	err  error
}

var _ whatif.Source = (*whatIfSource)(nil)

// newWhatIfSource returns the TUI's what-if over the fixture and the
// configuration of o; ctx ends the runs it starts.
func newWhatIfSource(ctx context.Context, o *simOptions) *whatIfSource {
	s := &whatIfSource{ctx: ctx, cache: true, forks: map[int]*forkEntry{}}
	s.fork = func(ctx context.Context, c *recorder.Cycle) (*engine.Fork, error) {
		// The re-run's cycle c.Seq must be c's pod: ForkAt says so in one
		// line when it is not.
		pod := ""
		if c.Pod.Name != "" {
			pod = c.Pod.Key()
		}
		// The library forks; the debugger's what-if re-runs the engine's
		// fork with runners of its own.
		var f *engine.Fork
		ctx = scenariohook.With(ctx, &scenariohook.Hooks{Forked: func(g *engine.Fork) { f = g }})
		if _, err := o.fork(ctx, scenario.At{Pod: pod, Cycle: c.Seq}); err != nil {
			return nil, err
		}
		return f, nil
	}
	return s
}

// newLiveWhatIfSource returns the TUI's what-if over a live session: forks
// of the mirrored cluster, in memory.
func newLiveWhatIfSource(ctx context.Context, l *live.Session) *whatIfSource {
	s := &whatIfSource{ctx: ctx, forks: map[int]*forkEntry{}}
	s.fork = func(_ context.Context, c *recorder.Cycle) (*engine.Fork, error) { return l.ForkAt(c) }
	return s
}

// forkAt returns the fork at cycle c.
func (s *whatIfSource) forkAt(c *recorder.Cycle) (*engine.Fork, error) {
	if c == nil {
		return nil, fmt.Errorf("no cycle to fork")
	}
	if !s.cache {
		return s.fork(s.ctx, c)
	}
	s.mu.Lock()
	e, ok := s.forks[c.Seq]
	if !ok {
		e = &forkEntry{}
		s.forks[c.Seq] = e
	}
	s.mu.Unlock()
	e.once.Do(func() { e.f, e.err = s.fork(s.ctx, c) })
	return e.f, e.err
}

// PodYAML implements whatif.Source.
func (s *whatIfSource) PodYAML(c *recorder.Cycle) ([]byte, error) {
	f, err := s.forkAt(c)
	if err != nil {
		return nil, err
	}
	return f.PodYAML()
}

// NodeYAML implements whatif.Source.
func (s *whatIfSource) NodeYAML(c *recorder.Cycle, node string) ([]byte, error) {
	f, err := s.forkAt(c)
	if err != nil {
		return nil, err
	}
	return f.NodeYAML(node)
}

// Run implements whatif.Source: as whatif does, the baseline is the recorded
// cycle, or an unchanged re-run where the search was sampled.
func (s *whatIfSource) Run(c *recorder.Cycle, changes []recorder.Change) (*whatif.Result, error) {
	f, err := s.forkAt(c)
	if err != nil {
		return nil, err
	}
	changed, err := f.With(changes...)
	if err != nil {
		return nil, err
	}
	res := &whatif.Result{Seq: c.Seq, Before: f.Recorded, Note: f.Note}
	if f.BaselineIsRerun() {
		// The baseline is an unchanged re-run: the sample of a search
		// sampled by a parallel filter varies run to run, and a live
		// fork's cluster has moved on.
		base, err := f.Run(s.ctx)
		if err != nil {
			return nil, err
		}
		note := "the search was sampled: compared with an unchanged re-run made the same way"
		if recorder.DiffCycles(f.Recorded, base.Cycle).Sampling != nil {
			note += " (its sample differs from the recorded one)"
		}
		if f.Note != "" {
			note = f.Note + "; compared with an unchanged re-run of it"
		}
		res.Note, res.Before = note, base.Cycle
	}
	after, err := changed.Run(s.ctx)
	if err != nil {
		return nil, err
	}
	res.After, res.Later = after.Cycle, after.Later
	res.Diff = recorder.DiffCycles(res.Before, after.Cycle)
	res.Landing, _ = after.Landing()
	for _, c := range changes {
		res.Changes = append(res.Changes, narrate.Change(c))
	}
	return res, nil
}

// Suggest implements whatif.Source.
func (s *whatIfSource) Suggest(c *recorder.Cycle) (*whatif.SuggestResult, error) {
	f, err := s.forkAt(c)
	if err != nil {
		return nil, err
	}
	r, err := engine.Suggest(s.ctx, f, engine.SuggestOptions{})
	if err != nil {
		return nil, err
	}
	out := &whatif.SuggestResult{Seq: c.Seq, Pod: r.Pod, Note: suggestNote(r)}
	for _, sg := range r.Suggestions {
		out.Suggestions = append(out.Suggestions, whatif.Suggestion{
			Text: sg.Text, Node: sg.Node, ViaPreemption: sg.ViaPreemption, Change: sg.Change,
		})
	}
	return out, nil
}

// suggestNote words how a search went, in one line.
func suggestNote(r *engine.SuggestResult) string {
	if r.Note != "" {
		return r.Note
	}
	parts := []string{fmt.Sprintf("re-ran the cycle %d times (budget %d) over %d candidate change(s)", r.Tried, r.Budget, r.Candidates)}
	if r.Unconfirmed > 0 {
		parts = append(parts, fmt.Sprintf("%d did not make it schedulable", r.Unconfirmed))
	}
	if r.Cut {
		parts = append(parts, "the budget cut the search")
	}
	return strings.Join(parts, "; ")
}
