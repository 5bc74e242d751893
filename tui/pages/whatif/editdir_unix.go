//go:build unix

package whatif

import (
	"os"
	"syscall"
)

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
