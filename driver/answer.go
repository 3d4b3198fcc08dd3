package driver

import (
	"fmt"
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
)

// A TUI may drop the keys that answer its question: Claude Code ignores a
// key that arrives while it is still drawing the dialog (a warning line
// below the command, say), and a GUI can answer within a millisecond. So
// an answer is typed again when the question still shows, unchanged, on a
// settled screen a while after it was typed.

const (
	// retypeAfter is how long typed answer keys get to take effect.
	retypeAfter = 400 * time.Millisecond
	// maxRetypes bounds how often an answer is typed again.
	maxRetypes = 3
)

// answered is a question answered with keys.
type answered struct {
	det   *heuristics.Detection
	why   string
	keys  heuristics.Keys
	at    time.Duration
	tries int
}

// typeAnswer types the keys that answer det and remembers them.
func (d *driver) typeAnswer(det *heuristics.Detection, why string, keys heuristics.Keys) bool {
	if !d.sendMeaning(det.Rule, why, keys, d.equivalentsOf(det, why, false)) {
		return false
	}
	d.answered = &answered{det: det, why: why, keys: keys, at: d.now()}
	d.answerMark = d.markAfter(det)
	return true
}

// retypeAnswer types the last answer again if its question still shows;
// true when it did.
func (d *driver) retypeAnswer() bool {
	a := d.answered
	if a == nil {
		return false
	}
	if a.tries >= maxRetypes || !d.engine.StillShows(d.screen, a.det) || d.cursorLeft(a.det) || d.answerTaken(a) {
		d.answered = nil
		return false
	}
	if d.now()-a.at < retypeAfter {
		d.quietAt = a.at + retypeAfter // look again once it had its time
		return true
	}
	a.tries++
	a.at = d.now()
	d.tr.state(fmt.Sprintf("the question is still on screen: typing the %s keys again (try %d of %d)", a.why, a.tries, maxRetypes))
	d.sendMeaning(a.det.Rule, a.why, a.keys, d.equivalentsOf(a.det, a.why, true))
	return true
}

// answerTaken reports whether the record shows the answered call ran: the
// program took the answer even if its screen still shows the dialog.
func (d *driver) answerTaken(a *answered) bool {
	if d.capture == nil {
		return false
	}
	c := d.callOf(d.capture.id)
	return c != nil && c.done
}

// cursorLeft reports that a question asked with the cursor at its end
// (cursor: end) no longer has the cursor there: the program took the
// answer and went on (npm init leaves each answered field on screen).
func (d *driver) cursorLeft(det *heuristics.Detection) bool {
	rows := visibleRows(det.Rows)
	if det.Rule.Cursor != heuristics.CursorEnd || len(rows) == 0 {
		return false
	}
	row, _, _ := d.screen.Cursor()
	return row != rows[len(rows)-1]
}
