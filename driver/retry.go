package driver

import (
	"fmt"
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
)

// A program may drop keys: Claude Code ignores a key that arrives while it
// still draws a dialog; Gemini CLI, busy drawing a paste, may lose the
// Enter after it. Where the profile says so (drops_keys), keys that
// changed nothing on screen are typed again. Nowhere else: a stray Enter
// waiting in a terminal answers "yes" to the next "[Y/n]". And only while
// nothing at all changed: any redraw (an echo, a dialog closing slowly, a
// spinner) may mean the keys were taken, and once the screen changed
// another question, even an identical one, could be up.

const (
	// retryAfter is how long typed keys get to change the screen.
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
	gen   uint64                // the screen's generation when they were typed
	asked int                   // questions asked by then
	tries int
}

// expectTaken watches keys just typed, where the profile says its
// program drops keys; other programs' keys are never typed again.
func (d *driver) expectTaken(why string, rule *heuristics.Rule, keys heuristics.Keys, det *heuristics.Detection) {
	if !d.cfg.Profile.MayDropKeys() {
		return
	}
	d.t.retry = &retry{why: why, rule: rule, keys: keys, det: det, gen: d.screen.Generation(), asked: d.outcome.Questions}
	d.at[timerRetry] = d.now() + retryAfter
}

// retryKeys types the watched keys again if nothing on screen changed
// since they were typed and nothing else happened; else it stops watching.
func (d *driver) retryKeys() {
	r := d.t.retry
	if r == nil {
		return
	}
	why := ""
	switch {
	case d.screen.Generation() != r.gen:
		why = "the screen changed: the program took them, or moved on"
	case d.outcome.Questions != r.asked || !d.inTurn():
		why = "the session moved on"
	case r.det == nil && d.t.log.prompted:
		why = "the session log holds the prompt"
	case r.det != nil && !d.engine.StillShows(d.screen, r.det):
		why = "the question is gone"
	case d.t.capture != nil && d.logCallDone(d.t.capture.id):
		why = "the session log shows the call ran"
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
	d.tr.state(fmt.Sprintf("nothing on screen changed %v after the %s keys (profile %s drops keys): typing them again (try %d of %d)",
		retryAfter, r.why, d.cfg.Profile.Name, r.tries, maxRetries))
	eq := &equivalents{optional: true}
	if r.det != nil {
		eq = d.equivalentsOf(r.det, r.why, true)
	}
	d.sendMeaning(r.rule, r.why, r.keys, eq)
	r.gen = d.screen.Generation()
	d.at[timerRetry] = d.now() + retryAfter
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
