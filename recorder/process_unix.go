//go:build unix

package recorder

import (
	"errors"
	"syscall"
)

// ProcessGone says whether no process has pid (kill(pid, 0) fails with
// ESRCH), so that what a dead process left — a partial recording, an edit
// directory — can be told from what a running one is writing. A process of
// another user (EPERM) is there.
func ProcessGone(pid int) bool {
	if pid <= 0 {
		return false
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
