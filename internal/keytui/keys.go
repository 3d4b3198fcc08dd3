package keytui

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// read is what one read of the terminal returned, as keys.
type read struct {
	keys []string
	at   time.Time
}

// readKeys reads the terminal one read at a time, as a TUI does, and
// hands on each read's keys together: what a program does with several
// keys in one read is the point of this program.
func readKeys(r io.Reader, log string) <-chan read {
	ch := make(chan read, 64)
	go func() {
		defer close(ch)
		var lw io.Writer = io.Discard
		if log != "" {
			if f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
				defer f.Close()
				lw = f
			}
		}
		buf := make([]byte, 256)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				fmt.Fprintln(lw, strconv.Quote(string(buf[:n])))
				ch <- read{keys: parseKeys(string(buf[:n])), at: time.Now()}
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

// seqs are the escape sequences this program knows, both cursor modes.
var seqs = map[string]string{
	"\x1b[A": "up", "\x1b[B": "down", "\x1b[C": "right", "\x1b[D": "left",
	"\x1bOA": "up", "\x1bOB": "down", "\x1bOC": "right", "\x1bOD": "left", "\x1b[Z": "shift-tab",
}

// parseKeys splits one read into keys.
func parseKeys(s string) []string {
	var keys []string
next:
	for len(s) > 0 {
		for seq, name := range seqs {
			if strings.HasPrefix(s, seq) {
				keys = append(keys, name)
				s = s[len(seq):]
				continue next
			}
		}
		switch c := s[0]; {
		case c == '\r' || c == '\n':
			keys = append(keys, "enter")
		case c == 0x1b:
			keys = append(keys, "esc")
		case c == 0x03:
			keys = append(keys, "ctrl-c")
		case c == '\t':
			keys = append(keys, "tab")
		default:
			keys = append(keys, string(c))
		}
		s = s[1:]
	}
	return keys
}
