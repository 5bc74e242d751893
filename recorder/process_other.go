//go:build !unix

package recorder

// processRunning cannot tell on this system: every writer is taken as
// running, so no temporary file is ever called a leftover.
func processRunning(int) bool { return true }
