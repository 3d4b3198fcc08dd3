package driver

import (
	"errors"
	"fmt"
	"github.com/yume-cli/yume-cli/ptyhost"
	"maps"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
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
			d.quietAt = d.now() + d.quiet
		}
		return
	}
	if !settled && d.settling {
		return
	}
	d.settling = false
	switch d.st {
	case stateEnded:
		return
	case stateQuitting: // the turn is over: only leaving matters now
		if settled && d.quitting < quitTries {
			d.quit()
		}
		return
	}
	if d.answeringUntil > d.now() {
		return // a replay: the screens of a person's answer in progress
	}
	if settled {
		d.pollRecord()
		if d.retypeAnswer() {
			return
		}
		d.typePrompt()
	}
	// One screen may hold several detections (a suggestion, then the menu
	// below it): evaluate until nothing fires or a question waits.
	fired := false
	for i := 0; i < maxDetectionsPerScreen && d.st != stateEnded && d.fault == nil; i++ {
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
		if d.st == stateAwaiting || d.settling || d.rec.waiting != nil {
			return // keys were typed: this screen is about to change
		}
	}
	if !settled && !fired && d.waitsForKeys() {
		// The program has drawn everything and reads its terminal: the
		// screen is settled now, not after the quiet period.
		d.tr.state("the program is blocked reading its terminal: the screen is settled")
		d.quietAt = 0
		d.evaluate(true)
		return
	}
	if settled {
		d.checkIdle()
		d.checkStall()
		if !fired {
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
		d.suggestion = det.Command
	case heuristics.KindText:
		if !d.recordLive() { // the record has the text, exact
			d.text(det.Text)
		}
	case heuristics.KindResult:
		d.result(det)
	case heuristics.KindDone:
		d.done(det)
	case heuristics.KindFail:
		what := det.Text
		if what == "" {
			what = det.Prompt
		}
		reason := fmt.Sprintf("%s shows %q, which yume-cli cannot answer: %s", d.cfg.Profile.Name, what, det.Rule.Hint)
		d.tr.state("fail rule " + det.Rule.Name + ": " + reason)
		d.abort(reason, false)
	case heuristics.KindInput: // answered by yume-cli itself, e.g. with the prompt
		text := d.cfg.Prompt
		revising := d.revising
		if d.revising {
			text, d.revision, d.revising = d.revision, "", false
		}
		if text == "" {
			text = d.recordedPrompt() // a replay types what was typed there
		}
		again := d.lastInput == nil || d.lastInput.Key != det.Key
		if _, replaying := d.cfg.Term.(*replayTerm); !replaying && !revising && again && det.Rule.Once && (text == "" || d.onceTyped[det.Rule.Name]) {
			d.waitsForUser(det)
			return
		}
		d.onceTyped[det.Rule.Name] = true
		keys := d.promptKeys(det.Rule.Approve, text)
		// A person types the text key by key where yume-cli pastes it:
		// the same answer.
		typed := &equivalents{also: [][]byte{append([]byte(heuristics.TypeText(text, false, heuristics.Newline{}).Keys), '\r')}}
		if d.sendMeaning(det.Rule, "input", keys, typed) && (d.lastInput == nil || d.lastInput.Key != det.Key) {
			d.lastInput, d.lastInputKeys, d.inputRetries = det, keys, 0
			d.answerMark = d.markAfter(det)
		}
	case heuristics.KindConfirm, heuristics.KindMenu:
		if det.Rule.Followup && d.decided {
			d.answerFollowup(det)
			return
		}
		if d.sameCallAgain(det) {
			return
		}
		if d.st == stateAwaiting {
			d.supersede("the program moved on before a decision was made")
		}
		d.endCapture(det)
		if !d.askWithRecord(det) {
			d.ask(det)
		}
	}
}

