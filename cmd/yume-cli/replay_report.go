package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/replay"
	"github.com/yume-cli/yume-cli/vt"
)

// screenAt is the screen a person saw at time t of the recording: every
// output event up to t, at the recorded window sizes, through the same
// screen model the driver uses. Query replies go nowhere.
func screenAt(c *recordings.Cast, t time.Duration) *vt.Screen {
	s := vt.NewScreen(max(c.Header.Width, 1), max(c.Header.Height, 1))
	for _, e := range c.Events {
		if e.Time > t {
			break
		}
		switch e.Code {
		case recordings.CodeOutput:
			_, _ = s.Write([]byte(e.Data)) // A screen write cannot fail.
		case recordings.CodeResize:
			if cols, rows, ok := e.Size(); ok {
				s.Resize(cols, rows)
			}
		}
	}
	return s
}

// printScreenAt writes the screen at t to w, without trailing blank rows,
// each row numbered as the trace and a rule's rows number it, and the
// cursor's cell marked under its row.
func printScreenAt(w io.Writer, c *recordings.Cast, t time.Duration) error {
	if d := c.Duration(); t > d {
		fmt.Fprintf(w, "# the recording ends at %.3fs; this is its last screen\n", d.Seconds())
		t = d
	}
	s := screenAt(c, t)
	cols, rows := s.Cols(), s.Rows()
	row, col, _ := s.Cursor()
	fmt.Fprintf(w, "# the screen at %.3fs, %d×%d; the cursor at row %d, column %d\n", t.Seconds(), cols, rows, row, col)
	lines := strings.Split(strings.TrimSuffix(trimScreen(s.Lines()), "\n"), "\n")
	for i, l := range lines {
		fmt.Fprintf(w, "%3d│ %s\n", i, l)
		if i == row {
			fmt.Fprintf(w, "   │ %s^\n", strings.Repeat(" ", col))
		}
	}
	if row >= len(lines) {
		fmt.Fprintf(w, "%3d│\n   │ %s^\n", row, strings.Repeat(" ", col))
	}
	return nil
}

// trimScreen joins screen rows, dropping trailing blank rows and spaces.
func trimScreen(lines []string) string {
	end := len(lines)
	for end > 0 && strings.TrimSpace(lines[end-1]) == "" {
		end--
	}
	var b strings.Builder
	for _, l := range lines[:end] {
		b.WriteString(strings.TrimRight(l, " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// reportMismatches tells, for each place where the rules and the recording
// typed different keys, what each typed, which rule chose the keys and what
// the screen showed. It returns how many problems it reported.
func reportMismatches(w io.Writer, c *recordings.Cast, r replay.Result) int {
	// The rule and screen of each difference, by its recorded input byte.
	diffs := map[int]driver.KeysError{}
	for _, ke := range r.Outcome.KeyDiffs {
		var km *recordings.KeyMismatch
		if errors.As(ke.Err, &km) {
			diffs[km.Index] = ke
		}
	}
	ms := r.Mismatches
	for _, m := range ms {
		fmt.Fprintf(w, "yume-cli replay: keys differ at %.3fs (recorded input byte %d)\n", m.At.Seconds(), m.Index)
		screen := ""
		ke, known := diffs[m.Index]
		switch {
		case known:
			fmt.Fprintf(w, "  the rules would have typed %s here (rule %s, %s); the recording has %s, a different answer: the replay went on from the recording\n", m.Got, ke.Rule, ke.Why, m.Want)
			screen = ke.Screen
		case m.Got == `""`:
			fmt.Fprintf(w, "  the recording has %s here; no rule typed anything (a person's own typing, or a rule that did not fire: see --trace)\n", m.Want)
		default:
			fmt.Fprintf(w, "  the rules would have typed %s here; the recording has %s\n", m.Got, m.Want)
		}
		if screen == "" {
			screen = strings.Join(screenAt(c, m.At).Lines(), "\n")
		}
		fmt.Fprintf(w, "  screen at that moment:\n%s", indent(trimScreen(strings.Split(screen, "\n"))))
	}
	n := len(ms)
	if pending := r.Pending; r.Err == nil && pending != "" {
		fmt.Fprintf(w, "yume-cli replay: after the last output the recording typed %s; no rule typed it\n", strconv.Quote(pending))
		n++
	}
	return n
}

func indent(s string) string {
	if s == "" {
		return "    (blank)\n"
	}
	return "    │ " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n    │ ") + "\n"
}
