package input

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// QuoteLimit is how many bytes of one user input an error quotes.
const QuoteLimit = 120

// Quote is s as an error quotes user input: on one line, whole when it is
// at most QuoteLimit bytes, else its first QuoteLimit bytes (cut at a
// character boundary) followed by "… (N bytes)", so that an error about a
// 60 MB patch stays one short line.
func Quote(s string) string {
	if len(s) <= QuoteLimit && !strings.ContainsAny(s, "\n\r\t\v\f") {
		return s
	}
	head := s
	if len(head) > 4*QuoteLimit {
		head = head[:4*QuoteLimit] // fold only what may be shown
	}
	one := strings.Join(strings.Fields(head), " ")
	if len(s) <= QuoteLimit {
		return one
	}
	cut := min(QuoteLimit, len(one))
	for cut < len(one) && cut > 0 && !utf8.RuneStart(one[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", one[:cut], len(s))
}
