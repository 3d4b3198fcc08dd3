package keytui

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"

	"github.com/yume-cli/yume-cli/internal/dialoggen"
	"golang.org/x/term"
)

// The "shape" layout is an agent nobody taught: a dialog drawn from a
// seed by internal/dialoggen, so the test that starts it knows what it
// drew. With -box the agent takes its prompt only in its input box: it
// shows the box empty (a faint placeholder, the cursor hidden) until a
// line is typed there, then asks. Its options' own keys, the arrows and
// Enter answer; the command it asks about runs when the answer allows
// it, and its output is drawn under the call the way the shape says
// ("⏺ Bash(cmd)" over "⎿ out", "$ cmd" over it, or not at all), the
// model's answer after it, and the input box again.

// shapeMain runs the shape layout; the terminal is raw.
func shapeMain(c config, seed uint64, box bool, promptLog string) int {
	cols, _, err := term.GetSize(1)
	if err != nil || cols <= 0 {
		cols = 100
	}
	s := dialoggen.Generate(rand.New(rand.NewPCG(seed, 2)), dialoggen.Options{Runnable: true, Cols: cols})
	keys := readKeys(os.Stdin, c.log)
	fmt.Print("\x1b[?25l") // a TUI draws its own cursor
	if box {
		prompt, ok := readPrompt(keys)
		if !ok {
			return 1
		}
		if promptLog != "" {
			_ = os.WriteFile(promptLog, []byte(prompt), 0o600) // the test reads it
		}
	}
	hi := s.First
	draw := func() { fmt.Print("\x1b[H\x1b[2J" + s.Render(hi)) }
	draw()
	fwd, back := s.Moves()
	for r := range keys {
		for _, k := range r.keys {
			chosen := -2
			switch {
			case k == "esc" || k == "ctrl-c":
				chosen = -1
			case k == "enter" && hi >= 0:
				chosen = hi
			case k == fwd && hi >= 0:
				hi = min(hi+1, len(s.Options)-1)
			case k == back && hi >= 0:
				hi = max(hi-1, 0)
			default:
				for i, key := range s.Keys {
					if key == k {
						chosen = i
					}
				}
			}
			if chosen == -2 {
				draw()
				continue
			}
			return shapeEnd(s, chosen, keys)
		}
	}
	return 1
}

// inputBox is an empty input box: a marker, a faint placeholder.
const inputBox = "╭──────────────────────────────────────────╮\r\n│ ❯ \x1b[2mAsk anything...\x1b[0m                        │\r\n╰──────────────────────────────────────────╯"

// readPrompt shows the empty input box and reads a line typed into it.
func readPrompt(keys <-chan read) (string, bool) {
	fmt.Print("\x1b[H\x1b[2J  ▄▀ agent 0.0.1\r\n\r\n" + inputBox)
	var b strings.Builder
	for r := range keys {
		for _, k := range r.keys {
			switch {
			case k == "enter":
				if b.Len() == 0 {
					continue
				}
				fmt.Print("\x1b[H\x1b[2J ❯ " + b.String() + "\r\n\r\n ⠋ Thinking...")
				return b.String(), true
			case k == "ctrl-c":
				return "", false
			case len(k) == 1:
				b.WriteString(k)
				fmt.Print("\x1b[H\x1b[2J  ▄▀ agent 0.0.1\r\n\r\n│ ❯ " + b.String() + "\x1b[7m \x1b[0m")
			}
		}
	}
	return "", false
}

// shapeEnd runs the command if the chosen option allows it, draws what
// an agent draws after, and idles until Ctrl-C twice.
func shapeEnd(s dialoggen.Shape, chosen int, keys <-chan read) int {
	allowed := chosen >= 0 && chosen != s.Reject
	var rows []string
	cmd := s.Full()
	if allowed {
		out, _ := exec.Command("sh", "-c", cmd).CombinedOutput() // Its output is the report.
		lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		switch s.Output {
		case "bullet":
			rows = append(rows, "⏺ Bash("+cmd+")", "  ⎿ "+lines[0])
			for _, l := range lines[1:] {
				rows = append(rows, "    "+l)
			}
		case "dollar":
			rows = append(append(rows, "$ "+cmd), lines...)
		case "star":
			rows = append(rows, " * run_commands("+cmd+")", "   ⎿ "+lines[0])
			for _, l := range lines[1:] {
				rows = append(rows, "     "+l)
			}
		default:
			rows = append(rows, "⚒ Ran 1 command")
		}
	} else {
		rows = append(rows, "⏺ Bash("+cmd+")", "  ⎿ Cancelled by the user")
	}
	rows = append(rows, "", "⏺ All done.", "", "")
	fmt.Print("\x1b[H\x1b[2J" + strings.Join(rows, "\r\n") + inputBox)
	ctrlC := 0
	for r := range keys {
		for _, k := range r.keys {
			if k == "ctrl-c" {
				if ctrlC++; ctrlC == 2 {
					return 0
				}
			}
		}
	}
	return 0
}
