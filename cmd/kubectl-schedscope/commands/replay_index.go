package commands

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
)

// replayFiles opens a replay's cycles by their index entries (source.Recording):
// from the recording, and, following a flight recorder, from each file it
// rotated to, opened when the index reaches it.
type replayFiles struct {
	path string
	// opened is closed when the first Open returns: the TUI is about to
	// draw its first cycle.
	opened     chan struct{}
	openedOnce sync.Once

	mu    sync.Mutex
	files []*recorder.File // by entry Segment

	// usage is the node use as of the first usageN entries last asked
	// for, which a later question about a later cycle goes on from.
	usageMu   sync.Mutex
	usage     *recorder.Usage
	usageN    int
	usageLast recorder.CycleEntry
}

var _ source.Recording = (*replayFiles)(nil)

func openReplayFiles(path string) (*replayFiles, error) {
	r := &replayFiles{path: path, opened: make(chan struct{})}
	if err := r.rotated(); err != nil {
		return nil, err
	}
	return r, nil
}

// rotated opens the file now at path as the next segment.
func (r *replayFiles) rotated() error {
	f, err := recorder.OpenFile(r.path)
	if err != nil {
		return errorf("%s: %w", r.path, err)
	}
	r.mu.Lock()
	r.files = append(r.files, f)
	r.mu.Unlock()
	return nil
}

func (r *replayFiles) file(seg int) (*recorder.File, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if seg < 0 || seg >= len(r.files) {
		return nil, fmt.Errorf("the file of segment %d is not open", seg)
	}
	return r.files[seg], nil
}

// Open reads the cycle of an entry.
func (r *replayFiles) Open(e recorder.CycleEntry) (*recorder.Cycle, error) {
	defer r.openedOnce.Do(func() { close(r.opened) })
	f, err := r.file(e.Segment)
	if err != nil {
		return nil, err
	}
	return f.CycleAt(e.Offset)
}

// Usage rebuilds the node use as of the last of entries, going on from the
// last answer when entries extend it.
func (r *replayFiles) Usage(entries []recorder.CycleEntry) (*recorder.Usage, error) {
	r.usageMu.Lock()
	defer r.usageMu.Unlock()
	u, from := recorder.NewUsage(), 0
	if r.usage != nil && r.usageN <= len(entries) && sameEntry(entries[r.usageN-1], r.usageLast) {
		u, from = r.usage, r.usageN
	}
	for _, e := range entries[from:] {
		f, err := r.file(e.Segment)
		if err != nil {
			return nil, err
		}
		if err := f.ApplyUsage(u, e.Offset); err != nil {
			r.usage = nil
			return nil, err
		}
	}
	if len(entries) > 0 {
		r.usage, r.usageN, r.usageLast = u, len(entries), entries[len(entries)-1]
	}
	return u.Clone(), nil
}

func sameEntry(a, b recorder.CycleEntry) bool {
	return a.Segment == b.Segment && a.Offset == b.Offset && a.Seq == b.Seq
}

// Close closes the files.
func (r *replayFiles) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var errs []error
	for _, f := range r.files {
		errs = append(errs, f.Close())
	}
	return errors.Join(errs...)
}

// Indexing sends the first entry at once, to be shown at once, then entries
// in batches: at most indexBatch at a time, and what it has every
// indexFlush, which is also how often the progress bar moves. Each batch
// redraws the screen, which takes CPU from indexing: a few a second are
// enough.
const (
	indexBatch = 16384
	indexFlush = 200 * time.Millisecond
	// tornTicks is how many flushes a followed recording's last record
	// may stay unended before replay says so.
	tornTicks = 10
	// firstFrameWait bounds how long indexing waits for the TUI to read
	// the first cycle.
	firstFrameWait = 300 * time.Millisecond
)

// indexed is one thing the index reader found: an entry, or an event to
// pass on in order; off is how far the reader has read.
type indexed struct {
	entry *recorder.CycleEntry
	event *source.Event
	off   int64
}

// recordingSource is a recording as a source.Source: it reads the recording
// through once, sending the header, batches of index entries (whose cycles
// are opened through files), the progress, problems, queue events and
// observations, and the end, or, following, that it has caught up. A
// recording that cannot be read on is reported in the session (Done with
// Err), not by Run. replay shows it in the debugger and prints it with
// --no-tui.
type recordingSource struct {
	path   string
	follow bool
	// rd reads the recording: an index reader (recorder.NewIndexReader)
	// skims the cycles; a reader that decodes them (recorder.NewReader)
	// finds every problem LoadFile would.
	rd    *recorder.Reader
	files *replayFiles
	// headless says that no screen waits to draw the first cycle.
	headless bool
	// onCycle, if set, is given each cycle rd decoded (not skimmed), on
	// the reading goroutine, before its entry is sent.
	onCycle func(*recorder.Cycle)
}

// recordingProblem is a problem found in the recording at path; the
// session goes on past it.
type recordingProblem struct {
	path string
	err  error
}

func (p *recordingProblem) Error() string { return p.path + ": " + p.err.Error() }
func (p *recordingProblem) Unwrap() error { return p.err }

