package driver

import (
	"errors"
	"fmt"
	"strings"

	"github.com/yume-cli/yume-cli/heuristics"
)

// KeysError is a driver fault while typing: in a replay, keys that differ
// from the recorded ones. It names the rule and shows the screen.
type KeysError struct {
	Rule   string
	Why    string
	Err    error
	Screen string
}

func (e *KeysError) Error() string {
	rule := e.Rule
	if rule == "" {
		rule = "(none)"
	}
	return fmt.Sprintf("%s (rule %s): %v\nscreen at that moment:\n%s", e.Why, rule, e.Err, e.Screen)
}

func (e *KeysError) Unwrap() error { return e.Err }

// evaluate asks the engine what the screen means and acts on it.
func (d *driver) evaluate(settled bool) {
	if d.screen.Synchronized() {
		if settled { // a frame is still being drawn: look again later
			d.at[timerQuiet] = d.now() + d.quiet
		}
		return
	}
	if d.t.keying != nil { // an answer is being typed: only its keys matter
		d.stepKeys()
		return
	}
	if !settled && d.t.settling {
		return
	}
	d.t.settling = false
	if d.followAnswer(settled); settled {
		d.checkDenials()
	}
	switch d.st {
	case stateEnded:
		return
	case stateQuitting: // the turn is over: only leaving matters now
		if settled && d.quits < quitTries {
			d.quit()
		}
		return
	}
	d.watchOutput(settled)
	d.takeNoOps()
	d.takeViewKeys()
	if settled {
		d.noteClosed()
	}
	if d.recordedPrompt() || d.t.answeringUntil > d.now() {
		return // a replay: the screens of a person's prompt or answer in progress
	}
	if settled {
		d.pollLog()
		d.typeIntoBox()
		d.typePrompt()
	}
	// One screen may hold several detections (a suggestion, then the menu
	// below it): evaluate until nothing fires or a question waits.
	fired := false
	// The transcript read above may have ended the turn: then only leaving
	// matters, as for every later screen (an input rule's Ctrl-O typed
	// after the quit keys, live but not in the replay, where the log's end
	// came at another screen).
	for i := 0; i < maxDetectionsPerScreen && d.st != stateEnded && d.st != stateQuitting && d.fault == nil; i++ {
		det, steps := d.engine.Evaluate(d.screen, settled)
		if settled || det != nil {
			d.tr.evaluate(settled, steps)
		}
		if det == nil {
			break
		}
		if d.stillRunning(det) {
			return
		}
		fired = true
		d.handle(det)
		if d.st == stateAwaiting || d.t.settling || d.t.log.waiting != nil || d.t.heldBack {
			d.t.heldBack = false
			return // keys were typed, or held back: this screen is about to change
		}
	}
	if !settled && !fired && !d.t.settling && d.src.blockedOnKeys() {
		// The program has drawn everything and reads its terminal: the
		// screen is settled now, not after the quiet period.
		d.tr.state("the program is blocked reading its terminal: the screen is settled")
		d.at[timerQuiet] = 0
		d.evaluate(true)
		return
	}
	if !settled && !fired && !d.t.settling {
		d.questionSettles()
	}
	if settled {
		d.checkIdle()
		d.checkStall()
		d.checkModelError()
		if !fired && !d.checkDialog() {
			d.checkUnasked()
		}
	}
}

// maxDetectionsPerScreen bounds re-evaluation of one screen, so a rule
// set that keeps firing cannot spin.
const maxDetectionsPerScreen = 8

func (d *driver) handle(det *heuristics.Detection) {
	if d.st == stateBetween && det.Kind != heuristics.KindInput && det.Kind != heuristics.KindFail {
		d.tr.state("between turns: " + det.Rule.Name + " (" + string(det.Kind) + ") belongs to no turn; ignored")
		return
	}
	switch det.Kind {
	case heuristics.KindSuggestion:
		d.t.suggestion = det.Command
	case heuristics.KindText:
		if !d.logFound() { // the transcript has the text, exact
			d.text(det.Text)
		}
	case heuristics.KindResult:
		d.result(det)
	case heuristics.KindDone:
		d.done(det)
	case heuristics.KindError:
		d.ruleModelError(det)
	case heuristics.KindFail:
		what := det.Text
		if what == "" {
			what = det.Prompt
		}
		hint := strings.ReplaceAll(det.Rule.Hint, "{cwd}", d.cfg.Cwd)
		where := "" // the folder, where the hint does not name it
		if d.cfg.Cwd != "" && !strings.Contains(det.Rule.Hint, "{cwd}") {
			where = " in " + d.cfg.Cwd
		}
		reason := fmt.Sprintf("%s shows %q%s, which yume-cli cannot answer: %s", d.cfg.Profile.Name, what, where, hint)
		if d.cfg.FirstRun != nil {
			if more := d.cfg.FirstRun(det.Rule.Name); more != "" {
				reason += ". " + more
			}
		}
		d.tr.state("fail rule " + det.Rule.Name + ": " + reason)
		d.abort(reason, false)
	case heuristics.KindInput: // answered by yume-cli itself, e.g. with the prompt
		if det.Rule.Approve.NeedsPrompt() {
			d.t.boxPrompt = "" // a rule knows where it goes
		}
		d.input(det)
	case heuristics.KindConfirm, heuristics.KindMenu:
		if det.Rule.Followup && d.t.verdict != undecided {
			d.answerFollowup(det)
			return
		}
		if d.sameCallAgain(det) || d.stillAnswering(det) || d.stillClosing(det) {
			return
		}
		if d.st == stateAwaiting {
			d.supersede("the program moved on before a decision was made")
		}
		d.endCapture(det)
		if !d.askWithLog(det) {
			d.ask(det)
		}
	}
}

