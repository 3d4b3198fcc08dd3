// Reading the recording: its output is played through the screen model, and
// its input is cut into answers, each with the question on the screen when
// its first key was typed.

package suggest

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/clipperhouse/displaywidth"
	"github.com/kballard/go-shellquote"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/vt"
)

// FromCast suggests a profile from a recording.
func FromCast(c *recordings.Cast, o Options) (*Profile, error) {
	if c.Header.Width < 1 || c.Header.Height < 1 {
		return nil, fmt.Errorf("the recording has no window size")
	}
	p := &Profile{CommandLine: c.Header.Command, file: o.File, output: o.Output}
	if argv, err := shellquote.Split(c.Header.Command); err == nil {
		p.Command = argv
	} else {
		p.Command = strings.Fields(c.Header.Command)
	}
	p.Name = o.Name
	if p.Name == "" {
		p.Name = nameFromCommand(p.Command)
	}
	what := "the recording"
	if o.File != "" {
		what = filepath.Base(o.File)
	}
	p.Description = fmt.Sprintf("Questions %s asked in %s (suggested by yume-cli rules suggest; review before use).",
		orDefault(c.Header.Command, "the program"), what)

	scr := vt.NewScreen(c.Header.Width, c.Header.Height)
	asked := map[int64]bool{} // absolute rows of the questions so far
	var cur *pending
	var done []*pending
	flush := func() {
		if cur != nil && len(cur.keys) > 0 {
			done = append(done, cur)
		}
		cur = nil
	}
	for _, e := range c.Events {
		switch e.Code {
		case recordings.CodeOutput:
			_, _ = scr.Write([]byte(e.Data)) // a screen model takes any bytes
		case recordings.CodeResize:
			if cols, rows, ok := e.Size(); ok {
				scr.Resize(cols, rows)
			}
		case recordings.CodeInput:
			data := vt.StripQueryReplies([]byte(e.Data))
			for len(data) > 0 {
				if cur != nil && cur.movedOn(scr) {
					flush()
				}
				if cur == nil {
					cur = begin(scr, e.Time, asked)
				}
				// An answer ends with Enter. Ctrl-C and Ctrl-D end it too,
				// and are an answer of their own: leaving, not answering.
				i := bytes.IndexAny(data, "\r\n\x03\x04")
				if i < 0 {
					cur.keys = append(cur.keys, data...)
					break
				}
				if (data[i] == 3 || data[i] == 4) && (i > 0 || len(cur.keys) > 0) {
					cur.keys = append(cur.keys, data[:i]...)
					data = data[i:]
					flush()
					continue
				}
				cur.keys = append(cur.keys, data[:i+1]...)
				data = data[i+1:]
				flush()
			}
		}
	}
	flush()
	for _, pe := range done {
		p.add(pe)
	}
	return p, nil
}

// pending is an answer being typed: the screen it answers and its keys.
type pending struct {
	at     time.Duration
	q      *question // nil when the screen shows no question
	why    string    // why q is nil
	absRow int64     // absolute cursor row at the first key
	keys   []byte
}

// begin reads the question on scr as the person starts to answer it;
// asked holds the absolute rows of the questions before it, and gets this
// one's.
func begin(scr *vt.Screen, at time.Duration, asked map[int64]bool) *pending {
	row, _, _ := scr.Cursor()
	pe := &pending{at: at, absRow: absoluteRow(scr, row)}
	pe.q, pe.why = readQuestion(scr, asked)
	if pe.q != nil {
		asked[pe.q.absRow] = true
	}
	return pe
}

// movedOn reports that the program went on to another row without an
// Enter: a single-key answer was taken and the next key answers something
// else. A wrapped long answer is not moving on.
func (pe *pending) movedOn(scr *vt.Screen) bool {
	row, _, _ := scr.Cursor()
	if absoluteRow(scr, row) == pe.absRow {
		return false
	}
	if row > 0 && displaywidth.String(scr.Line(row-1)) >= scr.Cols() {
		return false
	}
	return cursorAfterText(scr)
}
