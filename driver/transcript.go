package driver

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/transcript"
)

// The screen says when, the transcript says what. With the provider's
// own log of the session (Config.Transcript), a question on screen is
// reported with the exact input of the call the log holds, a call's
// output comes from the log (all of it, not what the TUI folded), calls
// the program ran without asking are reported too, and the log's end of
// the turn ends it. Without a log, or until it is found, the screen rules
// do all of this.

const (
	// logEvery is how often the transcript is read while a turn runs.
	logEvery = 200 * time.Millisecond
	// logWait is how long a question waits for its call to reach the
	// transcript before the screen's text is used.
	logWait = 600 * time.Millisecond
	// logWaitUnsure is logWait for a question whose command the screen
	// cannot give exactly (read over wrapped rows, or cut), in a
	// transcript found for this session: there the call will come, and
	// only late on a loaded machine (Claude Code logged one 940 ms after
	// drawing its dialog, beside two other live tests on two cores).
	logWaitUnsure = 5 * time.Second
	// logWaitEvery is how often the log is read while a question waits
	// for its call: a program writes it within milliseconds of drawing
	// its dialog, and every read is a look at a file's new bytes. The
	// first read is logWaitFirst after the question, each wait twice the
	// one before up to logWaitEvery: Codex wrote its call 1–7 ms after
	// its dialog was complete, and read every 10 ms its question waited
	// 3–7 ms for nothing (read at 1, 3, 7, 15 ms, ~1 ms).
	logWaitEvery = 10 * time.Millisecond
	logWaitFirst = time.Millisecond
)

// nextLogWait is the wait before the next read of the log a question
// waits on, after a wait of step: twice it, up to logWaitEvery.
func nextLogWait(step time.Duration) time.Duration { return min(2*step, logWaitEvery) }

// logCall is a tool call the transcript announced.
type logCall struct {
	ev      transcript.Event
	seenAt  time.Duration
	toolUse string   // our tool_use id, once reported
	also    []string // the tool_use ids of ev.Also
	denied  bool     // we answered its question with a denial
	done    bool     // its result is reported
	// ranAfterDenial is the start of a result the log holds for a denied
	// call that is not a refusal: it ran ("" while nothing says so).
	ranAfterDenial string
}

// transcriptState is what the driver learned from the transcript, across turns.
type transcriptState struct {
	calls  map[string]*logCall
	order  []string
	failed bool   // a read error was reported
	path   string // what the transcript is read from, as last traced
	// orphans are questions asked from the screen before the log held
	// their call (a log written after a call ran): the next logged calls
	// are theirs.
	orphans []orphan
}

// turnLog is what the transcript said of the running turn.
type turnLog struct {
	ended    bool // the log says the turn is over
	prompted bool // the log holds this turn's prompt: the turn has begun
	// waiting is a question held until its call reaches the log (at most
	// until waitEnd), or a log read in the background has been read anew
	// since askedAt.
	waiting *heuristics.Detection
	waitEnd time.Duration
	askedAt time.Time
	// waitStep is the wait before the next read while a question waits
	// (logWaitFirst, doubled up to logWaitEvery).
	waitStep time.Duration
}

// backgroundLog is a transcript read in the background, slowly (opencode's
// and Kilo's, from the TUI's server or CLI). ReadSince says whether Poll
// has handed over a read that began at or after t (or that no read will
// come): what the program had logged by t, the driver has. A question
// waits for that, not for a fixed time, so a read slowed by a loaded
// machine cannot leave the question with the screen's text only, and a
// question with no call in the log is not held longer than one read.
type backgroundLog interface{ ReadSince(t time.Time) bool }

// urgedLog is a background log whose reads come in gaps; Urge(asked)
// has the next one begin at once: a question seen at asked waits for it.
type urgedLog interface{ Urge(asked time.Time) }

// orphan is a question reported before its call reached the transcript.
type orphan struct {
	toolUse, tool, command string
	denied                 bool
	// exact: the command is the screen's whole and exact (wholeOnScreen),
	// so only a call that ran it is this question's: a call the program
	// ran without asking, logged in the same write, is not.
	exact bool
}

// wholeOnScreen reports whether det shows its call's whole input exactly:
// its rule says the question shows it all (whole_call), and the command is
// on one row, drawn as written, the description not cut short with an
// ellipsis.
func wholeOnScreen(det *heuristics.Detection) bool {
	return det.Rule != nil && det.Rule.WholeCall && notWhole(det) == ""
}

