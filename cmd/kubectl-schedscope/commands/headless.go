package commands

import (
	"context"
	"sync"

	"github.com/schedscope/schedscope/recorder/source"
)

// consume runs src without the debugger, handing its events to handle one at
// a time, in order. An error from handle stops the source and is returned;
// otherwise consume returns the source's.
func consume(ctx context.Context, src source.Source, handle func(source.Event) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	var stopped error
	err := src.Run(ctx, func(ev source.Event) bool {
		mu.Lock()
		defer mu.Unlock()
		if stopped != nil {
			return false
		}
		if stopped = handle(ev); stopped != nil {
			cancel()
			return false
		}
		return true
	})
	mu.Lock()
	defer mu.Unlock()
	if stopped != nil {
		return stopped
	}
	return err
}