// ask turns a question into a tool_use and has the permission policy
// decide it: at once by the mode, or by the GUI's answer.
func (d *driver) ask(det *heuristics.Detection) {
	if d.cfg.Profile.ContextRows > 0 {
		// What the program printed before the match, then the match's own
		// context group (git add -p's hunk, a menu's commands).
		det.Context = strings.Trim(d.questionContext(det)+"\n"+det.Context, "\n")
	}
	command := det.Command
	if command == "" {
		command = d.suggestion
	}
	if command == "" {
		command = commandShown(det.Context) // "The command to run:" / "  rm -rf x"
	}
	if command == "" {
		command = d.cfg.CommandLine
	}
	if command == "" {
		command = det.Prompt // a recording with no command line: the question says what
	}
	input := map[string]any{"command": command}
	// The question is worth showing only when it says what the command
	// does (rm: remove 'x'?), not when it is the program's menu title.
	desc := det.Description
	if desc == "" && det.Command == "" && d.suggestion == "" && det.Prompt != "" {
		desc = det.Prompt
		if det.Option != "" {
			desc += " (" + det.Option + ")"
		}
	}
	if det.Context != "" {
		desc = strings.TrimSpace(desc + "\n\n" + det.Context)
	}
	if desc != "" {
		input["description"] = desc
	}
	d.outcome.Questions++
	p := &pending{id: emit.NewToolUseID(), n: d.outcome.Questions, det: det, input: input, tool: "Bash"}
	if t := det.Rule.Tool; t == "Write" || t == "Edit" {
		// A file question: the file and, where shown, its new text.
		p.tool, p.input = t, map[string]any{"file_path": det.File}
		if det.Content != "" {
			p.input["content"] = det.Content
		}
		if desc != "" {
			p.input["description"] = desc
		}
		command = det.File
	}
	if c := d.pendingCall(); c != nil && d.recordLive() {
		// The record says what: the exact call, in Claude's words.
		p.input, p.tool, c.toolUse = maps.Clone(c.ev.Input), c.ev.Name, p.id
		if _, ok := p.input["description"]; !ok && desc != "" {
			p.input["description"] = desc
		}
		command = describeCall(c.ev.Name, p.input)
		d.tr.state(fmt.Sprintf("question %d: the call comes from the program's record (%s %s)", p.n, c.ev.Name, c.ev.ID))
	} else if d.cfg.Record != nil {
		d.tr.state(fmt.Sprintf("question %d: the call comes from the screen (nothing in the program's record yet)", p.n))
		d.rec.orphans = append(d.rec.orphans, orphan{toolUse: p.id, tool: p.tool, command: command})
	}
	if m, ok := ptyhost.As[ptyhost.Marker](d.cfg.Term); ok {
		m.Mark(fmt.Sprintf("question %d: %s", p.n, command))
	}
	danger := d.policy.Assess(p.tool, p.input)
	if danger != "" {
		p.input["dangerous"] = danger
		d.tr.state(fmt.Sprintf("question %d is dangerous: %s", p.n, danger))
	}
	d.emitErr(d.out.ToolUse(p.id, p.tool, p.input))
	if danger != "" {
		d.emitErr(d.out.Warning(permission.DangerWarning(command, danger)))
	}
	if c := d.callOf(p.id); c != nil {
		d.reportAlso(c, "the question about "+p.id)
	}
	dec, early := d.policy.Decide(p.id, command, danger)
	if dec.Notice != "" {
		d.emitErr(d.out.Notice(dec.Notice))
	}
	switch {
	case early != nil:
		d.answer(p, *early)
	case dec.Verdict == permission.Allow:
		d.approve(p)
	case dec.Verdict == permission.Refuse:
		d.deny(p, dec.Message)
	default:
		_, err := d.out.PermissionRequest(p.id, p.tool, p.input)
		d.emitErr(err)
		d.to(stateAwaiting, "asked the GUI about "+p.id)
		d.pending = p
	}
}

// answer carries out the GUI's (or a replay script's) answer to p.
func (d *driver) answer(p *pending, a permission.Answer) {
	switch {
	case p == nil:
		return
	case a.Allow:
		d.approve(p)
	case a.Revise && !p.det.Rule.Revise.IsZero():
		d.revise(p, a)
	default:
		d.deny(p, a.Denial())
	}
}

