package driver

import (
	"fmt"
	"strconv"
	"strings"
	"time"

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
	if d.t.dialog.key != "" {
		return // a dialog read by its shape, asked once it stays up (checkDialog)
	}
	if re := d.cfg.Profile.Ready; re != nil && re.MatchString(d.screen.String()) {
		return // the program's own input box: the user's turn, not a question
	}
	if rec := d.src.recording(); rec != nil {
		typed := rec.typedHere()
		if q := d.quitKeys(); len(q) > 0 && typed != "" && strings.HasPrefix(typed, string(q)) && d.t.begun && (d.st == stateIdle || d.st == stateCapturing) &&
			d.cfg.Profile.Ready == nil && heuristics.InputBox(d.screen) {
			// The person leaves at an input box no profile knows: the turn
			// was over (live, the idle timeout says so).
			d.turnDone(nil, "the recording quits at the program's input box")
			return
		}
		if typed != "" {
			d.unasked(typed)
			rec.takeTyped(typed)
		}
		return
	}
	if d.src.blockedOnKeys() {
		d.unasked("")
	}
}

// nobodyToAnswer ends a turn whose program waits for input no rule knows
// when no GUI can answer either (no control channel, or stdin at its end):
// waiting would only wait for the turn timeout. The screen must show the
// question and stay unchanged, the program still reading, for
// nobodyConfirm: what a program printed just before its read may still
// be in the kernel's terminal buffer, where no count of unread output
// sees it, and the rest of the screen may be a question a rule knows.
func (d *driver) nobodyToAnswer(question string, row int) {
	if question == "" {
		return // a blank screen asks nothing yet
	}
	gen, now := d.screen.Generation(), d.now()
	if n := &d.t.nobody; !n.seen || n.gen != gen {
		*n = nobodySeen{seen: true, gen: gen, since: now}
	}
	if wait := d.t.nobody.since + nobodyConfirm - now; wait > 0 {
		d.at[timerQuiet] = now + wait // look again then
		return
	}
	reason := fmt.Sprintf("yume-cli: the program waits for input that no rule of %s recognises (%q), and no GUI can answer: "+
		"the control channel is closed (stdin ended). The turn ends here. Keep stdin open to answer with a user frame, "+
		"or add a rule with --rules (yume-cli rules suggest FILE.cast proposes one).", d.cfg.Profile.Name, question)
	if context := strings.TrimSpace(d.rowsBefore(row) + "\n" + d.screen.Line(row)); context != "" {
		reason += " The screen:\n" + context
	}
	d.tr.state("a question without a rule, and nobody to answer it: " + question)
	d.noteUnrecognised(question)
	d.abort(reason, false)
}

// nobodySeen is the screen a question nobody can answer was first seen
// on, and when.
type nobodySeen struct {
	seen  bool
	gen   uint64
	since time.Duration
}

// nobodyConfirm is how long that screen must stay before the turn ends.
const nobodyConfirm = 250 * time.Millisecond

// lastText is the screen's last row that shows anything: the question a
// program left the cursor under.
func lastText(screen string) string {
	rows := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	return strings.TrimSpace(rows[len(rows)-1])
}

// unasked reports a question found without a rule, once per screen.
func (d *driver) unasked(typed string) {
	row, _, _ := d.screen.Cursor()
	question := strings.TrimSpace(d.screen.Line(row))
	if question == "" {
		question = lastText(d.screen.String()) // the cursor sits under it
	}
	if typed == "" && !d.src.canAsk() {
		d.nobodyToAnswer(question, row)
		return
	}
	key := fmt.Sprintf("%d:%d:%s", d.screen.Retired(), row, question)
	if d.t.noticed[key] {
		return
	}
	d.t.noticed[key] = true
	d.noteUnrecognised(question)
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

// nearestRules is how many rules an unrecognised question names.
const nearestRules = 3

// noteUnrecognised keeps a question no rule knew in the outcome, with
// the rules nearest to matching the screen.
func (d *driver) noteUnrecognised(question string) {
	d.outcome.Unrecognised = append(d.outcome.Unrecognised, Unrecognised{
		At: d.now(), Question: question, Screen: d.screen.String(),
		Nearest: heuristics.Nearest(d.screen, d.cfg.Profile, nearestRules),
	})
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
	d.src.expectKeys() // asked as soon as it reads its terminal (pausedAt), if before then
	d.tr.state(fmt.Sprintf("rule %s matches, but the program is still running: not a question yet (look %d of %d)", det.Rule.Name, d.t.runningDeferred, maxRunningDefer))
	return true
}