var _ source.Source = (*recordingSource)(nil)

// Run indexes the recording.
func (s *recordingSource) Run(ctx context.Context, send func(source.Event) bool) error {
	path, follow, rd, files := s.path, s.follow, s.rd, s.files
	items := make(chan indexed, indexBatch)
	go func() {
		defer close(items)
		put := func(it indexed) bool {
			it.off = rd.Offset()
			select {
			case items <- it:
				return true
			case <-ctx.Done():
				return false
			}
		}
		waited := s.headless
		for rec, err := range rd.All() {
			switch {
			case err != nil && recorder.IsProblem(err):
				// Every problem is sent: the TUI lists them all.
				if !put(indexed{event: &source.Event{Problem: &recordingProblem{path, err}}}) {
					return
				}
			case err != nil:
				put(indexed{event: &source.Event{Done: true, Err: errorf("%s: %w", path, err)}})
				return
			case rec.Kind == recorder.KindEnd:
				// The writer closed the recording: there is nothing more
				// to follow.
				put(indexed{event: &source.Event{Done: true}})
				return
			case rec.Kind == recorder.KindHeader: // rotated: the entries after it are in the new file
				if err := files.rotated(); err != nil && !put(indexed{event: &source.Event{Problem: err}}) {
					return
				}
			case rec.Entry != nil || rec.Cycle != nil:
				if rec.Entry == nil { // decoded, not skimmed
					if s.onCycle != nil {
						s.onCycle(rec.Cycle)
					}
					e := recorder.EntryOf(rec.Cycle)
					e.Offset = rec.Offset
					rec.Entry = &e
				}
				if !put(indexed{entry: rec.Entry}) {
					return
				}
				if !waited {
					// Indexing waits (a little) for the first cycle to be
					// read for the screen, so as not to take the CPU from
					// the first frame.
					waited = true
					select {
					case <-files.opened:
					case <-time.After(firstFrameWait):
					case <-ctx.Done():
						return
					}
				}
			case rec.Observed != nil:
				if !put(indexed{event: &source.Event{Observed: rec.Observed}}) {
					return
				}
			case rec.PodGroup != nil:
				if !put(indexed{event: &source.Event{PodGroup: rec.PodGroup}}) {
					return
				}
			case rec.Queue != nil:
				if !put(indexed{event: &source.Event{Queue: rec.Queue}}) {
					return
				}
			case rec.Cluster != nil:
				if !put(indexed{event: &source.Event{Cluster: rec.Cluster}}) {
					return
				}
			}
		}
	}()

	h := rd.Header()
	if !send(source.Event{Header: &h}) || !send(source.Event{State: &source.EngineState{State: source.StateIndexing}}) {
		return nil
	}
	size := func() int64 {
		if st, err := os.Stat(path); err == nil {
			return st.Size()
		}
		return 0
	}
	var batch []recorder.CycleEntry
	var off, lastOff int64
	// idle counts the ticks the reader has not moved: following a file
	// whose last record is still being written, it waits there.
	sent, idle, caughtUp, ended, toldTorn := 0, 0, false, false, false
	flush := func() bool {
		if len(batch) > 0 {
			sent += len(batch)
			if !send(source.Event{Entries: batch}) {
				return false
			}
			batch = nil
		}
		return caughtUp || send(source.Event{Progress: &source.Progress{Read: off, Size: max(size(), off)}})
	}
	tick := time.NewTicker(indexFlush)
	defer tick.Stop()
	for {
		select {
		case it, ok := <-items:
			if !ok {
				if !flush() || ctx.Err() != nil || ended {
					return nil
				}
				send(source.Event{State: &source.EngineState{State: source.StateDone}})
				send(source.Event{Done: true})
				return nil
			}
			off = it.off
			if it.entry != nil {
				batch = append(batch, *it.entry)
				// The first cycle goes at once, to be shown at once.
				if (sent == 0 || len(batch) >= indexBatch) && !flush() {
					return nil
				}
				continue
			}
			ended = ended || it.event.Done
			if !flush() || !send(*it.event) {
				return nil
			}
		case <-tick.C:
			if !flush() {
				return nil
			}
			if off == lastOff {
				idle++
			} else {
				idle, lastOff = 0, off
			}
			if follow && !caughtUp && (off >= size() || idle >= 2) {
				// Everything written so far is indexed (a torn last record
				// waits for the rest of its line): from now on the
				// recording is followed.
				caughtUp = true
				if !send(source.Event{State: &source.EngineState{State: source.StateFollowing}}) {
					return nil
				}
			}
			// A last record that has not grown for a while was left torn
			// by a writer that stopped, or is very slow: say so, once.
			if follow && caughtUp && !toldTorn && idle >= tornTicks && size() > off {
				toldTorn = true
				if !send(source.Event{Problem: &recordingProblem{path, fmt.Errorf(
					"the last %d bytes are a record that has not ended for %s: its writer stopped in the middle of it, or is still writing it (kubectl schedscope verify tells)",
					size()-off, time.Duration(idle)*indexFlush)}}) {
					return nil
				}
			}
		case <-ctx.Done():
			return nil
		}
	}
}
