package driver

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/yume-cli/yume-cli/heuristics"
)

// Questions found without a rule. A program blocked reading its
// terminal, with everything it printed read and drawn, waits for an
// answer whatever its screen says (Linux: InputWait); in a replay, a
// person typing at a screen is the same fact. Where no rule knows the
// question, the GUI hears of it (a notice with the question and its
// context), a `user` frame can answer it, and a replay takes the
// person's answer as theirs, not as a wrong rule.

// checkUnasked looks, on a settled screen where no rule fired, for a
// question no rule knows.
func (d *driver) checkUnasked() {
	if d.st != stateIdle && d.st != stateCapturing || d.at[timerEnter] != 0 || d.t.queued != "" {
		return // not a question, or an answer is being typed
	}
	if re := d.cfg.Profile.Ready; re != nil && re.MatchString(d.screen.String()) {
		return // the program's own input box: the user's turn, not a question
	}
	if rec := d.src.recording(); rec != nil {
		if typed := rec.typedHere(); typed != "" {
			d.unasked(typed)
			rec.takeTyped(typed)
		}
		return
	}
	if d.src.blockedOnKeys() {
		d.unasked("")
	}
}

// unasked reports a question found without a rule, once per screen.
func (d *driver) unasked(typed string) {
	row, _, _ := d.screen.Cursor()
	question := strings.TrimSpace(d.screen.Line(row))
	key := fmt.Sprintf("%d:%d:%s", d.screen.Retired(), row, question)
	if d.t.noticed[key] {
		return
	}
	d.t.noticed[key] = true
	context := d.rowsBefore(row)
	msg := fmt.Sprintf("yume-cli: the program waits for input that no rule of %s recognises: %q", d.cfg.Profile.Name, question)
	if context != "" {
		msg += "\n\n" + context
	}
	if typed != "" {
		msg += "\n\nThe recording answered " + strconv.Quote(typed) + "."
		d.t.answerMark = d.screen.Retired() + uint64(row) + 1
	} else {
		msg += "\n\nAnswer with a user frame (its text is typed, then Enter), or add a rule: yume-cli rules suggest FILE.cast proposes one from a recording."
	}
	d.tr.state("a question without a rule: " + question)
	d.emitErr(d.out.Notice(msg))
}

// typedHere is what the recording typed at the screen the driver is at:
// the input recorded before the next output (the one held back, if any).
func (s *replaySource) typedHere() string {
	if r, ok := s.rec.(interface{ TypedHere(bool) string }); ok {
		return r.TypedHere(s.held != nil)
	}
	return ""
}

// takeTyped consumes the recording's own answer to a question without a
// rule: the person's answer, not a missing one.
func (t *replayTerm) takeTyped(typed string) {
	if w, ok := t.rec.(answerWriter); ok {
		_, _ = w.WriteAnswer([]byte(typed), nil, false, false) // it is the recorded input itself
	}
}

// maxRunningDefer bounds how often a question is put off because the
// program is on a CPU (times the quiet period: about a second).
const maxRunningDefer = 25

// stillRunning puts off a question while the program is still running
// (live, Linux): a line ending in "?" printed by a program that goes on
// working is not a question yet. Bounded: after maxRunningDefer looks it
// fires anyway. A profile whose program keeps running while it asks (the
// AI TUIs redraw and tick while their dialog waits) opts out: put off, a
// Gemini dialog waited 0.5 s for nothing.
func (d *driver) stillRunning(det *heuristics.Detection) bool {
	if det.Kind != heuristics.KindConfirm && det.Kind != heuristics.KindMenu || d.cfg.Profile.KeepsRunningWhileAsking() {
		return false
	}
	if d.t.runningDeferred >= maxRunningDefer || !d.src.onCPU() {
		d.t.runningDeferred = 0
		return false
	}
	d.t.runningDeferred++
	d.engine.Unfire(d.screen, det)
	d.at[timerQuiet] = d.now() + d.quiet
	d.tr.state(fmt.Sprintf("rule %s matches, but the program is still running: not a question yet (look %d of %d)", det.Rule.Name, d.t.runningDeferred, maxRunningDefer))
	return true
}
