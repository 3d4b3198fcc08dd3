package driver

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestCommandShownGenerated: a command under a heading (with or without a
// blank line between, indented two to six spaces), in a box right above
// the question or under a heading, or after "$ ", is found; text around
// it (a paragraph, a blank line before the question) is not taken for it;
// a paragraph with no heading and no box has none.
func TestCommandShownGenerated(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	headings := []string{"Suggested command:", "The command to run:", "Command:", "This will run:", "Suggestion:", "Running the command:"}
	commands := []string{"rm -rf build/cache", "npm test", "git push origin main", "ls -la", "make -j4 all", "docker compose up -d"}
	prose := []string{"I can help with that.", "Here is what I would do.", "Welcome to the helper", ""}
	boxes := [][3]string{{"╭", "╮", "│"}, {"┌", "┐", "│"}, {"+", "+", "|"}}
	for i := 0; i < 500; i++ {
		cmd := pick(commands)
		var lines []string
		for n := rng.IntN(3); n > 0; n-- {
			lines = append(lines, pick(prose))
		}
		shape := rng.IntN(4)
		indent := strings.Repeat(" ", 2+rng.IntN(5))
		switch shape {
		case 0: // heading, then the command indented
			lines = append(lines, pick(headings))
			if rng.IntN(2) == 0 {
				lines = append(lines, "")
			}
			lines = append(lines, indent+cmd)
		case 1, 2: // a box, alone or under a heading
			if shape == 2 {
				lines = append(lines, pick(headings))
			}
			b := boxes[rng.IntN(len(boxes))]
			w := len(cmd) + 2
			bottom := map[string]string{"╭": "╰", "┌": "└", "+": "+"}[b[0]]
			end := map[string]string{"╮": "╯", "┐": "┘", "+": "+"}[b[1]]
			dash := "─"
			if b[0] == "+" {
				dash = "-"
			}
			lines = append(lines, indent+b[0]+strings.Repeat(dash, w)+b[1],
				indent+b[2]+" "+cmd+" "+b[2],
				indent+bottom+strings.Repeat(dash, w)+end)
		case 3:
			lines = append(lines, "$ "+cmd)
		}
		if rng.IntN(2) == 0 {
			lines = append(lines, "")
		}
		ctx := strings.Join(lines, "\n")
		if got := commandShown(ctx); got != cmd {
			t.Fatalf("case %d (shape %d): commandShown = %q, want %q; context:\n%s", i, shape, got, cmd, ctx)
		}
		// The same block without its heading, box or "$ " shows no command.
		plain := strings.Join(append([]string{pick(prose)}, indent+cmd), "\n")
		if shape == 0 && !strings.HasPrefix(lines[0], " ") {
			if got := commandShown(plain); got != "" {
				t.Fatalf("case %d: commandShown(%q) = %q, want none", i, plain, got)
			}
		}
	}
}