// notWhole says why a whole_call dialog's call cannot be taken from the
// screen as it is, or "" when it can.
func notWhole(det *heuristics.Detection) string {
	switch {
	case det.Command == "":
		return "no command was read"
	case det.Wrapped:
		return "the command wraps over rows"
	case !drawnAsWritten(det.Command):
		return "its command may be drawn otherwise than written (a character other than printable ASCII, or a run of spaces a tab may have drawn)"
	case det.Dialog != nil && det.Dialog.Cut:
		return "the dialog is cut off"
	case strings.HasSuffix(det.Description, "…") || strings.HasSuffix(det.Description, "..."):
		return "its description is cut short"
	}
	return ""
}

// drawnAsWritten reports whether a command read from the screen can only
// be the text it was drawn from: printable ASCII, spaces single. A TUI
// draws a tab as spaces (Claude Code's 'a<tab>b' is 'a   b'), and drops
// or joins zero-width and combining characters, so a command with a run
// of spaces or any other character waits for the transcript's own text.
func drawnAsWritten(command string) bool {
	for i := 0; i < len(command); i++ {
		if c := command[i]; c < ' ' || c > '~' || c == ' ' && i > 0 && command[i-1] == ' ' {
			return false
		}
	}
	return true
}

// logFound reports whether the transcript is found and read.
func (d *driver) logFound() bool {
	return d.cfg.Transcript != nil && d.cfg.Transcript.Path() != ""
}

// logBegun reports whether the transcript holds this run's session: found
// and read, and, where the source searches for its session among others,
// that session found (Path names the search before).
func (d *driver) logBegun() bool {
	if !d.logFound() {
		return false
	}
	s, ok := transcript.As[transcript.Searching](d.cfg.Transcript)
	return !ok || s.SessionFound()
}

// pollLog reads what the transcript gained and acts on it.
func (d *driver) pollLog() {
	if d.cfg.Transcript == nil || d.st == stateEnded {
		return
	}
	evs, err := d.cfg.Transcript.Poll()
	if err != nil && !d.log.failed {
		d.log.failed = true
		d.tr.state("reading the provider's transcript failed: " + err.Error())
	}
	if p := d.cfg.Transcript.Path(); p != d.log.path && d.tr.enc != nil {
		// Where the transcript is read from, as it changes (found, or
		// read another way: a TUI's server, then its CLI).
		d.log.path = p
		d.tr.state("the provider's transcript: " + cmp.Or(p, "none (given up, or not found yet)"))
	}
	if len(evs) > 0 {
		// The program is at work: the idle clock starts again, from the
		// next settled look at the screen (one is due even if the screen
		// does not change again: a denied call's result may reach the log
		// after the program is back at rest, and the turn must still end).
		d.at[timerIdle] = 0
		if d.at[timerQuiet] == 0 {
			d.at[timerQuiet] = d.now() + d.quiet
		}
	}
	if d.st == stateBetween {
		if len(evs) > 0 {
			d.tr.state("between turns: the transcript's late lines of the last turn are not reported")
		}
		return
	}
	for _, e := range evs {
		d.tr.log(e)
		d.logEvent(e)
	}
	d.reportOverdue()
	if d.inTurn() {
		d.tellHeld()
	}
	if w := d.t.log.waiting; w != nil && (d.pendingCall() != nil || d.now() >= d.t.log.waitEnd || d.logReadSinceAsked()) {
		d.t.log.waiting = nil
		if d.engine.StillShows(d.screen, w) {
			d.ask(w)
		} else {
			// Kilo draws its dialog again as it writes the call to its
			// transcript: the question waited for is asked as the screen
			// shows it once it settles, not as it was drawn before (an
			// approval would find it changed, and ask again with a second
			// tool_use).
			d.engine.Unfire(d.screen, w)
			if d.at[timerQuiet] == 0 {
				d.at[timerQuiet] = d.now() + questionQuiet
			}
			d.tr.state("the question was drawn again while its call reached the transcript: asked once the screen settles")
		}
	}
	if d.t.log.ended && d.st != stateQuitting && d.st != stateEnded {
		d.turnDone(nil, "the provider's transcript ends the turn")
	}
}

