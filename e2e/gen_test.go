package e2e

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// genCall is a generated tool call: the command the model asks for, what
// it prints, the file it creates first (proof that it ran) and the answer
// the GUI gives.
type genCall struct {
	Command string
	Output  string // what the command prints, trailing newlines trimmed
	Marker  string
	Approve bool
}

// genScenario is one turn: the calls in order (each in a model reply of
// its own), the final answer, and whether the GUI interrupts at the first
// question instead of answering it.
type genScenario struct {
	Name      string
	Calls     []genCall
	Final     string
	Interrupt bool
}

// seed is the run's seed: E2E_SEED, else the clock, logged either way.
func seed(t *testing.T) uint64 {
	if s := os.Getenv("E2E_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("E2E_SEED=%q: %v", s, err)
		}
		return n
	}
	return uint64(time.Now().UnixNano())
}

// genScenarios makes n scenarios from seed.
func genScenarios(seed uint64, n int) []genScenario {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	out := make([]genScenario, n)
	for i := range out {
		sc := genScenario{Name: fmt.Sprintf("s%d", i), Final: "Done with " + randomWords(r, 1+r.IntN(4)) + "."}
		for j := range 1 + r.IntN(3) {
			c := genCommand(r, j)
			c.Approve = r.IntN(10) < 7
			sc.Calls = append(sc.Calls, c)
		}
		sc.Interrupt = r.IntN(8) == 0
		out[i] = sc
	}
	return out
}

// palette is what payloads are made of: shell metacharacters, quotes,
// backslashes, wide and combining characters, emoji.
var palette = []string{"a", "b", "z", "Q", "0", "7", " ", " ", "-", "--", "_", ".", "/", "'", `"`, "$", "$HOME", `\`, `\n`,
	"|", "&", ";", "(", ")", "*", "?", "~", "#", "%", "!", "`", "=", "é", "ü", "中文", "日本", "🙂", "👍🏽", "→", "e\u0301"}

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(palette[r.IntN(len(palette))])
	}
	return strings.TrimSpace(b.String())
}

var words = []string{"build", "test", "deploy", "check", "alpha", "beta", "release", "notes", "cache", "index"}

func randomWords(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = words[r.IntN(len(words))]
	}
	return strings.Join(w, " ")
}

// sq quotes s for a POSIX shell.
func sq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// genCommand makes call i: a marker file, then a payload printed one of
// several ways (printf, a heredoc, a pipe, nothing), then 0, 1 or 300
// numbered lines, padded with a comment of hyphenated words to a length
// from 5 to 400 so that wraps fall anywhere.
func genCommand(r *rand.Rand, i int) genCall {
	c := genCall{Marker: fmt.Sprintf(".ran-%d-%d", i, r.IntN(1000))}
	payload := randomText(r, r.IntN(40))
	lines := []int{0, 1, 300}[r.IntN(3)]
	var out []string
	head := ": > " + c.Marker
	var cmd string
	switch r.IntN(4) {
	case 0:
		cmd = head + " && printf '%s\\n' " + sq(payload)
		out = append(out, payload)
	case 1:
		cmd = head + " && printf '%s\\n' " + sq(payload) + " | cat"
		out = append(out, payload)
	case 2:
		cmd = head + " && cat <<'EOF'\n" + payload + "\nEOF"
		out = append(out, payload)
	default:
		cmd = head
	}
	if lines > 0 {
		sep := " && "
		if strings.HasSuffix(cmd, "EOF") {
			sep = "\n"
		}
		cmd += sep + fmt.Sprintf("seq 1 %d", lines)
		for n := 1; n <= lines; n++ {
			out = append(out, strconv.Itoa(n))
		}
	}
	if target := 5 + r.IntN(396); len(cmd) < target && !strings.Contains(cmd, "\n") {
		cmd += " #" + pad(r, target-len(cmd)-2)
	}
	c.Command = cmd
	c.Output = strings.TrimRight(strings.Join(out, "\n"), "\n ")
	return c
}

// pad is about n bytes of hyphenated words and spaces.
func pad(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteByte(' ')
		b.WriteString(words[r.IntN(len(words))])
		if r.IntN(2) == 0 {
			b.WriteByte('-')
		}
	}
	return b.String()
}
