// Package keytui is a test program that reads keys the way real TUIs do,
// including the ways they get keys wrong: it draws a permission dialog
// (a numbered list, a list of choice words, a row of choices, a boxed
// list, a one-key y/n, a line y/n), and reads its terminal in raw mode
// one read at a time. In "ink" mode a read that holds more than one key
// is misread as Ink misread it in Claude Code 2.1.197: its arrows are
// lost and an Enter in it chooses the option highlighted before; in
// "drop" mode a key that arrives while it still draws is lost. A key's
// effect can be drawn late (-delay), a frame drawn row by row (-slow), and
// a spinner above the dialog may turn all the while (-animate, as Claude
// Code's logo and its blinking "Running…" row do).
// Choosing an option that allows runs -cmd with sh; -liar runs it
// whatever was chosen (a program that ignores a denial).
//
// Tests run it as a testchild mode (internal/testchild): Main is a mode.
package keytui

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"golang.org/x/term"
)

// config is the program's behaviour, from its flags.
type config struct {
	layout    string
	options   []string
	highlight int
	style     string // pointer, reverse, color
	read      string // keys, ink, drop
	delay     time.Duration
	slow      time.Duration
	dropFor   time.Duration
	animate   time.Duration
	cmd       string
	liar      bool
	digits    bool
	// A dialog of the test's own shape: rows above and below the
	// options, a frame around them ("│|│|44": left, right, inner width),
	// and the pointer that marks the highlight.
	above, below, frame, pointer string
	// log is a file that gets every read of the terminal, a line each
	// (Go-quoted): what arrived together, for the test to check.
	log string
}

// Main runs the program; args are its flags. It returns the exit code.
func Main(args []string) int {
	fs := flag.NewFlagSet("keytui", flag.ContinueOnError)
	var c config
	var options string
	fs.StringVar(&c.layout, "layout", "numbered", "numbered, choices, horizontal, boxed, yn, line, shape")
	fs.StringVar(&options, "options", "", "the options, separated by |")
	fs.IntVar(&c.highlight, "highlight", 0, "the option highlighted first")
	fs.StringVar(&c.style, "style", "pointer", "how the highlight is drawn: pointer, reverse, color")
	fs.StringVar(&c.read, "read", "keys", "keys: every key of a read; ink: a read of several keys is misread; drop: keys while drawing are lost")
	fs.DurationVar(&c.delay, "delay", 0, "a key's effect is drawn this long after it")
	fs.DurationVar(&c.slow, "slow", 0, "pause between the rows of a frame")
	fs.DurationVar(&c.dropFor, "drop-for", 150*time.Millisecond, "drop mode: keys this soon after a frame are lost")
	fs.DurationVar(&c.animate, "animate", 0, "turn a spinner on the top row this often (not a frame: drop mode still takes keys)")
	fs.StringVar(&c.cmd, "cmd", "printf hi > made.txt", "the command the dialog asks about")
	fs.BoolVar(&c.liar, "liar", false, "run the command whatever the answer")
	fs.BoolVar(&c.digits, "digits", false, "a digit chooses its option at once")
	fs.StringVar(&c.above, "above", "", "custom layout: the rows above the options (\\n between rows)")
	fs.StringVar(&c.below, "below", "", "custom layout: the rows below the options")
	fs.StringVar(&c.frame, "frame", "", "custom layout: LEFT|RIGHT|WIDTH around each option")
	fs.StringVar(&c.pointer, "pointer", "❯ ", "the mark of the highlighted option (pointer style)")
	fs.StringVar(&c.log, "log", "", "append every read of the terminal to this file, Go-quoted, a line each")
	seed := fs.Uint64("seed", 0, "shape layout: the seed of the dialog drawn (internal/dialoggen)")
	box := fs.Bool("box", false, "shape layout: take the prompt only in an input box first")
	promptLog := fs.String("prompt-log", "", "shape layout: write the prompt typed into the box to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	c.options = defaultOptions(c.layout)
	if options != "" {
		c.options = strings.Split(options, "|")
	}
	if c.layout == "line" {
		return lineMain(c)
	}
	old, err := term.MakeRaw(0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "keytui:", err)
		return 1
	}
	defer term.Restore(0, old) //nolint:errcheck // Best effort at exit.
	if c.layout == "shape" {
		return shapeMain(c, *seed, *box, *promptLog)
	}
	t := &tui{c: c, hi: c.highlight, keys: readKeys(os.Stdin, c.log)}
	return t.run()
}

func defaultOptions(layout string) []string {
	switch layout {
	case "choices":
		return []string{"Yes", "No"}
	case "horizontal":
		return []string{"Allow once", "Allow always", "Reject"}
	case "boxed":
		return []string{"1. Allow once", "2. Allow for this session", "3. No, suggest changes (esc)"}
	case "yn", "line":
		return []string{"y", "n"}
	}
	return []string{"1. Yes", "2. Yes, and always allow access to ws/ from this project", "3. No"}
}

// lineMain asks a y/n question on a line, the terminal cooked.
func lineMain(c config) int {
	fmt.Printf("Run `%s`? [y/N] ", c.cmd)
	var line string
	_, _ = fmt.Scanln(&line) // An empty or failed read is a no.
	allowed := strings.EqualFold(strings.TrimSpace(line), "y")
	return finish(c, allowed, os.Stdout)
}

// finish runs the command if it was allowed (or the program lies) and
// says how the question ended.
func finish(c config, allowed bool, w io.Writer) int {
	if allowed || c.liar {
		fmt.Fprint(w, "  ⎿  Running…\r\n")
		out, _ := exec.Command("sh", "-c", c.cmd).CombinedOutput() // Its output is the report.
		fmt.Fprintf(w, "  ⎿  ran: %s\r\n", strings.TrimSpace(string(out)))
	}
	if allowed {
		fmt.Fprint(w, "* Finished: allowed.\r\n\r\nIDLE\r\n")
	} else {
		fmt.Fprint(w, "* Finished: refused.\r\n\r\nIDLE\r\n")
	}
	return 0
}
