package input

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	long := strings.Repeat("a", 60<<20)
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "short input is kept", in: `{"a":1}`, want: `{"a":1}`},
		{name: "line breaks are folded", in: "a: 1\nb:\n  c: 2", want: "a: 1 b: c: 2"},
		{name: "long input is cut with its length", in: long, want: strings.Repeat("a", QuoteLimit) + "… (62914560 bytes)"},
		{name: "a cut never splits a character", in: strings.Repeat("é", 100), want: strings.Repeat("é", QuoteLimit/2) + "… (200 bytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Quote(tt.in); got != tt.want {
				if len(got) > 300 {
					got = got[:300] + "..."
				}
				t.Errorf("Quote() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestQuoteIsOneShortValidLine(t *testing.T) {
	for _, in := range []string{strings.Repeat("x\n", 1<<20), strings.Repeat("ü", 1000), strings.Repeat(" ", 5000) + "z", strings.Repeat("\xff", 500)} {
		got := Quote(in)
		if strings.ContainsAny(got, "\n\r") || len(got) > QuoteLimit+40 {
			t.Errorf("Quote(%d bytes) = %q: want one line of at most %d bytes", len(in), got, QuoteLimit+40)
		}
		if utf8.ValidString(in) && !utf8.ValidString(got) {
			t.Errorf("Quote(%d bytes) split a character: %q", len(in), got)
		}
	}
}
