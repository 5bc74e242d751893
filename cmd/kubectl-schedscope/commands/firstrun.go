package commands

import (
	"os"
	"path/filepath"
)

// firstRunSeen is the file that says the first-run hint was seen, under the
// user's configuration directory ($XDG_CONFIG_HOME, else ~/.config).
const firstRunSeen = "schedscope/first-run-seen"

// firstRunHint returns what remembers that the TUI's first-run hint was
// seen, or nil when it is not to be shown: it was seen before, the output
// is not a terminal (a test, a pipe), or there is no configuration
// directory that can be written (a home that is not the user's, or
// read-only: the hint would come back each time).
func firstRunHint(out any) func() {
	if !isTerminal(out) {
		return nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil
	}
	return firstRunIn(dir)
}

// firstRunIn is firstRunHint with the configuration directory dir.
func firstRunIn(dir string) func() {
	marker := filepath.Join(dir, firstRunSeen)
	if _, err := os.Stat(marker); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(marker), 0o700); err != nil {
		return nil
	}
	probe, err := os.CreateTemp(filepath.Dir(marker), ".probe-*")
	if err != nil {
		return nil
	}
	probe.Close()
	os.Remove(probe.Name())
	return func() {
		_ = os.WriteFile(marker, []byte("schedscope showed its first-run hint here and it was closed; remove this file to see it again\n"), 0o600)
	}
}
