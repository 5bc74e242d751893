package recorder

import (
	"fmt"
	"os"
)

// RotatingWriter is a flight recorder: it writes a recording to a file and,
// when the file grows past a size, renames it to FILE.1 (FILE.1 to FILE.2, …,
// keeping a number of old files) and starts a new one. Each file is a complete
// recording with its own header and node sets, so any of them replays alone.
type RotatingWriter struct {
	path   string
	max    int64
	keep   int
	header Header
	f      *os.File
	w      *Writer
	// usage follows the NodeUse deltas written; the first cycle of each new
	// file carries all of it, so that file alone rebuilds what was on nodes.
	usage *Usage
	fresh bool
}

// NewRotatingWriter creates path (replacing an existing file), with mode
// 0600, and writes the header. The file is written in place so that replay
// --follow can read it as it grows.
// maxBytes ≤ 0 means never rotate.
func NewRotatingWriter(path string, h Header, maxBytes int64, keep int) (*RotatingWriter, error) {
	r := &RotatingWriter{path: path, max: maxBytes, keep: keep, header: h, usage: NewUsage()}
	if err := r.open(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *RotatingWriter) open() error {
	f, err := CreateFile(r.path)
	if err != nil {
		return err
	}
	w, err := NewWriter(f, r.header)
	if err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", r.path, err)
	}
	r.f, r.w = f, w
	return nil
}

// rotate closes the current file, shifts the old ones and opens a new one.
func (r *RotatingWriter) rotate() error {
	if err := r.f.Close(); err != nil {
		return err
	}
	if r.keep <= 0 {
		if err := os.Remove(r.path); err != nil {
			return err
		}
		r.fresh = true
		return r.open()
	}
	for i := r.keep - 1; i >= 1; i-- {
		old := fmt.Sprintf("%s.%d", r.path, i)
		if _, err := os.Stat(old); err == nil {
			if err := os.Rename(old, fmt.Sprintf("%s.%d", r.path, i+1)); err != nil {
				return err
			}
		}
	}
	if err := os.Rename(r.path, r.path+".1"); err != nil {
		return err
	}
	r.fresh = true
	return r.open()
}

func (r *RotatingWriter) after(err error) error {
	if err != nil {
		return fmt.Errorf("%s: %w", r.path, err)
	}
	if r.max > 0 && r.w.off >= r.max {
		if err := r.rotate(); err != nil {
			return fmt.Errorf("rotating %s: %w", r.path, err)
		}
	}
	return nil
}

// WriteCycle appends a cycle, rotating afterwards if the file is full.
func (r *RotatingWriter) WriteCycle(c *Cycle) error {
	r.usage.Apply(c)
	if r.fresh && c.Nodes != nil {
		r.fresh = false
		full := *c
		full.NodeUse = r.usage.ForSet(c)
		return r.after(r.w.WriteCycle(&full))
	}
	return r.after(r.w.WriteCycle(c))
}

// WriteObserved appends an observed binding, rotating afterwards if the file is full.
func (r *RotatingWriter) WriteObserved(o *Observed) error { return r.after(r.w.WriteObserved(o)) }

// WriteDropped appends a note of dropped records, rotating afterwards if the file is full.
func (r *RotatingWriter) WriteDropped(d *Dropped) error { return r.after(r.w.WriteDropped(d)) }

// WriteQueue appends a queue event, rotating afterwards if the file is full.
func (r *RotatingWriter) WriteQueue(e *QueueEvent) error { return r.after(r.w.WriteQueue(e)) }

// WriteEnd ends the current file; it is not rotated after.
func (r *RotatingWriter) WriteEnd() error { return r.w.WriteEnd() }

// Close syncs and closes the current file.
func (r *RotatingWriter) Close() error {
	if err := r.f.Sync(); err != nil {
		r.f.Close()
		return err
	}
	return r.f.Close()
}
