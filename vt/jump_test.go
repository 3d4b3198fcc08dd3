package vt

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// jumpSeed is printed, so a failure can be repeated: YUME_SEED=N.
func jumpSeed(t *testing.T) int64 {
	seed := time.Now().UnixNano()
	if s := os.Getenv("YUME_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	t.Logf("seed %d (YUME_SEED=%d repeats it)", seed, seed)
	return seed
}

// floodOf generates output as programs print it: lines of words, colour
// sequences (resets among them), UTF-8, tabs, CRs; with odd (not plain)
// parts where odd is set: over-long lines, cursor motion, titles,
// charsets, margins.
func floodOf(rng *rand.Rand, lines int, odd bool) string {
	words := []string{"ok", "INFO", "compiling", "package/12", "…", "日本語", "✓", "é", "a\u0301", "🙂", "x", "\x7f"}
	sgr := []string{"\x1b[0m", "\x1b[m", "\x1b[1m", "\x1b[2m", "\x1b[32m", "\x1b[38;5;208m", "\x1b[38;2;1;2;3m", "\x1b[0;31m", "\x1b[22;39m", "\x1b[4:3m", "\x1b[7m"}
	oddOnes := []string{"\x1b[H", "\x1b[5;1H", "\x1b[2K", "\x1b]0;title\x07", "\x1b(0q\x1b(B", "\x1b[3;10r", "\x1b[r", "\x1b[?1049h", "\x1b[?1049l", "\x0e\x0f", "\x1b[3b", "\b", "\x1b[1L", "\x07"}
	var b strings.Builder
	for range lines {
		n := rng.Intn(8)
		for range n {
			switch r := rng.Intn(10); {
			case r < 5:
				b.WriteString(words[rng.Intn(len(words))])
				b.WriteByte(' ')
			case r < 8:
				b.WriteString(sgr[rng.Intn(len(sgr))])
			case r < 9:
				b.WriteByte('\t')
			default:
				b.WriteString("\rover")
			}
		}
		if odd && rng.Intn(30) == 0 {
			b.WriteString(oddOnes[rng.Intn(len(oddOnes))])
		}
		if odd && rng.Intn(40) == 0 {
			b.WriteString(strings.Repeat("w", 50+rng.Intn(80))) // wraps on a narrow screen
		}
		b.WriteString("\r\n")
	}
	if rng.Intn(2) == 0 {
		b.WriteString("Apply these changes? (y/n) ")
	}
	return b.String()
}

// sameScreen fails t where a and b differ in anything a reader sees.
func sameScreen(t *testing.T, what string, a, b *Screen) {
	t.Helper()
	if a.String() != b.String() {
		t.Fatalf("%s: screens differ:\n%q\n%q", what, a.String(), b.String())
	}
	ar, ac, av := a.Cursor()
	br, bc, bv := b.Cursor()
	if ar != br || ac != bc || av != bv {
		t.Fatalf("%s: cursor %d,%d,%v vs %d,%d,%v", what, ar, ac, av, br, bc, bv)
	}
	if a.Retired() != b.Retired() {
		t.Fatalf("%s: retired %d vs %d", what, a.Retired(), b.Retired())
	}
	if a.Title() != b.Title() || a.AltScreen() != b.AltScreen() {
		t.Fatalf("%s: title %q/%q alt %v/%v", what, a.Title(), b.Title(), a.AltScreen(), b.AltScreen())
	}
	for r := range a.Rows() {
		for c := range a.Cols() {
			if a.Style(r, c) != b.Style(r, c) {
				t.Fatalf("%s: style at %d,%d: %+v vs %+v", what, r, c, a.Style(r, c), b.Style(r, c))
			}
		}
	}
}

// TestJumpScrollIsInvisible: a screen fed a flood in large writes (which
// jump), or in batches each skipped as far as Skip goes with the rest kept
// for the next one (as the live driver does), ends exactly as one fed the
// same bytes a few at a time (which never jump): text, styles, cursor,
// retired lines, and the pen and REP character the next bytes inherit.
func TestJumpScrollIsInvisible(t *testing.T) {
	for _, c := range []struct {
		name string
		feed func(rng *rand.Rand, s *Screen, flood string)
	}{
		{"large writes", func(rng *rand.Rand, s *Screen, flood string) {
			for p := flood; p != ""; {
				n := min(len(p), jumpMin+rng.Intn(4*jumpMin))
				s.Write([]byte(p[:n]))
				p = p[n:]
			}
		}},
		{"skipped batches", func(rng *rand.Rand, s *Screen, flood string) {
			held := ""
			for p := flood; p != ""; {
				n := min(len(p), 1+rng.Intn(4*jumpMin))
				held, p = held+p[:n], p[n:]
				k := s.Skip([]byte(held))
				if k == 0 || rng.Intn(8) == 0 { // as the driver: what cannot be skipped is written
					s.Write([]byte(held[k:]))
					k = len(held)
				}
				held = held[k:]
			}
			s.Write([]byte(held))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(jumpSeed(t)))
			for i := range 300 {
				cols, rows := 20+rng.Intn(100), 3+rng.Intn(40)
				flood := floodOf(rng, rows+rng.Intn(400), i%2 == 1)
				fed, small := NewScreen(cols, rows), NewScreen(cols, rows)
				fed.SetScrollbackLimit(0)
				small.SetScrollbackLimit(0)
				c.feed(rng, fed, flood)
				for p := flood; p != ""; {
					n := min(len(p), 1+rng.Intn(64))
					small.Write([]byte(p[:n]))
					p = p[n:]
				}
				what := fmt.Sprintf("case %d (%dx%d, %d bytes)", i, cols, rows, len(flood))
				sameScreen(t, what, fed, small)
				tail := "Z\x1b[3b\r\n" // the pen's colour, REP's character
				fed.Write([]byte(tail))
				small.Write([]byte(tail))
				sameScreen(t, what+" then "+strconv.Quote(tail), fed, small)
			}
		})
	}
}

