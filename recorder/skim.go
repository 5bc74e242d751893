package recorder

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// Skimming walks a record's JSON without decoding it: it finds the members an
// index needs and jumps over the rest (score lists, node statuses), which is
// most of a cycle's bytes. Only the few values kept are decoded, with
// encoding/json. A line reaches the skimmer only after its checksum matched,
// so malformed JSON comes from a hand-made file; the skimmer then fails
// without reading past the line, and never loops or panics.

var errSkim = errors.New("malformed JSON")

// structural marks the bytes skipValue stops at inside an object or array.
var structural = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true}

// anyStructural reports whether any of the eight bytes of x is a quote, a
// brace or a bracket. x|0x20 turns '[' and ']' into '{' and '}' and no
// other byte into them; hasZero finds a byte equal to the one sought.
func anyStructural(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	hasZero := func(v uint64) bool { return (v-ones)&^v&highs != 0 }
	y := x | 0x20*ones
	return hasZero(x^'"'*ones) || hasZero(y^'{'*ones) || hasZero(y^'}'*ones)
}

// skipSpace returns the index of the first non-space byte at or after i.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string whose opening quote is
// at b[i], or -1.
func skipString(b []byte, i int) int {
	i++
	// Most strings of a record are short (codes, reasons, names): look at
	// their first bytes one by one, then let IndexByte find the quote.
	for end := min(i+16, len(b)); i < end; i++ {
		switch b[i] {
		case '"':
			return i + 1
		case '\\':
			i++
		}
	}
	for i < len(b) {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return -1
		}
		i += q
		// The quote ends the string unless an odd number of backslashes
		// escapes it.
		k := i - 1
		for b[k] == '\\' {
			k--
		}
		if (i-1-k)%2 == 0 {
			return i + 1
		}
		i++
	}
	return -1
}

// skipValue returns the index just past the JSON value that starts at b[i]
// (after spaces), or -1 when it is not well formed as far as nesting goes.
func skipValue(b []byte, i int) int {
	i = skipSpace(b, i)
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		var stack [64]byte // nesting deeper than this is not a recording's
		depth := 0
		for ; i < len(b); i++ {
			// Eight bytes at a time while none of them is structural: the
			// numbers of score lists are most of a record.
			for i+8 <= len(b) && !anyStructural(binary.LittleEndian.Uint64(b[i:])) {
				i += 8
			}
			if i >= len(b) {
				break
			}
			c := b[i]
			if !structural[c] {
				continue
			}
			switch c {
			case '"':
				if i = skipString(b, i); i < 0 {
					return -1
				}
				i-- // the loop's i++ steps past the quote
			case '{', '[':
				if depth == len(stack) {
					return -1
				}
				stack[depth] = c
				depth++
			case '}', ']':
				if depth == 0 || stack[depth-1] != c-2 { // '{'+2 == '}', '['+2 == ']'
					return -1
				}
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	// A number, true, false or null: up to the next delimiter.
	start := i
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\n' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}

// members calls fn with each member of the JSON object b: its key as written
// (without quotes; keys this package reads have no escapes) and its raw
// value. fn returns false to stop early.
func members(b []byte, fn func(key, val []byte) bool) error {
	return membersJumping(b, nil, fn)
}

// membersJumping is members, but for a key that jump knows, the value ends
// where jump says (the index of the comma before the next member, or -1 to
// walk it): the raw value fn gets then runs up to there.
func membersJumping(b []byte, jump func(key []byte, b []byte, vs int) int, fn func(key, val []byte) bool) error {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return errSkim
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return nil
	}
	for i < len(b) {
		if b[i] != '"' {
			return errSkim
		}
		end := skipString(b, i)
		if end < 0 {
			return errSkim
		}
		key := b[i+1 : end-1]
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return errSkim
		}
		vs := skipSpace(b, i+1)
		ve := -1
		if jump != nil {
			ve = jump(key, b, vs)
		}
		if ve < 0 {
			ve = skipValue(b, vs)
		}
		if ve < 0 {
			return errSkim
		}
		if !fn(key, b[vs:ve]) {
			return nil
		}
		i = skipSpace(b, ve)
		if i >= len(b) {
			return errSkim
		}
		switch b[i] {
		case '}':
			return nil
		case ',':
			i = skipSpace(b, i+1)
		default:
			return errSkim
		}
	}
	return errSkim
}

// elements calls fn with each raw element of the JSON array b.
func elements(b []byte, fn func(val []byte)) error {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return errSkim
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return nil
	}
	for i < len(b) {
		ve := skipValue(b, i)
		if ve < 0 {
			return errSkim
		}
		fn(b[i:ve])
		i = skipSpace(b, ve)
		if i >= len(b) {
			return errSkim
		}
		switch b[i] {
		case ']':
			return nil
		case ',':
			i = skipSpace(b, i+1)
		default:
			return errSkim
		}
	}
	return errSkim
}
