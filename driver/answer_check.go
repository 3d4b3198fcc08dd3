package driver

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
)

// Every answer is checked against what the program did: the question
// closed, and, for a denial, nothing shows that the command ran (its
// result in the provider's transcript, a file it names changed). The
// denial's tool_result waits for the first settled screen after the
// question closed (and a read of the transcript), so a command that runs
// at once is reported as having run; one that shows later ends the turn
// with an error saying so. A denied command that runs is the worst bug
// this program can have: it is never reported as denied and left there.

// answerCheck follows an answer after its last key.
type answerCheck struct {
	k        *keying
	closedAt time.Duration // 0: the question is still up
	retries  int
	// A denial: the files its call names as they were before the answer,
	// the tool_result held until the first look after the question closed
	// ("" once said), and what ran it, once known.
	deny  bool
	files fileStates
	held  string
	keys  []string
	// ranBefore are the rows that showed a command running before the
	// answer (the profile's ran): only a new one is a sign.
	ranBefore map[string]bool
}

// checkAnswer starts following the answer k typed.
func (d *driver) checkAnswer(k *keying, deny bool, files fileStates, held string) {
	if d.src.recording() != nil {
		if held != "" {
			d.emitErr(d.out.Deny(k.p.id, k.p.tool, k.p.input, held))
		}
		return // a replay's screens follow the recording, not our keys
	}
	d.t.check = &answerCheck{k: k, deny: deny, files: files, held: held, keys: k.typed, ranBefore: k.ranBefore}
	d.at[timerKeys] = d.now() + d.quiet
}

// watchDenial follows a question cancelled with the program's cancel key:
// its tool_result is out already; a run would still be reported.
func (d *driver) watchDenial(k *keying, keys []string, files fileStates) {
	if d.src.recording() != nil {
		return
	}
	d.t.check = &answerCheck{k: k, deny: true, files: files, keys: keys, ranBefore: k.ranBefore}
}

// followAnswer looks at the screen after an answer: on every output and
// on the keys timer.
func (d *driver) followAnswer(settled bool) {
	c := d.t.check
	if c == nil || d.t.keying != nil {
		return
	}
	if c.closedAt == 0 {
		if !d.questionClosed(c.k) {
			d.stillOpen(c)
			return
		}
		c.closedAt = d.now()
		d.tr.state(fmt.Sprintf("the question about %s closed after %s", c.k.p.id, strings.Join(c.keys, " ")))
		if c.deny {
			d.pollLog() // what the program logged by now
		}
	}
	if !c.deny {
		d.t.check = nil
		return
	}
	if sign := d.ranSign(c); sign != "" {
		d.deniedButRan(c, sign)
		return
	}
	// Held while the screen shows work going on ("⎿ Running…"): a program
	// at work after a denial may be running the denied call, and its sign
	// may come only when it is done.
	if c.held != "" && (settled && !d.atWork() || d.now()-c.closedAt >= keyBound) {
		d.emitErr(d.out.Deny(c.k.p.id, c.k.p.tool, c.k.p.input, c.held))
		c.held = ""
	}
	if c.held != "" {
		d.at[timerKeys] = d.now() + d.quiet
	}
}

// atWork reports a screen that shows work in progress: the profile's busy
// pattern, or one the generic layer knows.
func (d *driver) atWork() bool {
	screen := d.screen.String()
	return d.cfg.Profile.Busy != nil && d.cfg.Profile.Busy.MatchString(screen) || genericBusy.MatchString(screen)
}

// questionClosed reports that the program took the answer: a walk's menu
// left the screen, or the question no longer matches and the cursor left
// its row (a line prompt answered).
func (d *driver) questionClosed(k *keying) bool {
	if k.plan != nil && k.plan.Walk {
		c, ok := heuristics.ReadChoices(d.screen)
		return !ok || !c.Same(k.plan.Menu)
	}
	row, _, _ := d.screen.Cursor()
	return d.screen.Retired()+uint64(row) != k.row || !d.engine.StillShows(d.screen, k.det)
}