// input answers an input question with the prompt (or a revision's
// feedback), or, where there is nothing to type, leaves it to the user.
func (d *driver) input(det *heuristics.Detection) {
	text := d.cfg.Prompt
	revising := d.t.revising
	if revising {
		text, d.t.revision, d.t.revising = d.t.revision, "", false
	}
	rec := d.src.recording()
	if text == "" && rec != nil {
		text = rec.RecordedPrompt() // a replay types what was typed there
	}
	again := d.t.lastInput == nil || d.t.lastInput.Key != det.Key
	if rec == nil && !revising && again && det.Rule.Once && (text == "" || d.onceTyped[det.Rule.Name]) {
		d.waitsForUser(det)
		return
	}
	d.onceTyped[det.Rule.Name] = true
	keys := d.promptKeys(det.Rule.Approve, text)
	// A person types the text key by key where yume-cli pastes it:
	// the same answer.
	typed := &equivalents{also: [][]byte{append([]byte(heuristics.TypeText(text, false, heuristics.Newline{}).Keys), '\r')}, optional: d.ownKeys(det)}
	if d.sendMeaning(det.Rule, "input", keys, typed) && again {
		d.t.lastInput = det
		d.t.answerMark = d.markAfter(det)
		if !d.skippedOwn(typed) {
			d.expectTaken("input", det.Rule, keys, det)
		}
	}
}

// send types keys for a rule; false if they could not be encoded or written.
func (d *driver) send(rule *heuristics.Rule, why string, keys heuristics.Keys) bool {
	return d.sendMeaning(rule, why, keys, nil)
}

// sendMeaning is send for an answer whose meaning a replay compares
// (eq, nil: the bytes). A replay whose recording answered differently is
// not stopped: the difference is kept (Outcome.KeyDiffs) and the replay
// goes on from the recording.
func (d *driver) sendMeaning(rule *heuristics.Rule, why string, keys heuristics.Keys, eq *equivalents) bool {
	b, err := keys.Encode(d.screen)
	if err == nil && len(b) > 0 {
		d.tr.keys(why, rule.Name, b)
		d.t.settling = true
		d.at[timerQuiet] = d.now() + d.quiet // settle even if the program prints nothing
		if rec := d.src.recording(); rec != nil && eq != nil {
			_, err = rec.WriteAnswer(b, eq.also, eq.anyLine, eq.optional)
			if until := rec.TypedUntil(); until > d.now() {
				// The person's answer took keys typed while the program
				// redrew: those screens are the answer in progress.
				d.t.answeringUntil = until
				d.tr.state(fmt.Sprintf("the recording's answer goes on until %v: no new question before", until))
			}
		} else {
			_, err = d.cfg.Term.Write(b)
		}
	}
	var m *KeyMismatch
	if errors.As(err, &m) {
		d.tr.state(fmt.Sprintf("the recording answered otherwise (%v); the replay goes on from the recording", m.Err))
		d.outcome.KeyDiffs = append(d.outcome.KeyDiffs, KeysError{Rule: rule.Name, Why: why + " keys", Err: m.Err, Screen: d.screen.String()})
		return true
	}
	if err != nil {
		d.tr.state(fmt.Sprintf("could not type %s keys for rule %s: %v", why, rule.Name, err))
		d.keyFault(why+" keys", rule.Name, err)
		return false
	}
	return true
}

// markAfter is the absolute line after the question: output starts there.
func (d *driver) markAfter(det *heuristics.Detection) uint64 {
	rows := visibleRows(det.Rows)
	row := -1
	for _, r := range rows {
		if det.Prompt != "" && strings.Contains(d.screen.Line(r), firstLine(det.Prompt)) {
			row = r
		}
	}
	if row < 0 && len(rows) > 0 {
		row = rows[len(rows)-1]
		if det.Kind == heuristics.KindMenu {
			row = rows[0] // a menu collapses to its question line
		}
	}
	if row < 0 {
		row, _, _ = d.screen.Cursor()
	}
	return d.screen.Retired() + uint64(row) + 1
}

// visibleRows drops the negative (scrollback) rows of a detection.
func visibleRows(rows []int) []int {
	for i, r := range rows {
		if r >= 0 {
			return rows[i:]
		}
	}
	return nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
