//go:build unix

package driver_test

import (
	"bytes"
	"fmt"
	"os"

	"github.com/yume-cli/yume-cli/heuristics"
	"golang.org/x/term"
)

// textLog is the child of TestTypedTextFuzz: in raw mode, it logs every
// byte it reads to the file args[0] and walks through its screens: a
// ready prompt, two input prompts and two questions. args[1] says, per
// text, whether it turns bracketed paste on ("1") or off ("0"); args[2]
// "1" means its input box reads '\' Enter as a line break (as Claude
// Code does), so an Enter after a '\' does not submit.
func textLog(args []string) int {
	fd := int(os.Stdin.Fd())
	old, err := term.MakeRaw(fd)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer term.Restore(fd, old) //nolint:errcheck // Best effort: the terminal goes away with the test.
	log, err := os.Create(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer log.Close()
	in := &loggedInput{log: log, bs: args[2] == "1"}
	screen := func(paste byte, text string) {
		mode := "\x1b[?2004l"
		if paste == '1' {
			mode = "\x1b[?2004h"
		}
		fmt.Print(mode + "\x1b[2J\x1b[H" + text)
	}
	screen(args[1][0], "READY> ")
	if !in.text() {
		return 1
	}
	screen(args[1][1], "INPUT-1> ")
	if !in.text() {
		return 1
	}
	screen('0', "Run cmd-1? [y/n/r] ")
	if in.answer() != 'r' {
		return 1
	}
	screen(args[1][2], "INPUT-2> ")
	if !in.text() {
		return 1
	}
	screen('0', "Run cmd-2? [y/n/r] ")
	if a := in.answer(); a != 'y' && a != 'n' {
		return 1
	}
	screen('0', "bye\r\n")
	// The turn's done rule reads "bye" and types the quit key (Ctrl-D):
	// anything typed after the last answer comes before it, and is logged.
	for !bytes.ContainsRune(in.buf, 0x04) {
		if !in.more() {
			return 1
		}
	}
	return 0
}

// loggedInput reads the terminal, logging every byte.
type loggedInput struct {
	log  *os.File
	bs   bool
	buf  []byte // read, not yet taken
	last byte   // the last text byte taken (for '\' Enter)
}

func (in *loggedInput) more() bool {
	b := make([]byte, 4096)
	n, err := os.Stdin.Read(b)
	if n > 0 {
		in.log.Write(b[:n]) //nolint:errcheck // A failed log shows as a mismatch.
		in.buf = append(in.buf, b[:n]...)
	}
	return err == nil || n > 0
}

// text takes one typed text up to the Enter that submits it: an Enter
// outside a bracketed paste, and not right after a '\' when '\' Enter is
// a line break.
func (in *loggedInput) text() bool {
	paste := false
	in.last = 0
	for i := 0; ; {
		// ESC comes only as a paste marker: wait for all of it.
		for i >= len(in.buf) || in.buf[i] == 0x1b && len(in.buf)-i < len(heuristics.PasteStart) {
			if !in.more() {
				return false
			}
			fmt.Print("·") // drawn, as an input box draws what is typed
		}
		rest := in.buf[i:]
		switch {
		case bytes.HasPrefix(rest, []byte(heuristics.PasteStart)):
			paste, i = true, i+len(heuristics.PasteStart)
		case bytes.HasPrefix(rest, []byte(heuristics.PasteEnd)):
			paste, i = false, i+len(heuristics.PasteEnd)
		case in.buf[i] == '\r' && !paste && !(in.bs && in.last == '\\'):
			in.buf = in.buf[i+1:]
			return true
		default:
			in.last = in.buf[i]
			i++
		}
	}
}

// answer takes one answer key and its Enter.
func (in *loggedInput) answer() byte {
	for len(in.buf) < 2 {
		if !in.more() {
			return 0
		}
	}
	a := in.buf[0]
	if in.buf[1] != '\r' {
		return 0
	}
	in.buf = in.buf[2:]
	return a
}
