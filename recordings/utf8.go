package recordings

import (
	"strings"
	"unicode/utf8"
)

// replacement is U+FFFD REPLACEMENT CHARACTER, what invalid bytes become.
const replacement = "\uFFFD"

// utf8Carry turns a byte stream that arrives in arbitrary pieces (PTY reads)
// into valid UTF-8 text, like asciinema's incremental decoder: a character
// split across two pieces is kept whole by carrying its first bytes over to
// the next call, and invalid bytes become U+FFFD, one per maximal subpart.
// The zero value is ready to use; it is not safe for concurrent use.
type utf8Carry struct {
	tail [utf8.UTFMax - 1]byte // an incomplete character, at most 3 bytes
	n    int
}

// decode returns the text of the carried tail followed by p. An incomplete
// character at the end of p is held back for the next call, so the result
// may be empty.
func (c *utf8Carry) decode(p []byte) string {
	if c.n == 0 && utf8.Valid(p) {
		return string(p) // The common case: no carry, nothing to repair.
	}
	b := p
	if c.n > 0 {
		b = make([]byte, 0, c.n+len(p))
		b = append(append(b, c.tail[:c.n]...), p...)
	}
	text, rest := repair(b, false)
	c.n = copy(c.tail[:], b[len(b)-rest:])
	return text
}

// flush ends the stream: a carried incomplete character can no longer be
// completed and becomes U+FFFD.
func (c *utf8Carry) flush() string {
	if c.n == 0 {
		return ""
	}
	text, _ := repair(c.tail[:c.n], true)
	c.n = 0
	return text
}

// validString returns s with invalid bytes replaced exactly as the recorder
// would have replaced them, so Write never depends on encoding/json's own
// (different: one U+FFFD per byte) repair.
func validString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	text, _ := repair([]byte(s), true)
	return text
}

// repair converts b to valid UTF-8. Unless final, an incomplete but so far
// valid character at the very end is not converted; rest is its length.
func repair(b []byte, final bool) (text string, rest int) {
	var sb strings.Builder
	sb.Grow(len(b) + 2)
	start := 0 // b[start:i] is valid and not yet copied
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || size > 1 {
			i += size // A valid character (possibly a literal U+FFFD).
			continue
		}
		n, truncated := maximalSubpart(b[i:])
		if truncated && !final {
			sb.Write(b[start:i])
			return sb.String(), len(b) - i
		}
		sb.Write(b[start:i])
		sb.WriteString(replacement)
		i += n
		start = i
	}
	sb.Write(b[start:])
	return sb.String(), 0
}

// maximalSubpart measures the ill-formed sequence at the start of b: the
// longest prefix that could begin a well-formed character (Unicode Table 3-7),
// or 1 for a byte that can begin none. truncated reports that the prefix runs
// to the end of b, so more input could still complete it.
func maximalSubpart(b []byte) (n int, truncated bool) {
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 2
	case c == 0xE0:
		need, lo = 3, 0xA0
	case c == 0xED:
		need, hi = 3, 0x9F // No UTF-16 surrogates.
	case c >= 0xE1 && c <= 0xEF:
		need = 3
	case c == 0xF0:
		need, lo = 4, 0x90
	case c == 0xF4:
		need, hi = 4, 0x8F // Nothing above U+10FFFF.
	case c >= 0xF1 && c <= 0xF3:
		need = 4
	default:
		return 1, false // A continuation byte, C0/C1 (overlong) or F5..FF.
	}
	n = 1
	if n < len(b) && b[n] >= lo && b[n] <= hi {
		n++
		for n < need && n < len(b) && b[n] >= 0x80 && b[n] <= 0xBF {
			n++
		}
	}
	return n, n == len(b)
}
