package driver

import (
	"fmt"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
)

// A program may drop keys: Claude Code ignores a key that arrives while it
// still draws a dialog (a warning line under the command); Gemini CLI,
// busy drawing a paste, may lose the Enter after it. Where the profile
// says so (drops_keys), keys that did not take are typed again. Nowhere
// else: a stray Enter waiting in a terminal answers "yes" to the next
// "[Y/n]". And only while what they were for stays on screen without a
// break (the question, or the input row holding the typed prompt), after a
// full second in which nothing at all changed: a dialog that closes, even
// for a moment, was answered, and what comes after it is another question
// even when it looks the same; a dialog slow to close keeps redrawing, and
// is not answered twice.

const (
	// retryAfter is how long the screen must be still before keys that
	// did not take are typed again.
	retryAfter = time.Second
	// maxRetries bounds how often keys are typed again.
	maxRetries = 2
)

// retry is keys typed to a program that may drop them.
type retry struct {
	why   string                // what the keys do: "submit prompt", "approve", "input"
	rule  *heuristics.Rule      // whose keys they are
	keys  heuristics.Keys       //
	det   *heuristics.Detection // the question they answer (nil: a prompt's Enter)
	row   int                   // a prompt's Enter: the input row…
	line  string                // …and what it held, the prompt in it
	tries int
}

// expectTaken watches keys just typed, where the profile says its
// program drops keys; other programs' keys are never typed again.
func (d *driver) expectTaken(why string, rule *heuristics.Rule, keys heuristics.Keys, det *heuristics.Detection) {
	// A prompt typed into a box read by its shape is a program no profile
	// knows: whether it drops keys is unknown, and its Enter is the one key
	// that may go again (the box still holding the prompt a second later
	// means it was lost: Gemini CLI drops an Enter while it draws a paste).
	boxEnter := why == "submit prompt" && d.t.boxed
	if !d.cfg.Profile.MayDropKeys() && !boxEnter {
		return
	}
	r := &retry{why: why, rule: rule, keys: keys, det: det} // ask() drops it: never typed at another question
	if det == nil {
		r.row, _, _ = d.screen.Cursor()
		r.line = d.screen.Line(r.row)
		if boxEnter {
			// A TUI parks its cursor elsewhere, and may redraw its box
			// lower down: the box's row holding the prompt, wherever it is.
			r.line, r.row = d.screen.Line(d.t.boxRow), -1
		}
	}
	d.t.retry = r
	d.at[timerRetry] = d.keysLanded() + retryAfter
}

// keysLanded is when keys just typed reach the program: now, or in a
// replay when the person's own keys for the same answer end (the program
// cannot react to them sooner, and a retry counted from our typing would
// fire while the recording still shows the person's reaction time).
func (d *driver) keysLanded() time.Duration {
	return max(d.now(), d.t.answeringUntil)
}

// shows reports whether the screen still shows what r's keys were for.
func (d *driver) shows(r *retry) bool {
	if r.det != nil {
		return d.engine.StillShows(d.screen, r.det)
	}
	if r.row < 0 {
		// The input box is the bottom-most row that opens with its marker
		// (the transcript above may echo the prompt the same way).
		marker := boxMarker(r.line)
		for row := d.screen.Rows() - 1; row >= 0 && marker != ""; row-- {
			if l := d.screen.Line(row); boxMarker(l) == marker {
				return l == r.line
			}
		}
		return false
	}
	return strings.TrimSpace(r.line) != "" && d.screen.Line(r.row) == r.line
}

// watchRetry follows the screen after watched keys, at each output: once
// what they were for is gone, they took (or the program moved on), and
// are never typed again; while it stays, the retry waits for the screen to
// be still.
func (d *driver) watchRetry(at time.Duration) {
	r := d.t.retry
	if r == nil {
		return
	}
	if r.row < 0 {
		d.at[timerRetry] = at + retryAfter // a TUI redraws its box whole: judged once still (retryKeys)
		return
	}
	if !d.shows(r) {
		d.t.retry, d.at[timerRetry] = nil, 0
		d.tr.state("the program took the " + r.why + " keys: what they were for left the screen")
		return
	}
	d.at[timerRetry] = at + retryAfter
}

// retryKeys types the watched keys again: the screen has been still for
// retryAfter, and has shown what they were for all along.
func (d *driver) retryKeys() {
	r := d.t.retry
	if r == nil {
		return
	}
	why := ""
	switch {
	case !d.inTurn():
		why = "the session moved on"
	case !d.shows(r):
		why = "what they were for left the screen"
	case r.det == nil && d.t.log.prompted:
		why = "the transcript holds the prompt"
	case d.t.capture != nil && d.logCallDone(d.t.capture.id):
		why = "the transcript shows the call ran"
	case r.tries >= maxRetries:
		why = fmt.Sprintf("typed %d times already", r.tries+1)
	}
	if why != "" {
		d.t.retry = nil
		d.tr.state(fmt.Sprintf("the %s keys are not typed again: %s", r.why, why))
		d.evaluate(true) // a done rule put off for them looks again
		return
	}
	r.tries++
	d.tr.state(fmt.Sprintf("the screen still shows what the %s keys were for, unchanged for %v (profile %s drops keys): typing them again (try %d of %d)",
		r.why, retryAfter, d.cfg.Profile.Name, r.tries, maxRetries))
	eq := &equivalents{optional: true}
	if r.det != nil {
		eq = d.equivalentsOf(r.det, r.why, true)
	}
	d.sendMeaning(r.rule, r.why, r.keys, eq)
	d.at[timerRetry] = d.keysLanded() + retryAfter
}

// awaitsKeys reports keys of kind why still watched: the turn must not
// end before the program took them (a busy TUI may drop the key that
// shows a command's output).
func (d *driver) awaitsKeys(why string) bool {
	return d.t.retry != nil && d.t.retry.why == why
}

// typeAnswer types the keys that answer det, and watches them.
func (d *driver) typeAnswer(det *heuristics.Detection, why string, keys heuristics.Keys) bool {
	if !d.sendMeaning(det.Rule, why, keys, d.equivalentsOf(det, why, false)) {
		return false
	}
	d.t.answerMark = d.markAfter(det)
	d.expectTaken(why, det.Rule, keys, det)
	return true
}

// boxMarker is the glyph an input box's row opens with ("❯", ">"), its
// frame and margin aside; "" for a row that opens with none.
func boxMarker(line string) string {
	t := strings.TrimLeft(strings.TrimLeft(strings.TrimSpace(line), "│┃║|"), " ")
	for _, m := range []string{"❯", "›", ">", "●"} {
		if strings.HasPrefix(t, m) {
			return m
		}
	}
	return ""
}
