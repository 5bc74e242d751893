package whatifscreen

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/tui/components/problems"
)

func TestOptions(t *testing.T) {
	upper := Options{Why: "run sim with -f", Clean: strings.ToUpper}
	var none Options
	tests := []struct {
		name, got, want string
	}{
		{"Why wins over the page's words", upper.WhyNot("needs the fixture"), "run sim with -f"},
		{"no Why: the page's words", none.WhyNot("needs the fixture"), "needs the fixture"},
		{"first line only, cleaned", upper.OneLine(errors.New("bad patch\nline 2")), "BAD PATCH"},
		{"no Clean keeps the text", none.OneLine(errors.New("bad\x1b[31m\nmore")), "bad\x1b[31m"},
		{"Safe cleans", upper.Safe("web-0"), "WEB-0"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestStatus(t *testing.T) {
	said := problems.Note{Kind: problems.Message, Text: "saved"}
	tests := []struct {
		name string
		msg  problems.Note
		busy string
		want problems.Note
	}{
		{"a message wins over the run", said, "running…", said},
		{"no message: the run under way", problems.Note{}, "running…", problems.Note{Kind: problems.Message, Text: "running…"}},
		{"neither", problems.Note{}, "", problems.Note{}},
	}
	for _, tt := range tests {
		if got := Status(tt.msg, tt.busy); got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