// TestSkipSkips: Skip takes nearly all of a plain flood, whether the
// write before it ended at a line's end or cut a line anywhere (inside a
// colour sequence, a rune, before the CR of a line as wide as the
// screen), and nothing of a write too short to jump.
func TestSkipSkips(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "\x1b[2m%06d\x1b[0m \x1b[32mINFO\x1b[0m compiling \x1b[1mpackage/%d\x1b[0m … ok \x1b[36m%dms\x1b[0m\r\n", i, i%97, i%13)
	}
	flood := b.String()
	wide := strings.Repeat("w", 120) + "\r\n" + flood
	for _, c := range []struct{ name, before, rest string }{
		{"at a line's end", "", flood},
		{"inside a colour sequence", flood[:3], flood[3:]},
		{"inside a rune", flood[:strings.Index(flood, "…")+1], flood[strings.Index(flood, "…")+1:]},
		{"a wrap pending", wide[:120], wide[120:]},
	} {
		s, whole := NewScreen(120, 40), NewScreen(120, 40)
		s.SetScrollbackLimit(0)
		whole.SetScrollbackLimit(0)
		s.Write([]byte(c.before))
		k := s.Skip([]byte(c.rest))
		if k < len(c.rest)-41*100 {
			t.Errorf("%s: Skip took %d of %d bytes of a plain flood; want all but about 41 lines", c.name, k, len(c.rest))
		}
		s.Write([]byte(c.rest[k:]))
		whole.Write([]byte(c.before + c.rest))
		sameScreen(t, c.name, s, whole)
	}
	if k := NewScreen(120, 40).Skip([]byte("short\r\n")); k != 0 {
		t.Errorf("Skip took %d bytes of a short write; want 0", k)
	}
}

// TestJumpScrollJumps: plain output in a large write does jump, and over
// nearly all of it; a reader of the lines that leave (OnRetire, or a
// scrollback kept) stops it.
func TestJumpScrollJumps(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "\x1b[2m%06d\x1b[0m \x1b[32mINFO\x1b[0m compiling \x1b[1mpackage/%d\x1b[0m … ok \x1b[36m%dms\x1b[0m\r\n", i, i%97, i%13)
	}
	flood := []byte(b.String())
	for _, c := range []struct {
		name   string
		setup  func(s *Screen)
		jumped bool
	}{
		{"nothing reads the lines that leave", func(s *Screen) { s.SetScrollbackLimit(0) }, true},
		{"a scrollback is kept", func(s *Screen) { s.SetScrollbackLimit(10) }, false},
		{"OnRetire reads them", func(s *Screen) { s.SetScrollbackLimit(0); s.OnRetire(func(string, bool) {}) }, false},
	} {
		s := NewScreen(120, 40)
		c.setup(s)
		rest := s.jump(flood)
		if jumped := len(rest) < len(flood); jumped != c.jumped {
			t.Errorf("%s: jumped %v, want %v", c.name, jumped, c.jumped)
		}
		if c.jumped && len(rest) > 41*100 {
			t.Errorf("%s: %d of %d bytes left to parse; want about 41 lines", c.name, len(rest), len(flood))
		}
	}
}

// FuzzJumpScroll: any bytes, repeated past jumpMin, leave the same screen
// fed at once (free to jump), or skipped as far as Skip goes and the rest
// written, as fed a byte at a time (never jumping).
func FuzzJumpScroll(f *testing.F) {
	f.Add([]byte("\x1b[32mok\x1b[0m line\r\n"), uint8(80), uint8(5))
	f.Add([]byte("a\tb\rc\x1b[1;2m日本\r\n"), uint8(10), uint8(3))
	f.Add([]byte("\x1b[H\x1b[2Jx\r\n"), uint8(20), uint8(4))
	f.Fuzz(func(t *testing.T, data []byte, cols, rows uint8) {
		if len(data) == 0 {
			return
		}
		c, r := 1+int(cols)%120, 1+int(rows)%50
		flood := []byte(strings.Repeat(string(data), jumpMin/len(data)+1))
		big, skipped, small := NewScreen(c, r), NewScreen(c, r), NewScreen(c, r)
		big.SetScrollbackLimit(0)
		skipped.SetScrollbackLimit(0)
		small.SetScrollbackLimit(0)
		big.Write(flood)
		skipped.Write(flood[skipped.Skip(flood):])
		for i := range flood {
			small.Write(flood[i : i+1])
		}
		sameScreen(t, fmt.Sprintf("%dx%d %q", c, r, data), big, small)
		sameScreen(t, fmt.Sprintf("skipped, %dx%d %q", c, r, data), skipped, small)
	})
}

// BenchmarkJumpScroll: a flood of coloured log lines in 128 KiB writes,
// as the driver hands them over, through a screen that jumps over what
// scrolls off unseen.
func BenchmarkJumpScroll(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 128<<10; i++ {
		fmt.Fprintf(&sb, "\x1b[2m%06d\x1b[0m \x1b[32mINFO\x1b[0m compiling \x1b[1mpackage/%d\x1b[0m … ok \x1b[36m%dms\x1b[0m\r\n", i, i%97, i%13)
	}
	chunk := []byte(sb.String())
	s := NewScreen(120, 40)
	s.SetScrollbackLimit(0)
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		s.Write(chunk)
	}
}