func (d *driver) logEvent(e transcript.Event) {
	switch e.Kind {
	case transcript.Text:
		d.reportUnasked(0) // calls before the text come first
		if u := e.Usage; u != nil {
			// The transcript has the text's request's tokens: its message
			// carries them, as Claude Code's stream does.
			d.out.MessageUsage(&emit.Usage{InputTokens: u.Input, OutputTokens: u.Output,
				CacheReadInputTokens: u.CacheRead, CacheCreationInputTokens: u.CacheWrite})
			defer d.out.MessageUsage(nil)
		}
		d.say(e.Text)
	case transcript.ToolCall:
		if d.log.calls == nil {
			d.log.calls = map[string]*logCall{}
		}
		if _, ok := d.log.calls[e.ID]; !ok {
			c := &logCall{ev: e, seenAt: d.now()}
			d.log.calls[e.ID] = c
			d.log.order = append(d.log.order, e.ID)
			d.adopt(c)
		}
	case transcript.ToolResult:
		d.logResult(e)
	case transcript.TurnEnd:
		d.t.log.ended = true
	case transcript.ModelError:
		d.logModelError(e)
	case transcript.Tokens:
		d.t.usage.Add(e)
	case transcript.Prompt:
		// Only this turn's own prompt says it began: a resumed program may
		// log the earlier ones again.
		if isPromptOf(e.Text, d.t.prompt) {
			d.t.log.prompted = true
		}
	case transcript.Session:
		d.outcome.ProviderSession = e.Session
		if d.cfg.OnSession != nil {
			d.cfg.OnSession(e.Session)
		}
	}
}

// logResult reports a call's output from the transcript.
func (d *driver) logResult(e transcript.Event) {
	c := d.log.calls[e.ID]
	if c == nil {
		d.logEvent(transcript.Event{Kind: transcript.ToolCall, ID: e.ID, Name: "Tool", Input: map[string]any{}})
		c = d.log.calls[e.ID]
	}
	if c.denied && !refusal(e) && c.ranAfterDenial == "" {
		c.ranAfterDenial = firstLine(strings.TrimSpace(e.Output))
		if c.ranAfterDenial == "" {
			c.ranAfterDenial = "(no output)"
		}
		d.denialRan(c)
	}
	if c.done || c.denied {
		return // a denial was reported when it was made
	}
	if c.toolUse == "" {
		d.reportCall(c)
	}
	c.done = true
	if d.t.capture != nil && d.t.capture.id == c.toolUse {
		d.stopCapture()
		d.toIdle("the transcript holds the output of " + c.toolUse)
	}
	out := e.Output
	if out == "" {
		out = "(no output)"
	}
	for _, id := range append([]string{c.toolUse}, c.also...) {
		d.emitErr(d.out.ToolResult(id, out, e.IsError))
	}
}

// askWithLog holds a question until its call is in the transcript (at
// most logWait, or the log's QuestionWait; a background log, until it is
// read anew), in a live run also while the log is not there yet; false
// when there is no log to wait for.
func (d *driver) askWithLog(det *heuristics.Detection) bool {
	asked := time.Now()
	d.readLogAsAsked(d.outcome.Questions + 1)
	if d.cfg.Transcript == nil || d.cfg.LogAfterRun || !d.logFound() && d.src.recording() != nil {
		return false
	}
	d.pollLog()
	if d.pendingCall() != nil {
		return false
	}
	if wholeOnScreen(det) {
		d.tr.state("the dialog shows its call whole, the command on one row: asked from the screen now; the transcript's call is matched to it when it comes")
		return false
	}
	if det.Rule != nil && det.Rule.WholeCall {
		d.tr.state("the dialog shows its call whole, but " + notWhole(det) + ": not asked from the screen")
	}
	if d.logFound() {
		d.tr.state("the question is not in the provider's transcript yet: waiting for it")
	} else {
		// Copilot CLI 1.0.87 creates its transcript as it draws its first
		// question: asked 30 ms after the dialog settled, the question
		// went out before the transcript was found, without the file's text.
		d.tr.state("the provider's transcript is not there yet: waiting for it, and for the question's call in it")
	}
	wait := logWait
	if s, ok := transcript.As[interface{ QuestionWait() time.Duration }](d.cfg.Transcript); ok && s.QuestionWait() > 0 {
		wait = s.QuestionWait() // at most, in a log read in the background; 0: logWait
	} else if (det.Wrapped || det.Dialog != nil && det.Dialog.Cut) && d.logBegun() {
		wait = logWaitUnsure
		d.tr.state("the screen's command is wrapped or cut, a guess: waiting longer for the transcript's own")
	}
	if u, ok := transcript.As[urgedLog](d.cfg.Transcript); ok {
		u.Urge(asked)
	}
	d.t.log.waiting, d.t.log.waitEnd, d.t.log.askedAt = det, d.now()+wait, asked
	d.t.log.waitStep = logWaitFirst
	d.at[timerLog] = d.now() + logWaitFirst
	return true
}

