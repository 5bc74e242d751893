package recorder

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A Leftover is the temporary file of an earlier writer of an output that
// ended before renaming it into place: a kill, a crash, a lost machine. A
// recording's leftover holds every cycle written before the writer ended;
// Reader and verify read it as any recording.
type Leftover struct {
	Path    string
	PID     int // the process that wrote it; 0 when its name does not say
	Size    int64
	ModTime time.Time
}

// Leftovers lists the leftovers beside path (as CreateAtomic resolves it)
// whose writer is no longer running. A temporary file of a running process
// is never listed: it is being written.
func Leftovers(path string) ([]Leftover, error) {
	target, err := resolveOutput(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(target)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil // nothing can be left in a directory not there
	}
	prefix := "." + filepath.Base(target) + ".tmp-"
	var out []Leftover
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		pid := 0
		if p, _, ok := strings.Cut(rest, "-"); ok {
			// .NAME.tmp-PID-RANDOM; the older .NAME.tmp-RANDOM names no writer.
			if n, err := strconv.Atoi(p); err == nil && n > 0 {
				pid = n
			}
		}
		if pid != 0 && !ProcessGone(pid) {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, Leftover{Path: filepath.Join(dir, e.Name()), PID: pid, Size: fi.Size(), ModTime: fi.ModTime()})
	}
	return out, nil
}
