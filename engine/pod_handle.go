package engine

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// ResolvePodHandle runs fx as Run does and names the pod a handle stands
// for (namespace/name); a pod's own name is returned as it is, without a
// run.
func ResolvePodHandle(ctx context.Context, fx *fixture.Fixture, opts Options, handle string) (string, error) {
	h, ok, err := recorder.ParsePodHandle(handle)
	if err != nil || !ok {
		return handle, err
	}
	var mu sync.Mutex
	var cycles []*recorder.Cycle
	onCycle := opts.OnCycle
	opts.OnCycle = func(c *recorder.Cycle) {
		if onCycle != nil {
			onCycle(c)
		}
		mu.Lock()
		cycles = append(cycles, c)
		mu.Unlock()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	e, err := New(ctx, fx, opts)
	if err != nil {
		return "", err
	}
	if _, err := e.Run(ctx); err != nil {
		return "", err
	}
	mu.Lock()
	defer mu.Unlock()
	slices.SortFunc(cycles, func(a, b *recorder.Cycle) int { return cmp.Compare(a.Seq, b.Seq) })
	name, err := h.Resolve(cycles)
	if err != nil {
		return "", fmt.Errorf("%s: %v", fx.Name, err)
	}
	return name, nil
}
