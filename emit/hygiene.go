package emit

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxLine is the number of bytes per line Yume accepts: its parser buffers
// an incomplete line up to this size and then drops it. Every line Writer
// emits, newline included, is strictly shorter.
const MaxLine = 100_000

// MaxToolOutput caps tool_result content before the line-size limit is
// considered; a result whose line would still reach MaxLine (escaping can
// double the size of some output) is cut further.
const MaxToolOutput = 100 * 1024

// maxJSON is the longest encoded object that, with its newline, stays
// strictly under MaxLine.
const maxJSON = MaxLine - 2

// outputNote and truncNote are the notes inserted where bytes were cut: the
// first for tool output (CapOutput), the second for any other string that
// had to shrink to keep a line under MaxLine.
const (
	outputNote = "\n… [yume-cli: %d bytes of output omitted] …\n"
	truncNote  = "… [yume-cli: %d bytes truncated] …"
)

// ValidUTF8 returns s with every byte that is not part of a valid UTF-8
// sequence replaced by U+FFFD, one replacement per invalid byte (as
// encoding/json and utf8.DecodeRuneInString count them). Valid input is
// returned unchanged without allocating.
func ValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// CapOutput returns s unchanged if it is at most max bytes long. Otherwise
// it keeps the head and the tail of s (the end of a command's output usually
// holds the error) and puts between them
// "\n… [yume-cli: N bytes of output omitted] …\n", so that the result, note
// included, is at most max bytes. Cuts fall on rune boundaries. If max is
// too small to hold even the note, the note alone is returned.
func CapOutput(s string, max int) string { return capWith(s, max, outputNote) }

// capWith is CapOutput with the note format (one %d, the bytes omitted) as
// a parameter.
func capWith(s string, limit int, note string) string {
	if len(s) <= limit {
		return s
	}
	// The note's length depends on the count it prints; len(s) has at least
	// as many digits as any count of omitted bytes, so this is an upper bound.
	noteLen := len(note) - 2 + len(strconv.Itoa(len(s)))
	keep := max(limit-noteLen, 0)
	head := runeStartBefore(s, keep/2)
	tail := runeStartAfter(s, len(s)-(keep-keep/2))
	if tail < head {
		tail = head
	}
	return s[:head] + fmt.Sprintf(note, tail-head) + s[tail:]
}

// runeStartBefore moves i back to the start of the rune containing it, at
// most utf8.UTFMax-1 bytes (further back can only be invalid bytes).
func runeStartBefore(s string, i int) int {
	for j := 0; j < utf8.UTFMax-1 && i > 0 && i < len(s) && !utf8.RuneStart(s[i]); j++ {
		i--
	}
	return i
}

// runeStartAfter moves i forward to the start of the next rune, at most
// utf8.UTFMax-1 bytes.
func runeStartAfter(s string, i int) int {
	for j := 0; j < utf8.UTFMax-1 && i < len(s) && !utf8.RuneStart(s[i]); j++ {
		i++
	}
	return i
}

// runeJSONLen is how many bytes encoding/json (with SetEscapeHTML(false))
// writes for the rune r that took size bytes in the source string.
func runeJSONLen(r rune, size int) int {
	switch {
	case r == utf8.RuneError && size == 1:
		return len(`\ufffd`)
	case r == '"' || r == '\\' || r == '\b' || r == '\f' || r == '\n' || r == '\r' || r == '\t':
		return 2
	case r < 0x20 || r == '\u2028' || r == '\u2029':
		return len(`\u0000`)
	}
	return size
}

// jsonLen is the encoded length of s as a JSON string, quotes excluded.
func jsonLen(s string) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		n += runeJSONLen(r, size)
		i += size
	}
	return n
}

// minChunk is the smallest chunk budget splitText works with: enough for
// the longest escape of a single rune.
const minChunk = 8

// splitText cuts s into pieces whose JSON-encoded length (quotes excluded)
// is at most budget bytes, on rune boundaries. Where the piece has a newline
// in its second half, it ends after that newline, so chunks read naturally.
// Concatenating the pieces gives s back.
func splitText(s string, budget int) []string {
	budget = max(budget, minChunk)
	var chunks []string
	for len(s) > 0 {
		n, end, lastNL := 0, 0, -1
		for end < len(s) {
			r, size := utf8.DecodeRuneInString(s[end:])
			l := runeJSONLen(r, size)
			if n+l > budget {
				break
			}
			n += l
			end += size
			if r == '\n' {
				lastNL = end
			}
		}
		if end == len(s) {
			chunks = append(chunks, s)
			break
		}
		if lastNL > end/2 {
			end = lastNL
		}
		chunks = append(chunks, s[:end])
		s = s[end:]
	}
	return chunks
}
