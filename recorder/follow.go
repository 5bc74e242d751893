package recorder

import (
	"context"
	"io"
	"time"
)

// Follow returns a reader over r that, like tail -f, waits for more data at the
// end instead of reporting io.EOF, until ctx is done. Wrapped in a Reader, a
// record still being written is read once its line is complete.
func Follow(ctx context.Context, r io.Reader, poll time.Duration) io.Reader {
	return &follower{ctx: ctx, r: r, poll: poll}
}

type follower struct {
	ctx  context.Context
	r    io.Reader
	poll time.Duration
}

func (f *follower) Read(p []byte) (int, error) {
	for {
		n, err := f.r.Read(p)
		if n > 0 || (err != nil && err != io.EOF) {
			return n, err
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
