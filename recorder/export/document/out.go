package document

import (
	"fmt"
	"io"

	"github.com/schedscope/schedscope/recorder"
)

// Out is what the Markdown and HTML writers share: where they write, the
// cycles a user marked, the numbers behind a cycle's resource rejections,
// and the first write error (the writes after it are skipped, and Err
// reports it).
type Out struct {
	W io.Writer
	// Marks are the cycles a user marked, quoted in their cycle's section.
	Marks []recorder.Mark
	// Short, if set, gives the numbers behind a cycle's resource
	// rejections (recorder.ShortfallsOf).
	Short func(*recorder.Cycle) *recorder.Shortfalls
	err   error
}

// Printf writes to W unless a write failed before.
func (o *Out) Printf(format string, a ...any) {
	if o.err == nil {
		_, o.err = fmt.Fprintf(o.W, format, a...)
	}
}

// Err is the first write error.
func (o *Out) Err() error { return o.err }

// Shortfalls are the numbers behind c's resource rejections, or nil.
func (o *Out) Shortfalls(c *recorder.Cycle) *recorder.Shortfalls {
	if o.Short == nil {
		return nil
	}
	return o.Short(c)
}
