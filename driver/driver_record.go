package driver

import (
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/transcript"
)

// The screen says when, the record says what. With the program's own
// record of the session (Config.Record), a question on screen is
// reported with the exact input of the call the record holds, a call's
// output comes from the record (all of it, not what the TUI folded), calls
// the program ran without asking are reported too, and the record's end
// of the turn ends it. Without a record, or until it is found, the screen
// rules do all of this.

const (
	// recordEvery is how often the record is read while a turn runs.
	recordEvery = 200 * time.Millisecond
	// recordWait is how long a question waits for its call to reach the
	// record before the screen's text is used.
	recordWait = 600 * time.Millisecond
)

// recCall is a tool call the record announced.
type recCall struct {
	ev      transcript.Event
	seenAt  time.Duration
	toolUse string   // our tool_use id, once reported
	also    []string // the tool_use ids of ev.Also
	denied  bool     // we answered its question with a denial
	done    bool     // its result is reported
}

// recordState is what the driver learned from the record.
type recordState struct {
	calls    map[string]*recCall
	order    []string
	turnEnd  bool // the record says the turn is over
	prompted bool // the record holds this turn's prompt: the turn has begun
	waiting  *heuristics.Detection
	waitEnd  time.Duration
	failed   bool // a read error was reported
	// orphans are questions asked from the screen before the record held
	// their call (a record written after a call ran): the next recorded
	// calls are theirs.
	orphans []orphan
}

// orphan is a question reported before its call reached the record.
type orphan struct {
	toolUse, tool, command string
	denied                 bool
}

// recordLive reports whether the record is found and read.
func (d *driver) recordLive() bool {
	return d.cfg.Record != nil && d.cfg.Record.Path() != ""
}

// pollRecord reads what the record gained and acts on it.
func (d *driver) pollRecord() {
	if d.cfg.Record == nil || d.st == stateEnded {
		return
	}
	evs, err := d.cfg.Record.Poll()
	if err != nil && !d.rec.failed {
		d.rec.failed = true
		d.tr.state("reading the program's record failed: " + err.Error())
	}
	if len(evs) > 0 {
		d.idleAt = 0
	}
	if d.st == stateBetween {
		if len(evs) > 0 {
			d.tr.state("between turns: the record's late lines of the last turn are not reported")
		}
		return
	}
	for _, e := range evs {
		d.tr.record(e)
		d.recordEvent(e)
	}
	d.reportOverdue()
	if d.rec.waiting != nil && (d.pendingCall() != nil || d.now() >= d.rec.waitEnd) {
		det := d.rec.waiting
		d.rec.waiting = nil
		d.ask(det)
	}
	if d.rec.turnEnd && d.st != stateQuitting && d.st != stateEnded {
		d.turnDone(nil, "the program's record ends the turn")
	}
}

func (d *driver) recordEvent(e transcript.Event) {
	switch e.Kind {
	case transcript.Text:
		d.reportUnasked(0) // calls before the text come first
		d.say(e.Text)
	case transcript.ToolCall:
		if d.rec.calls == nil {
			d.rec.calls = map[string]*recCall{}
		}
		if _, ok := d.rec.calls[e.ID]; !ok {
			c := &recCall{ev: e, seenAt: d.now()}
			d.rec.calls[e.ID] = c
			d.rec.order = append(d.rec.order, e.ID)
			d.adopt(c)
		}
	case transcript.ToolResult:
		d.recordResult(e)
	case transcript.TurnEnd:
		d.rec.turnEnd = true
	case transcript.Prompt:
		// Only this turn's own prompt says it began: a resumed program may
		// record the earlier ones again.
		if isPromptOf(e.Text, d.turnPrompt()) {
			d.rec.prompted = true
		}
	case transcript.Session:
		d.outcome.ProviderSession = e.Session
		if d.cfg.OnSession != nil {
			d.cfg.OnSession(e.Session)
		}
	}
}

// recordResult reports a call's output from the record.
func (d *driver) recordResult(e transcript.Event) {
	c := d.rec.calls[e.ID]
	if c == nil {
		d.recordEvent(transcript.Event{Kind: transcript.ToolCall, ID: e.ID, Name: "Tool", Input: map[string]any{}})
		c = d.rec.calls[e.ID]
	}
	if c.done || c.denied {
		return // a denial was reported when it was made
	}
	if c.toolUse == "" {
		d.reportCall(c)
	}
	c.done = true
	if d.capture != nil && d.capture.id == c.toolUse {
		d.stopCapture()
		d.toIdle("the record holds the output of " + c.toolUse)
	}
	out := e.Output
	if out == "" {
		out = "(no output)"
	}
	for _, id := range append([]string{c.toolUse}, c.also...) {
		d.emitErr(d.out.ToolResult(id, out, e.IsError))
	}
}

// reportAlso writes the tool_uses of the other files a call changes (a
// patch of several files), each saying what approved it.
func (d *driver) reportAlso(c *recCall, by string) {
	for _, a := range c.ev.Also {
		id := emit.NewToolUseID()
		input := maps.Clone(a.Input)
		if input == nil {
			input = map[string]any{}
		}
		input["approved_by"] = by
		c.also = append(c.also, id)
		d.reportRan(id, a.Name, input)
	}
}

// reportRan writes the tool_use of a call that ran without a question
// here, marked (and warned about) when it was dangerous: the person
// learns of it even though nobody could stop it.
func (d *driver) reportRan(id, name string, input map[string]any) {
	danger := d.policy.Assess(name, input)
	if danger != "" {
		input["dangerous"] = danger
	}
	d.emitErr(d.out.ToolUse(id, name, input))
	if danger != "" {
		d.emitErr(d.out.Warning(permission.DangerWarning(describeCall(name, input), danger)))
	}
}

