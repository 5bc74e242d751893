//go:build unix

package recorder

import (
	"errors"
	"syscall"
)

// processRunning says whether process pid exists. A process of another user
// that exists (EPERM) counts as running.
func processRunning(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