// approve types the approve keys, unless the screen no longer shows what
// was approved: then it asks again with a new tool_use.
func (d *driver) approve(p *pending) {
	d.settled[p.id] = "approved"
	if !d.engine.StillShows(d.screen, p.det) {
		d.emitErr(d.out.ToolResult(p.id, "The command on screen changed before it was approved; yume-cli asks again.", true))
		d.toIdle("the screen changed before the approval of " + p.id)
		d.evaluate(true) // a changed prompt has a new identity: it fires anew
		return
	}
	if !d.typeAnswer(p.det, "approve", p.det.Rule.Approve) {
		d.emitErr(d.out.ToolResult(p.id, "yume-cli could not type the approval; see --trace.", true))
		d.toIdle("the approval of " + p.id + " could not be typed")
		return
	}
	d.decided, d.approved, d.deniedLast = true, true, false
	d.startCapture(newCapture(p.id, p.input, d.markAfter(p.det), emit.MaxToolOutput, d.cfg.Profile.Echo))
}

func (d *driver) deny(p *pending, msg string) {
	d.settled[p.id] = "denied"
	d.typeAnswer(p.det, "deny", p.det.Rule.Deny)
	d.decided, d.approved, d.deniedLast = true, false, true
	d.outcome.Denials++
	d.markDenied(p.id)
	d.toIdle("denied " + p.id)
	d.emitErr(d.out.Deny(p.id, p.tool, p.input, msg))
}

// revise answers with the program's own revise action and remembers the
// feedback for the input question that follows.
func (d *driver) revise(p *pending, a permission.Answer) {
	d.send(p.det.Rule, "revise", p.det.Rule.Revise)
	d.revision, d.revising = a.Feedback, true
	d.outcome.Denials++
	d.markDenied(p.id)
	d.toIdle("revising " + p.id)
	d.emitErr(d.out.Deny(p.id, p.tool, p.input, a.Denial()))
}

// toIdle ends a question or a capture: the program works on.
func (d *driver) toIdle(why string) {
	if d.st != stateIdle {
		d.to(stateIdle, why)
	}
}

// answerFollowup answers "are you sure?" the way the question before it was answered.
func (d *driver) answerFollowup(det *heuristics.Detection) {
	keys, why := det.Rule.Deny, "followup-deny"
	if d.approved {
		keys, why = det.Rule.Approve, "followup-approve"
	}
	d.send(det.Rule, why, keys)
	if d.capture != nil {
		d.capture.mark = d.markAfter(det)
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
		d.settling = true
		d.quietAt = d.now() + d.quiet // settle even if the program prints nothing
		if w, ok := d.cfg.Term.(answerWriter); ok && eq != nil {
			_, err = w.WriteAnswer(b, eq.also, eq.anyLine, eq.optional)
			if until := w.TypedUntil(); until > d.now() {
				// The person's answer took keys typed while the program
				// redrew: those screens are the answer in progress.
				d.answeringUntil = until
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

// endCapture emits the captured output as the tool_result; the visible part
// stops before the rows of det (the next question), or at the screen's end.
// The caller moves the state on.
func (d *driver) endCapture(det *heuristics.Detection) {
	if c := d.finishCapture(det); c != nil {
		text := c.text()
		if text == "" && d.screenResults { // no result rule fired
			text = noOutput
		}
		d.emitErr(d.out.ToolResult(c.id, text, false))
	}
}

// finishCapture detaches the capture and adds the visible rows it covers.
func (d *driver) finishCapture(det *heuristics.Detection) *capture {
	if d.capture == nil {
		return nil
	}
	c := d.stopCapture()
	if d.screenResults {
		return c // a TUI's rows are its layout, not the output
	}
	end := d.screen.Rows()
	if det != nil {
		if rows := visibleRows(det.Rows); len(rows) > 0 {
			end = rows[0]
		}
	}
	for r := 0; r < end; r++ {
		if d.screen.Retired()+uint64(r) >= c.mark {
			c.add(d.screen.Line(r))
		}
	}
	return c
}

// supersede settles a pending question the program no longer asks.
func (d *driver) supersede(why string) {
	p := d.pending
	d.toIdle("superseded: " + why)
	d.emitErr(d.out.ToolResult(p.id, "Not run: "+why+".", true))
}
