// Package visible is how every output shows a string that came from a
// recording, a live engine or a cluster (a pod or node name, a plugin's
// reason, a message) on a terminal: what the terminal would act on instead
// of print, or would print as nothing, is shown as a Go escape. The text
// output and the TUI both use this rule, so that a crafted name cannot
// move the cursor, forge a line or reorder the text around it in one output
// and not the other.
package visible

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Hidden reports whether a terminal acts on r or shows nothing for it:
// control characters (\x1b, \n, C1 controls), Unicode format characters
// (the bidirectional overrides, embeddings, isolates and marks such as
// U+202E, U+2066 to U+2069, U+200E and U+200F, and zero-width characters),
// and the line and paragraph separators.
func Hidden(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

// Escape returns how a hidden rune is shown: \n, \r and \t, \x1b for the
// other ASCII controls, \u202e for the rest. Any other rune is returned as
// it is.
func Escape(r rune) string {
	switch {
	case r == '\n':
		return `\n`
	case r == '\r':
		return `\r`
	case r == '\t':
		return `\t`
	case r < 0x80 && Hidden(r):
		return fmt.Sprintf(`\x%02x`, r)
	case Hidden(r):
		return fmt.Sprintf(`\u%04x`, r)
	}
	return string(r)
}

// String returns s with every hidden rune shown as Escape shows it, and
// every byte that is not UTF-8 as \xff. A string with nothing to show so is
// returned as it is.
func String(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || Hidden(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
		} else {
			b.WriteString(Escape(r))
		}
		i += size
	}
	return b.String()
}
