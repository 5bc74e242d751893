package recorder

import (
	"context"
	"io"
	"os"
	"time"
)

// FollowFile returns a reader over the recording at path that, like tail -f,
// waits for more data at the end instead of reporting io.EOF, until ctx is
// done; wrapped in a Reader, a record still being written is read once its
// line is complete. It also follows a flight recorder's rotation: when the
// file at path is replaced (renamed to FILE.1 and started anew), it reads the
// rest of the old file and goes on with the new one, whose header record a
// Reader skips.
func FollowFile(ctx context.Context, path string, poll time.Duration) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &fileFollower{ctx: ctx, path: path, poll: poll, f: f}, nil
}

type fileFollower struct {
	ctx  context.Context
	path string
	poll time.Duration
	f    *os.File
}

func (f *fileFollower) Read(p []byte) (int, error) {
	for {
		n, err := f.f.Read(p)
		if n > 0 || (err != nil && err != io.EOF) {
			return n, err
		}
		if f.rotated() {
			// The writer may have appended its last records to the old
			// file between the read above and the rename: read them first.
			if n, err := f.f.Read(p); n > 0 || (err != nil && err != io.EOF) {
				return n, err
			}
			next, err := os.Open(f.path)
			if err == nil {
				f.f.Close()
				f.f = next
				continue
			}
		}
		t := time.NewTimer(f.poll)
		select {
		case <-f.ctx.Done():
			t.Stop()
			return 0, io.EOF
		case <-t.C:
		}
	}
}

// rotated reports whether path now names another file than the one open.
func (f *fileFollower) rotated() bool {
	cur, err := f.f.Stat()
	if err != nil {
		return false
	}
	now, err := os.Stat(f.path)
	return err == nil && !os.SameFile(cur, now)
}

func (f *fileFollower) Close() error { return f.f.Close() }
