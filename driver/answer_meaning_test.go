package driver

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
)

// TestWalkGenerated: arrow keys typed one at a time, in either cursor-key
// mode, then Enter, reach the option the arithmetic says (clamped at the
// ends); a number key picks its option; what a walk reaches means
// approval only at the option that allows once, denial at the one that
// rejects or any No/Quit/Cancel/Exit option; other keys are no walk.
func TestWalkGenerated(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	words := []string{"Yes", "Yes, and don't ask again", "No, and tell it what to do", "Quit", "Cancel", "Exit", "Maybe later"}
	for i := 0; i < 1000; i++ {
		n := 2 + rng.IntN(4)
		dl := &heuristics.Dialog{Highlight: rng.IntN(n), Allow: -1, Reject: -1}
		for k := 0; k < n; k++ {
			dl.Options = append(dl.Options, strings.Join([]string{string(rune('1' + k)), ". ", words[rng.IntN(len(words))]}, ""))
		}
		dl.Allow, dl.Reject = rng.IntN(n), rng.IntN(n)
		var keys strings.Builder
		at, moved := dl.Highlight, false
		for m := rng.IntN(6); m > 0; m-- {
			down := rng.IntN(2) == 0
			mode := []string{"\x1b[", "\x1bO"}[rng.IntN(2)]
			if down {
				keys.WriteString(mode + "B")
				at = min(at+1, n-1)
			} else {
				keys.WriteString(mode + "A")
				at = max(at-1, 0)
			}
			moved = true
		}
		keys.WriteString("\r")
		tail := []string{"", "\x03", "more"}[rng.IntN(3)]
		w, ok := walkOf(dl, keys.String()+tail)
		if !moved {
			if ok {
				t.Fatalf("case %d: Enter alone read as a walk", i)
			}
			continue
		}
		if !ok || w.option != at || string(w.keys) != keys.String() {
			t.Fatalf("case %d: walkOf(%q) = %+v, %v; want option %d (options %q, from %d)", i, keys.String(), w, ok, at, dl.Options, dl.Highlight)
		}
		want := ""
		switch {
		case at == dl.Reject || strings.Contains(dl.Options[at], "No,") || strings.Contains(dl.Options[at], "Quit") || strings.Contains(dl.Options[at], "Cancel") || strings.Contains(dl.Options[at], "Exit"):
			want = "deny"
		case at == dl.Allow:
			want = "approve"
		}
		if got := walkMeans(dl, w); got != want {
			t.Fatalf("case %d: reaching %q (allow %d, reject %d) means %q, want %q", i, dl.Options[at], dl.Allow, dl.Reject, got, want)
		}
		// A number key picks its option at once.
		k := rng.IntN(n)
		if w, ok := walkOf(dl, string(rune('1'+k))+tail); !ok || w.option != k {
			t.Fatalf("case %d: key %d picks %+v, %v", i, k+1, w, ok)
		}
	}
	if _, ok := walkOf(&heuristics.Dialog{Options: []string{"1. Yes", "2. No"}}, "\x1bx\r"); ok {
		t.Error("an unknown escape read as a walk")
	}
}

// TestPromptLineGenerated: typed text up to Enter is the prompt, with
// Backspace applied and a bracketed paste's markers taken out; input with
// no Enter, or with keys that are not typing, is no prompt.
func TestPromptLineGenerated(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	letters := []rune("abcdefghij klmnopé✓")
	for i := 0; i < 1000; i++ {
		var raw strings.Builder
		var text []rune
		paste := rng.IntN(4) == 0
		if paste {
			raw.WriteString(pasteStart)
		}
		for n := 1 + rng.IntN(20); n > 0; n-- {
			if !paste && len(text) > 0 && rng.IntN(8) == 0 {
				raw.WriteByte(0x7f)
				text = text[:len(text)-1]
				continue
			}
			r := letters[rng.IntN(len(letters))]
			raw.WriteRune(r)
			text = append(text, r)
		}
		if paste {
			raw.WriteString(pasteEnd)
		}
		want := strings.TrimSpace(string(text))
		in := raw.String() + "\r" + "\x03"
		gotRaw, got, ok := promptLine(in)
		if ok != (want != "") || ok && (got != want || gotRaw != raw.String()) {
			t.Fatalf("case %d: promptLine(%q) = %q, %q, %v; want %q", i, in, gotRaw, got, ok, want)
		}
		if _, _, ok := promptLine(raw.String()); ok {
			t.Fatalf("case %d: input with no Enter read as a prompt: %q", i, raw.String())
		}
		if _, _, ok := promptLine(raw.String() + "\x1b[A\r"); ok {
			t.Fatalf("case %d: an arrow key read as typing", i)
		}
	}
}
