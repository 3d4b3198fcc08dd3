package recordings

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzRecorderTimes splits output into chunks (cuts: each byte a chunk's
// length), one a millisecond, through a redacting recorder. The output
// read back is the input with its secret redacted, and, with no secret in
// it, each event is stamped when its last byte came: the time its text
// was whole on the program's screen (a chunk once took the time of the
// word held back from the chunk before, when its own bytes had not come).
func FuzzRecorderTimes(f *testing.F) {
	secret := "ghp_" + strings.Repeat("aB3dE5gH7j", 4)
	f.Add("\x1b[?2026hstart\x1b[?2026l\x1b[?2026hdialog\x1b[?2026l", []byte{20, 20, 9})
	f.Add("token "+secret+" done\r\nRun this? (y/n)", []byte{10, 10, 3, 30})
	f.Add("héllo wörld\r\n", []byte{2, 1, 1, 5})
	f.Fuzz(func(t *testing.T, text string, cuts []byte) {
		if !utf8.ValidString(text) || longestWord(text) > maxHeld {
			t.Skip("invalid UTF-8 becomes U+FFFD; a word over maxHeld is written as it comes")
		}
		var chunks []timedChunk
		arrival := make([]time.Duration, len(text)) // when each byte came
		for i, at := 0, time.Duration(0); i < len(text); {
			n := len(text) - i
			if len(cuts) > 0 {
				n, cuts = min(int(cuts[0])+1, n), cuts[1:]
			}
			at += time.Millisecond
			chunks = append(chunks, timedChunk{at, text[i : i+n]})
			for j := i; j < i+n; j++ {
				arrival[j] = at
			}
			i += n
		}
		var got strings.Builder
		for _, e := range recordRedacted(t, secret, chunks) {
			if p, n := got.Len(), len(e.Data); !strings.Contains(text, secret) && n > 0 {
				if last := arrival[p+n-1]; e.Time != last {
					t.Errorf("%q stamped %v: its last byte came at %v", e.Data, e.Time, last)
				}
			}
			got.WriteString(e.Data)
		}
		if want := strings.ReplaceAll(text, secret, "[REDACTED]"); got.String() != want {
			t.Errorf("recorded %q, want %q", got.String(), want)
		}
	})
}

// longestWord is the longest run of text with none of the bytes the
// recorder cuts held words at.
func longestWord(text string) int {
	longest := 0
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(" \t\r\n\x1b\a", r) }) {
		longest = max(longest, len(w))
	}
	return longest
}