// logReadSinceAsked reports whether a log read in the background has
// been read anew since the held question was seen, without its call.
func (d *driver) logReadSinceAsked() bool {
	b, ok := transcript.As[backgroundLog](d.cfg.Transcript)
	return ok && b.ReadSince(d.t.log.askedAt)
}

// adopt links a newly logged call to the oldest question asked from the
// screen before the log had it that it can be (any, for a question read
// as the screen showed it; for one that showed its call whole, only the
// call that ran its command), and says so if the screen showed a
// different command than the one that ran.
func (d *driver) adopt(c *logCall) {
	ran := describeCall(c.ev.Name, c.ev.Input)
	i := slices.IndexFunc(d.log.orphans, func(o orphan) bool {
		return !o.exact || o.tool == c.ev.Name && (sameCall(ran, o.command) || strings.Join(strings.Fields(ran), " ") == strings.Join(strings.Fields(o.command), " "))
	})
	if i < 0 {
		return
	}
	o := d.log.orphans[i]
	d.log.orphans = slices.Delete(d.log.orphans, i, i+1)
	c.toolUse, c.denied = o.toolUse, o.denied
	d.tr.state(fmt.Sprintf("the transcript's %s %s is the question %s", c.ev.Name, c.ev.ID, o.toolUse))
	if o.tool == c.ev.Name && !sameCall(ran, o.command) && !c.denied {
		d.emitErr(d.out.Notice(fmt.Sprintf("the program ran %q; its screen had shown %q", ran, o.command)))
	}
}

// sameCallAgain answers a second question about the call being run (a
// program that asks for its command, then for a path it touches) the way
// the first was answered: the log holds no new call, and the approved
// one has not finished. It reports whether it did.
func (d *driver) sameCallAgain(det *heuristics.Detection) bool {
	if !d.logFound() || d.cfg.LogAfterRun || d.st != stateCapturing || d.t.capture == nil {
		return false
	}
	c := d.callOf(d.t.capture.id)
	if c == nil || c.done {
		return false
	}
	d.pollLog()
	if d.pendingCall() != nil || c.done {
		return false // a new call, or the first one finished: a new question
	}
	if at := d.lastOutput + questionQuiet; d.src.recording() == nil && d.now() < at && !d.atRest() {
		// Its dialog settled before the screen did (settle.go): these
		// keys go with no question between, so they wait for the
		// screen as they did before.
		d.engine.Unfire(d.screen, det)
		d.at[timerQuiet], d.t.heldBack = at, true
		d.tr.state(fmt.Sprintf("another question about %s, already approved: approved once the screen stays still until %v", c.toolUse, at))
		return true
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

// logHas reports whether tool_use id is a call the transcript tracks.
func (d *driver) logHas(id string) bool { return d.callOf(id) != nil }

// logCallDone reports whether the transcript holds the result of the
// call reported as tool_use id: it ran.
func (d *driver) logCallDone(id string) bool {
	c := d.callOf(id)
	return c != nil && c.done
}

// callOf is the logged call reported as tool_use id, or nil.
func (d *driver) callOf(id string) *logCall {
	for _, c := range d.log.calls {
		if c.toolUse == id {
			return c
		}
	}
	return nil
}

// markDenied records that the call behind tool_use id was denied: its
// result in the transcript is the program's note of the denial, not output.
func (d *driver) markDenied(id string) {
	for i := range d.log.orphans {
		if d.log.orphans[i].toolUse == id {
			d.log.orphans[i].denied = true
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

// refusal reports a logged result that says the call did not run: the
// provider marked it so, or an error in words of a rejection (each
// program words it its own way: "The user doesn't want to proceed…",
// "rejected by user", "cancelled").
func refusal(e transcript.Event) bool {
	return e.Refused || e.IsError && refusedWords.MatchString(e.Output)
}

var refusedWords = lazyre.New(`(?i)\b(?:reject(?:ed)?|den(?:y|ied)|declin(?:e|ed)|cancel(?:l?ed)?|abort(?:ed)?|interrupted|doesn't want|does not want|did not approve|not approved|refused|not allowed|permission)\b`)
