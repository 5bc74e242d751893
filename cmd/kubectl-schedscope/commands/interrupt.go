package commands

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// interruptible returns ctx ended by the signals that stop a command: Ctrl-C
// (SIGINT), a pod's termination (SIGTERM) and a closed terminal (SIGHUP).
// context.Cause names the signal. Once the command has taken one, stop
// gives the next its default action, so that a second one ends the process
// at once.
func interruptible(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
}
