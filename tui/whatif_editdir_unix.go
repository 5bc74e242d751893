//go:build unix

package tui

import (
	"errors"
	"os"
	"syscall"
)

// processGone tells whether no process has pid: kill(pid, 0) fails with
// ESRCH. A process of another user (EPERM) is there.
func processGone(pid int) bool {
	if pid <= 0 {
		return false
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// ownedByUs tells whether path itself (not what a symbolic link points
// to) belongs to the current user.
func ownedByUs(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
