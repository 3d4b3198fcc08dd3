package vt

import (
	"bytes"
	"math/rand"
	"testing"
)

// TestEndsAsking: a chunk that ends with a query the screen answers is
// told apart from one that ends otherwise.
func TestEndsAsking(t *testing.T) {
	for _, c := range []struct {
		name string
		p    string
		want bool
	}{
		{"cursor position", "drawn\x1b[6n", true},
		{"status", "\x1b[5n", true},
		{"primary device attributes", "\x1b[c", true},
		{"secondary device attributes", "\x1b[>c", true},
		{"a private mode report", "\x1b[?1007$p", true},
		{"kitty keyboard flags", "\x1b[?u", true},
		{"window size in cells", "\x1b[18t", true},
		{"background colour, ST", "\x1b]11;?\x1b\\", true},
		{"foreground colour, BEL", "\x1b]10;?\a", true},
		{"palette colour", "\x1b]4;1;?\x1b\\", true},
		{"XTGETTCAP", "\x1bP+q544e\x1b\\", true},
		{"Codex's start, five at once", "\x1b[?u\x1b[?1007$p\x1b[c\x1b[6n\x1b]10;?\x1b\\\x1b]11;?\x1b\\", true},
		{"a query, then more output", "\x1b[6nmore", false},
		{"a query cut by the read", "\x1b]11;", false},
		{"colours", "\x1b[31mred\x1b[0m", false},
		{"restore the cursor", "\x1b[u", false},
		{"push kitty flags", "\x1b[>1u", false},
		{"a title", "\x1b]0;title\a", false},
		{"synchronized output", "\x1bP=1s\x1b\\", false},
		{"a lone ST", "text\x1b\\", false},
		{"text", "Run this? (y/n) ", false},
		{"nothing", "", false},
	} {
		if got := EndsAsking([]byte(c.p)); got != c.want {
			t.Errorf("%s: EndsAsking(%q) = %v, want %v", c.name, c.p, got, c.want)
		}
	}
}

// TestEndsAskingAsTheScreenAnswers: over generated CSI sequences and OSC
// and DCS strings, each after some text, EndsAsking says a query exactly
// where the screen answers one (seeded; the seed is printed).
func TestEndsAskingAsTheScreenAnswers(t *testing.T) {
	seed := rand.Int63()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	markers := []string{"", "?", ">", "="}
	params := []string{"", "0", "1", "5", "6", "14", "16", "18", "19", "22", "996", "1;2", "2026"}
	inters := []string{"", "", "$", " "}
	finals := "ncputqmhlsRJK"
	strs := []string{"]10;", "]4;", "]10;?;", "]4;300;", "]11;", "]12;", "]4;1;", "]0;", "]2;", "]52;c;", "]8;;", "P+q", "P$q", "P=1s", "Ptmux;", "P"}
	bodies := []string{"?", "", "title", "544e", "rgb:0/0/0", "m", "?x"}
	ends := []string{"\a", "\x1b\\"}
	for i := 0; i < 5000; i++ {
		var seq string
		if rng.Intn(3) == 0 {
			seq = "\x1b" + strs[rng.Intn(len(strs))] + bodies[rng.Intn(len(bodies))] + ends[rng.Intn(len(ends))]
		} else {
			seq = "\x1b[" + markers[rng.Intn(len(markers))] + params[rng.Intn(len(params))] +
				inters[rng.Intn(len(inters))] + string(finals[rng.Intn(len(finals))])
		}
		p := []byte("text " + seq)
		var replies bytes.Buffer
		s := NewScreen(80, 24)
		s.SetReplyWriter(&replies)
		s.Write(p)
		if got, want := EndsAsking(p), replies.Len() > 0; got != want {
			t.Fatalf("seed %d: %q: EndsAsking %v, the screen answered %q", seed, seq, got, replies.String())
		}
	}
}

func BenchmarkEndsAsking(b *testing.B) {
	chunk := bytes.Repeat([]byte("\x1b[38;5;196mcoloured output line\x1b[0m\r\n"), 100)
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		EndsAsking(chunk)
	}
}