// pendingCall is the newest recorded call not reported yet: the one a
// question on screen is about.
func (d *driver) pendingCall() *recCall {
	for i := len(d.rec.order) - 1; i >= 0; i-- {
		if c := d.rec.calls[d.rec.order[i]]; c.toolUse == "" && !c.done {
			return c
		}
	}
	return nil
}

// reportOverdue reports calls that have run longer than UnaskedAfter
// without a question: the program did not ask.
func (d *driver) reportOverdue() {
	if d.cfg.UnaskedAfter > 0 && d.rec.waiting == nil && d.st != stateAwaiting {
		d.reportUnasked(d.cfg.UnaskedAfter)
	}
}

// reportUnasked reports every unreported call older than grace.
func (d *driver) reportUnasked(grace time.Duration) {
	for _, id := range d.rec.order {
		if c := d.rec.calls[id]; c.toolUse == "" && !c.done && d.now()-c.seenAt >= grace {
			d.reportCall(c)
		}
	}
}

// reportCall writes the tool_use of a call the program ran without
// asking, saying who let it run.
func (d *driver) reportCall(c *recCall) {
	c.toolUse = emit.NewToolUseID()
	input := maps.Clone(c.ev.Input)
	if input == nil {
		input = map[string]any{}
	}
	by := d.cfg.UnaskedBy
	if by == "" {
		by = "the program, without asking"
	}
	input["approved_by"] = by
	d.tr.state(fmt.Sprintf("the program ran %s %s without asking: reported as %s", c.ev.Name, c.ev.ID, c.toolUse))
	d.reportRan(c.toolUse, c.ev.Name, input)
	d.reportAlso(c, by)
}

// askWithRecord holds a question until its call is in the record (at
// most recordWait); false when there is no record to wait for.
func (d *driver) askWithRecord(det *heuristics.Detection) bool {
	if !d.recordLive() || d.cfg.RecordAfterRun {
		return false
	}
	d.pollRecord()
	if d.pendingCall() != nil {
		return false
	}
	d.tr.state("the question is not in the program's record yet: waiting for it")
	d.rec.waiting, d.rec.waitEnd = det, d.now()+recordWait
	d.recordAt = d.now() + recordWait/6
	return true
}

// adopt links a newly recorded call to the oldest question asked from the
// screen before the record had it, and says so if the screen showed a
// different command than the one that ran.
func (d *driver) adopt(c *recCall) {
	if len(d.rec.orphans) == 0 {
		return
	}
	o := d.rec.orphans[0]
	d.rec.orphans = d.rec.orphans[1:]
	c.toolUse, c.denied = o.toolUse, o.denied
	d.tr.state(fmt.Sprintf("the record's %s %s is the question %s", c.ev.Name, c.ev.ID, o.toolUse))
	if ran := describeCall(c.ev.Name, c.ev.Input); o.tool == c.ev.Name && !sameCall(ran, o.command) && !c.denied {
		d.emitErr(d.out.Notice(fmt.Sprintf("the program ran %q; its screen had shown %q", ran, o.command)))
	}
}

// sameCallAgain answers a second question about the call being run (a
// program that asks for its command, then for a path it touches) the way
// the first was answered: the record holds no new call, and the approved
// one has not finished. It reports whether it did.
func (d *driver) sameCallAgain(det *heuristics.Detection) bool {
	if !d.recordLive() || d.cfg.RecordAfterRun || d.st != stateCapturing || d.capture == nil {
		return false
	}
	c := d.callOf(d.capture.id)
	if c == nil || c.done {
		return false
	}
	d.pollRecord()
	if d.pendingCall() != nil || c.done {
		return false // a new call, or the first one finished: a new question
	}
	d.tr.state(fmt.Sprintf("another question about %s, already approved: approving it too (rule %s)", c.toolUse, det.Rule.Name))
	d.typeAnswer(det, "approve", det.Rule.Approve)
	return true
}

// sameCall compares what ran with what the screen showed: equal, or the
// same file named relative to the workspace on screen.
func sameCall(ran, shown string) bool {
	return ran == shown || shown != "" && strings.HasSuffix(ran, "/"+shown)
}

// recordHas reports whether tool_use id is a call the record tracks.
func (d *driver) recordHas(id string) bool { return d.callOf(id) != nil }

// callOf is the recorded call reported as tool_use id, or nil.
func (d *driver) callOf(id string) *recCall {
	for _, c := range d.rec.calls {
		if c.toolUse == id {
			return c
		}
	}
	return nil
}

// markDenied records that the call behind tool_use id was denied: its
// result in the record is the program's note of the denial, not output.
func (d *driver) markDenied(id string) {
	for i := range d.rec.orphans {
		if d.rec.orphans[i].toolUse == id {
			d.rec.orphans[i].denied = true
		}
	}
	if c := d.callOf(id); c != nil {
		c.denied = true
		for i, a := range c.also {
			d.emitErr(d.out.Deny(a, c.ev.Also[i].Name, c.ev.Also[i].Input, "Denied with "+id+"."))
		}
	}
}

// describeCall is the short form of a call for notices: its command, file
// or pattern.
func describeCall(name string, input map[string]any) string {
	for _, k := range []string{"command", "file_path", "path", "url", "query", "pattern"} {
		if s, ok := input[k].(string); ok && s != "" {
			return s
		}
	}
	return name
}