// stillOpen handles a question still up after the answer: the last key is
// typed again on a still screen where the profile says its program drops
// keys (a walk only with the highlight still on its option); after
// keyBound the question is cancelled.
func (d *driver) stillOpen(c *answerCheck) {
	k := c.k
	waited := d.now() - k.sentAt
	if waited >= keyBound {
		d.t.check = nil
		d.answerNotTaken(c)
		return
	}
	still := d.questionStill(k) >= retryAfter && waited >= retryAfter
	if still && d.cfg.Profile.MayDropKeys() && c.retries < maxRetries && !k.cancel.IsZero() {
		// A cancel key lost: typed again, alone.
		c.retries++
		d.tr.state(fmt.Sprintf("the question is still up %v after the cancel key on a still screen (profile %s drops keys): typing it again (try %d of %d)",
			retryAfter, d.cfg.Profile.Name, c.retries, maxRetries))
		d.send(k.det.Rule, "cancel", k.cancel)
		k.sentAt = d.now()
		d.at[timerKeys] = d.now() + retryAfter/4
		return
	}
	if still && d.cfg.Profile.MayDropKeys() && c.retries < maxRetries && k.plan != nil && k.cancel.IsZero() {
		// The whole answer again, key by key: a walk reads where the
		// highlight is now before it moves or presses Enter.
		c.retries++
		d.tr.state(fmt.Sprintf("the question is still up %v after %s on a still screen (profile %s drops keys): typing the answer again (try %d of %d)",
			retryAfter, k.keysTyped(), d.cfg.Profile.Name, c.retries, maxRetries))
		k.next, k.waiting, k.moving, k.moves, k.again = 0, false, false, 0, true
		d.t.keying = k
		d.stepKeys()
		c.keys = k.typed
		return
	}
	d.at[timerKeys] = min(k.sentAt+keyBound, d.now()+retryAfter/4)
}

// answerNotTaken reports an answer the program did not take: the question
// stayed on screen. It is cancelled where the program has a cancel key;
// otherwise the turn ends.
func (d *driver) answerNotTaken(c *answerCheck) {
	k := c.k
	if !k.cancel.IsZero() { // cancelled already, and still up: nothing more to type
		d.abort(fmt.Sprintf("yume-cli: the question stayed on screen for %v after it was cancelled (%s); the turn ends", keyBound, strings.Join(c.keys, " ")), false)
		return
	}
	why := fmt.Sprintf("the question stayed on screen for %v after the %s keys (%s)", keyBound, k.why, strings.Join(c.keys, " "))
	d.tr.state(why)
	cancel, name := d.cancelKeys(k.det)
	b, err := cancel.Encode(d.screen)
	cancelled := err == nil && len(b) > 0
	if cancelled {
		_, err = d.cfg.Term.Write(b)
		cancelled = err == nil
		d.tr.keys("cancel", k.det.Rule.Name, b)
	}
	msg := "yume-cli: " + why
	if cancelled {
		msg += "; it pressed " + name + " to cancel the question"
	}
	switch {
	case c.deny && c.held != "":
		d.emitErr(d.out.Deny(k.p.id, k.p.tool, k.p.input, c.held+" ("+strings.TrimPrefix(msg, "yume-cli: ")+")"))
	case !c.deny && d.t.capture != nil && d.t.capture.id == k.p.id:
		d.stopCapture()
		d.toIdle("the approval was not taken")
		d.emitErr(d.out.ToolResult(k.p.id, msg+". The command may not have run.\nThe screen:\n"+d.screenText(), true))
	}
	if !cancelled {
		d.abort(msg+"; the program has no cancel key yume-cli knows, so the turn ends", false)
		return
	}
	d.emitErr(d.out.SystemError(msg))
	if c.deny {
		c.held, c.closedAt = "", d.now()
		d.t.check = c // a run is still reported
	}
}

