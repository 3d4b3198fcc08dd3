package ptyhost

import (
	"fmt"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
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
			d.quietAt = d.now() + d.quiet
		}
		return
	}
	if !settled && d.answering {
		return
	}
	d.answering = false
	if d.quitting > 0 { // the turn is over: only leaving matters now
		if settled && d.quitting < quitTries {
			d.quit()
		}
		return
	}
	if settled {
		d.typePrompt()
	}
	// One screen may hold several detections (a suggestion, then the menu
	// below it): evaluate until nothing fires or a question waits.
	for i := 0; i < maxDetectionsPerScreen && !d.ended && d.fault == nil; i++ {
		det, steps := d.engine.Evaluate(d.screen, settled)
		if settled || det != nil {
			d.tr.evaluate(settled, steps)
		}
		if det == nil {
			return
		}
		d.handle(det)
		if d.pending != nil || d.answering {
			return // keys were typed: this screen is about to change
		}
	}
}

// maxDetectionsPerScreen bounds re-evaluation of one screen, so a rule
// set that keeps firing cannot spin.
const maxDetectionsPerScreen = 8

func (d *driver) handle(det *heuristics.Detection) {
	switch det.Kind {
	case heuristics.KindSuggestion:
		d.suggestion = det.Command
	case heuristics.KindText:
		d.text(det.Text)
	case heuristics.KindResult:
		d.result(det)
	case heuristics.KindDone:
		d.done(det)
	case heuristics.KindInput: // answered by yume-cli itself, e.g. with the prompt
		text := d.cfg.Prompt
		if d.revising {
			text, d.revision, d.revising = d.revision, "", false
		}
		if text == "" {
			text = d.recordedPrompt() // a replay types what was typed there
		}
		keys := det.Rule.Approve.WithPrompt(text)
		if d.send(det.Rule, "input", keys) && (d.lastInput == nil || d.lastInput.Key != det.Key) {
			d.lastInput, d.lastInputKeys, d.inputRetries = det, keys, 0
		}
	case heuristics.KindConfirm, heuristics.KindMenu:
		if det.Rule.Followup && d.decided {
			d.answerFollowup(det)
			return
		}
		if d.pending != nil {
			d.supersede("the program moved on before a decision was made")
		}
		d.endCapture(det)
		d.ask(det)
	}
}

// ask turns a question into a tool_use and gets it decided.
func (d *driver) ask(det *heuristics.Detection) {
	command := det.Command
	if command == "" {
		command = d.suggestion
	}
	if command == "" {
		command = d.cfg.CommandLine
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
	p := &pending{id: emit.NewToolUseID(), det: det, input: input}
	d.outcome.Questions++
	d.emitErr(d.out.ToolUse(p.id, "Bash", input))
	switch {
	case d.mode == ModeAuto:
		d.emitErr(d.out.Notice("auto-approved (permission mode auto): " + command))
		d.approve(p)
	case d.mode == ModeDeny:
		d.emitErr(d.out.Notice("denied (permission mode deny): " + command))
		d.deny(p, "Denied: the permission mode is deny.")
	case d.cfg.Decide != nil && d.cfg.Revise != nil && !det.Rule.Revise.IsZero() && d.cfg.Revise(d.outcome.Questions, det):
		d.revise(p, "")
	case d.cfg.Decide != nil:
		if d.cfg.Decide(d.outcome.Questions, det) {
			d.approve(p)
		} else {
			d.deny(p, "The user denied this command.")
		}
	case d.noChan:
		d.deny(p, "Denied: there is no approval channel (stdin is closed or not connected).")
	default:
		_, err := d.out.PermissionRequest(p.id, "Bash", input)
		d.emitErr(err)
		d.pending = p
		d.tr.state("asked the GUI about " + p.id)
	}
}

// approve types the approve keys, unless the screen no longer shows what
// was approved: then it asks again with a new tool_use.
func (d *driver) approve(p *pending) {
	d.pending = nil
	if !d.engine.StillShows(d.screen, p.det) {
		d.emitErr(d.out.ToolResult(p.id, "The command on screen changed before it was approved; yume-cli asks again.", true))
		d.tr.state("screen changed before approval of " + p.id)
		d.evaluate(true) // a changed prompt has a new identity: it fires anew
		return
	}
	if !d.send(p.det.Rule, "approve", p.det.Rule.Approve) {
		d.emitErr(d.out.ToolResult(p.id, "yume-cli could not type the approval; see --trace.", true))
		return
	}
	d.decided, d.approved = true, true
	d.startCapture(newCapture(p.id, p.input, d.markAfter(p.det), emit.MaxToolOutput, d.cfg.Profile.Echo))
}

func (d *driver) deny(p *pending, msg string) {
	d.pending = nil
	d.send(p.det.Rule, "deny", p.det.Rule.Deny)
	d.decided, d.approved = true, false
	d.outcome.Denials++
	d.emitErr(d.out.Deny(p.id, "Bash", p.input, msg))
}

// revise answers with the program's own revise action and remembers the
// feedback for the input question that follows.
func (d *driver) revise(p *pending, feedback string) {
	d.pending = nil
	d.send(p.det.Rule, "revise", p.det.Rule.Revise)
	d.revision, d.revising = feedback, true
	d.outcome.Denials++
	msg := "Not run: the user asked for a revision: " + feedback
	if feedback == "" { // a replay: the feedback is in the recording
		msg = "Not run: the user asked for a revision."
	}
	d.emitErr(d.out.Deny(p.id, "Bash", p.input, msg))
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
	b, err := keys.Encode(d.screen)
	if err == nil && len(b) > 0 {
		d.tr.keys(why, rule.Name, b)
		d.answering = true
		d.quietAt = d.now() + d.quiet // settle even if the program prints nothing
		_, err = d.cfg.Term.Write(b)
	}
	if err != nil {
		d.tr.state(fmt.Sprintf("could not type %s keys for rule %s: %v", why, rule.Name, err))
		if !d.live && d.fault == nil {
			d.fault = &KeysError{Rule: rule.Name, Why: why + " keys", Err: err, Screen: d.screen.String()}
		}
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
func (d *driver) endCapture(det *heuristics.Detection) {
	if c := d.finishCapture(det); c != nil {
		text := c.text()
		if text == "" && d.screenResults { // no result rule fired
			text = noOutput
		}
		d.emitErr(d.out.ToolResult(c.id, text, false))
	}
}

// finishCapture stops the capture and adds the visible rows it covers.
func (d *driver) finishCapture(det *heuristics.Detection) *capture {
	c := d.stopCapture()
	if c == nil {
		return nil
	}
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
	d.pending = nil
	d.emitErr(d.out.ToolResult(p.id, "Not run: "+why+".", true))
}

// emitErr records a failure to write stdout: nobody is listening, so the
// session ends.
func (d *driver) emitErr(err error) {
	if err != nil && d.fault == nil {
		d.fault = fmt.Errorf("writing events: %w", err)
	}
}
