// Package scenariohook lets schedscope's own commands watch and steer a
// run of engine/scenario as it goes — the debugger's pause and step, a
// recording written cycle by cycle, explain --pod's early stop — without
// adding them to the library's public API. The hooks travel in the run's
// context, as net/http/httptrace's do: scenario.Scenario.Run and its forks
// read them with From. It is not part of the library's contract (the API
// golden covers engine/scenario, not this package): it changes with the
// commands that use it, and a library user reads a run from its Result.
// It sits under engine/scenario rather than in an internal package because
// both the commands (cmd/) and the library import it, and the repository's
// top level holds no internal/.
package scenariohook

import (
	"context"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// Hooks are told what a run does as it happens. A hook left nil is not
// called, and what it would have been told is kept in the run's Result as
// it is without hooks; a hook that is set takes it instead (a run of
// 40 000 pods streamed to a recording keeps none of its cycles). Header,
// Queue, Cycle, PodGroup and Problem are called one at a time, in order,
// from the run's goroutines: none may block for long nor start a run.
type Hooks struct {
	// Engine, if set, changes the engine's options before the engine is
	// built: the debugger's Gate, explain --pod's Story.
	Engine func(*engine.Options)
	// Started is told the engine once it is built, before its run.
	Started func(*engine.Engine)
	// Header is told the recording's header, before anything else.
	Header func(recorder.Header)
	// Queue, Cycle and PodGroup are told each queue event, cycle and
	// pod-group cycle as it ends.
	Queue    func(*recorder.QueueEvent)
	Cycle    func(*recorder.Cycle)
	PodGroup func(*recorder.PodGroupCycle)
	// Problem is told, after Header, each error upstream code logged (an
	// *engine.UpstreamLogError, as it was logged) and each kind of object
	// the run leaves unread (an *Unused).
	Problem func(error)
	// End is told, once the run has settled, the pods that never had a
	// cycle and what the controllers left (nil when the run stopped early
	// once Story's story was told, stopped counting the pods it did not
	// get to).
	End func(never []recorder.PodState, cluster *recorder.ClusterState, stopped int)
	// Forked is told the engine's fork each time a scenario forks (the
	// debugger's what-if re-runs it with its own runner).
	Forked func(*engine.Fork)
}

type key struct{}

// With returns ctx carrying h: runs started with it call h's hooks.
func With(ctx context.Context, h *Hooks) context.Context {
	return context.WithValue(ctx, key{}, h)
}

// From returns the hooks ctx carries, or nil.
func From(ctx context.Context) *Hooks {
	h, _ := ctx.Value(key{}).(*Hooks)
	return h
}

// Unused is a kind of object a run leaves unread, told as a problem (the
// debugger lists it; explain prints it among the warnings).
type Unused struct{ recorder.Unused }

func (u *Unused) Error() string { return narrate.Unused(u.Unused) }