// stillAnswering reports a question that is the one just answered, before
// it closed: the same dialog with its highlight where our keys put it, or
// the same question again. It is not asked twice; if it never closes, the
// answer check says so.
func (d *driver) stillAnswering(det *heuristics.Detection) bool {
	c := d.t.check
	if c == nil || c.closedAt != 0 {
		return false
	}
	k := c.k
	// The question itself, not its rule or its rows: "(2/3) Stage this
	// hunk" after "(1/3) Stage this hunk" is a new question.
	same := det.Prompt == k.det.Prompt && det.Command == k.det.Command
	if same && k.plan != nil && k.plan.Walk && det.Dialog != nil {
		same = slices.Equal(det.Dialog.Options, k.plan.Menu.Options)
	}
	if same {
		d.engine.Unfire(d.screen, det) // once it closed, a question like it is a new one
		d.tr.state(fmt.Sprintf("%q is the question answered with %s, not closed yet: not asked again", det.Prompt, strings.Join(c.keys, " ")))
	}
	return same
}

// ranSign says what shows that the denied call ran ("" if nothing does).
func (d *driver) ranSign(c *answerCheck) string {
	if lc := d.callOf(c.k.p.id); lc != nil && lc.ranAfterDenial != "" {
		return "the provider's transcript holds its result: " + lc.ranAfterDenial
	}
	if f := c.files.changed(); f != "" {
		return f
	}
	for _, line := range d.ranLines() {
		if !c.ranBefore[line] {
			return fmt.Sprintf("the screen shows it running (%q)", strings.TrimSpace(line))
		}
	}
	return ""
}

// ranLines are the rows that show a command running (the profile's ran).
func (d *driver) ranLines() []string {
	re := d.cfg.Profile.Ran
	if re == nil {
		return nil
	}
	var out []string
	for r := range d.screen.Rows() {
		if line := d.screen.Line(r); re.MatchString(line) {
			out = append(out, line)
		}
	}
	return out
}

// ranSet is ranLines as a set: what showed running before an answer.
func (d *driver) ranSet() map[string]bool {
	m := map[string]bool{}
	for _, l := range d.ranLines() {
		m[l] = true
	}
	return m
}

// deniedButRan reports a denied command that ran anyway, and ends the turn
// as an error: the tool_result says so where it was still held, a system
// error (which Yume shows) where it was already out.
func (d *driver) deniedButRan(c *answerCheck, sign string) {
	d.t.check = nil
	k := c.k
	msg := fmt.Sprintf("The program ran this although it was denied: %s. yume-cli typed %s to deny it (rule %s).\nThe screen:\n%s",
		sign, strings.Join(c.keys, " "), k.det.Rule.Name, d.screenText())
	d.tr.state("a denied command ran: " + sign)
	if c.held != "" {
		d.emitErr(d.out.ToolResult(k.p.id, msg, true))
	}
	reason := fmt.Sprintf("yume-cli: the program ran %q although it was denied (%s)", describeCall(k.p.tool, k.p.input), sign)
	d.emitErr(d.out.SystemError(reason))
	d.abort(reason, false)
}

// checkDenials looks for a late sign that a denied call ran, on every
// settled screen of the rest of the turn.
func (d *driver) checkDenials() {
	if c := d.t.check; c != nil && c.deny && c.closedAt != 0 && c.held == "" {
		if sign := d.ranSign(c); sign != "" {
			d.deniedButRan(c, sign)
		}
	}
}

// denialRan reports a denied call whose result the transcript holds.
func (d *driver) denialRan(lc *logCall) {
	sign := "the provider's transcript holds its result: " + lc.ranAfterDenial
	if c := d.t.check; c != nil && c.k.p.id == lc.toolUse {
		d.deniedButRan(c, sign)
		return
	}
	reason := fmt.Sprintf("yume-cli: the program ran %q although it was denied (%s)", describeCall(lc.ev.Name, lc.ev.Input), sign)
	d.tr.state("a denied command ran: " + sign)
	d.emitErr(d.out.SystemError(reason))
	d.abort(reason, false)
}
