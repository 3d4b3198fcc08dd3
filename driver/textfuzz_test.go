//go:build unix

package driver_test

import (
	"math/rand"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/internal/leakcheck"
)

// TestTypedTextFuzz: hostile and careless text from the GUI and the flags
// (every byte value, paste markers, CSI and OSC fragments, CR, CR LF,
// Ctrl-C, Esc, long lines, bytes that are not UTF-8, emoji and CJK) is
// typed into a raw-mode child that logs every byte it reads. Each session
// types three texts through the real driver in a real PTY: a user frame
// (at the ready screen), the --prompt (an input rule's <Prompt>) and the
// feedback of a revision (the next input rule's <Prompt>), each with
// bracketed paste on or off as the child says, and one of the newline
// modes; the GUI answers two questions. The child must read exactly the
// texts as the typing contract says (computed here, independently of
// heuristics.TypeText) and exactly the profile's answer keys.
//
// YUME_FUZZ_SEED sets the seed (it is logged), YUME_FUZZ_N the number of
// sessions; a failure names the session's seed.
func TestTypedTextFuzz(t *testing.T) {
	leakcheck.Check(t)
	seed := time.Now().UnixNano()
	if s := os.Getenv("YUME_FUZZ_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatalf("YUME_FUZZ_SEED=%q: %v", s, err)
		}
	}
	n := 64
	if testing.Short() {
		n = 12
	}
	if s := os.Getenv("YUME_FUZZ_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	t.Logf("seed %d (YUME_FUZZ_SEED=%d to repeat), %d sessions", seed, seed, n)
	dir := t.TempDir()
	start := time.Now()
	var wg sync.WaitGroup
	work := make(chan int)
	for range min(4, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				fuzzSession(t, dir, i, seed+int64(i))
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	t.Logf("%d sessions in %v", n, time.Since(start).Round(time.Millisecond))
}

// fuzzCase is one session: its texts, paste modes, newline and answer.
type fuzzCase struct {
	user, prompt, feedback string
	paste                  [3]bool
	newline                string // the profile's newline:
	approve                bool
}

func newFuzzCase(rng *rand.Rand) fuzzCase {
	c := fuzzCase{
		user:     fuzzText(rng, true),
		prompt:   fuzzText(rng, false),
		feedback: fuzzText(rng, true),
		newline:  []string{"space", "key:<C-j>", "backslash-enter"}[rng.Intn(3)],
		approve:  rng.Intn(2) == 0,
	}
	for i := range c.paste {
		c.paste[i] = rng.Intn(2) == 0
	}
	return c
}

// fuzzPieces are what hostile and careless texts are made of.
var fuzzPieces = []string{
	heuristics.PasteStart, heuristics.PasteEnd, "\x1b[200", "\x1b[20", "\x1b[", "\x1b",
	"\x1b[31m", "\x1b[2J", "\x1b[A", "\x1b[?2004l", "\x1bOA", "\x9b", "\x1b]0;title\x07", "\x1b]52;c;aGk=\x1b\\", "\x1bP+q\x1b\\",
	"\r", "\r\n", "\n", "\n\n", "\t", "\x03", "\x04", "\x1a", "\x7f", "\x08", "\x00", "\u0085", "\u009b",
	"\xff", "\xc3", "\xed\xa0\x80", "\xf0\x9f", "🙂", "👩‍💻", "日本語", "é", "e\u0301", "\u00a0",
	`\`, `\\`, "y", "n", "r", "-p", "--yolo", "{model}", "hello world", " ", "/help", "!ls",
}

// fuzzText makes a text; nonEmpty for a frame that must carry one.
func fuzzText(rng *rand.Rand, nonEmpty bool) string {
	var b strings.Builder
	for range rng.Intn(12) {
		switch rng.Intn(10) {
		case 0: // random bytes, every value possible
			for range 1 + rng.Intn(24) {
				b.WriteByte(byte(rng.Intn(256)))
			}
		case 1: // a long line, sometimes very long
			n := 1 + rng.Intn(200)
			if rng.Intn(8) == 0 {
				n = 1 + rng.Intn(64<<10)
			}
			b.WriteString(strings.Repeat(string(rune('a'+rng.Intn(26))), n))
		default:
			b.WriteString(fuzzPieces[rng.Intn(len(fuzzPieces))])
		}
	}
	if nonEmpty && b.Len() == 0 {
		b.WriteString("x")
	}
	return b.String()
}

// markerRE finds the paste markers a text carries: left to right, each
// once (what a removal puts together is not looked at again).
var markerRE = regexp.MustCompile(`\x1b\[20[01]~`)

// expectTyped is the typing contract, written out independently of
// heuristics.TypeText: the keys that type text, and how many control
// characters and markers were removed and line breaks joined.
func expectTyped(text string, paste bool, newline string) (keys string, removed, joined int) {
	removed = len(markerRE.FindAllStringIndex(text, -1))
	runes := []rune(markerRE.ReplaceAllString(text, "")) // a byte that is not UTF-8 is U+FFFD
	var b strings.Builder
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		if r == '\r' && i+1 < len(runes) && runes[i+1] == '\n' {
			i++
		}
		switch {
		case r == '\r' || r == '\n':
			switch {
			case paste:
				b.WriteString("\n")
			case newline == "key:<C-j>":
				b.WriteString("\x0a")
			case newline == "backslash-enter":
				b.WriteString("\\\r")
			default:
				b.WriteString(" ")
				joined++
			}
		case r == '\t' && paste:
			b.WriteString("\t")
		case r == '\t':
			b.WriteString(" ")
		case unicode.IsControl(r):
			removed++
		default:
			b.WriteRune(r)
		}
	}
	s := b.String()
	if s == "" {
		return "", removed, joined
	}
	if newline == "backslash-enter" && strings.HasSuffix(s, `\`) {
		s += " "
	}
	if paste {
		s = heuristics.PasteStart + s + heuristics.PasteEnd
	}
	return s, removed, joined
}

// FuzzTypeTextContract holds heuristics.TypeText to the contract as
// expectTyped writes it out, byte for byte, for any text.
func FuzzTypeTextContract(f *testing.F) {
	for _, s := range fuzzPieces {
		f.Add(s, true, uint8(0))
		f.Add("a"+s+"b\r"+s+"\n", false, uint8(2))
	}
	f.Add("\r\x1b[200~\n", false, uint8(0))
	f.Fuzz(func(t *testing.T, text string, paste bool, mode uint8) {
		newline := []string{"space", "key:<C-j>", "backslash-enter"}[int(mode)%3]
		nl, err := heuristics.ParseNewline(newline)
		if err != nil {
			t.Fatal(err)
		}
		got := heuristics.TypeText(text, paste, nl)
		keys, removed, joined := expectTyped(text, paste, newline)
		if string(got.Keys) != keys || got.Removed != removed || got.Joined != joined {
			t.Fatalf("TypeText(%q, %v, %s) = %q removed %d joined %d; the contract says %q removed %d joined %d",
				text, paste, newline, got.Keys, got.Removed, got.Joined, keys, removed, joined)
		}
	})
}
