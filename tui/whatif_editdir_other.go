//go:build !unix

package tui

// processGone cannot tell here: nothing is taken for stale.
func processGone(int) bool { return false }

// ownedByUs cannot tell here: nothing is taken for ours.
func ownedByUs(string) bool { return false }
