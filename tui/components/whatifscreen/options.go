package whatifscreen

import (
	"strings"

	"github.com/schedscope/schedscope/tui/components/problems"
)

// Options is what a what-if page takes from the session: why it has no
// source, and how text from the source is made safe to draw.
type Options struct {
	// Why says why there is no Source (the page's own words when empty).
	Why string
	// Clean makes text from the source safe to draw (errors quote what
	// they read); nil keeps it as it is.
	Clean func(string) string
}

// WhyNot says why there is no what-if: Why, else noSource, the page's
// own words.
func (o Options) WhyNot(noSource string) string {
	if o.Why != "" {
		return o.Why
	}
	return noSource
}

// Safe is s made safe to draw.
func (o Options) Safe(s string) string {
	if o.Clean == nil {
		return s
	}
	return o.Clean(s)
}

// OneLine keeps the first line of an error, made safe to draw.
func (o Options) OneLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return o.Safe(s)
}

// Status is the status bar's message while a what-if works: msg, else
// busy, the words of the run under way ("" when none).
func Status(msg problems.Note, busy string) problems.Note {
	if msg.Text == "" && busy != "" {
		return problems.Note{Kind: problems.Message, Text: busy}
	}
	return msg
}
