package driver

import (
	"fmt"
	"maps"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// pending is a question the GUI has not answered yet.
type pending struct {
	id    string
	n     int // the session's question number, from 1
	det   *heuristics.Detection
	tool  string // Claude's name for the call: Bash, or the transcript's
	input map[string]any
	// own: the command is the program's own command line (rm -i), not
	// one the question shows: the files it names are the program's to
	// write whatever is answered (a log it was told to keep).
	own bool
}

// ask turns a question into a tool_use and has the permission policy
// decide it: at once by the mode, or by the GUI's answer.
func (d *driver) ask(det *heuristics.Detection) {
	d.t.retry = nil                                                      // keys typed before are never typed at this question
	if d.t.boxPrompt != "" && (det.Dialog == nil || !det.Dialog.Trust) { // trusting the folder comes before any turn
		d.t.boxPrompt = ""
		d.tr.state("the program asks before it shows an input box: the prompt is not typed (it wanted none)")
	}
	d.flushCheck()
	d.t.check = nil // files change under a later call; the log still tells of a run
	if d.cfg.Profile.ContextRows > 0 && det.Rule.Name != heuristics.DialogRule {
		// What the program printed before the match, then the match's own
		// context group (git add -p's hunk, a menu's commands). A dialog
		// read by its shape has its own region: what is above it is the
		// program's transcript, a banner, a spinner.
		det.Context = strings.Trim(d.questionContext(det)+"\n"+det.Context, "\n")
	}
	d.agentDialog(det)
	command, own := det.Command, false
	if command == "" {
		command = d.t.suggestion
	}
	if command == "" {
		command = commandShown(det.Context) // "The command to run:" / "  rm -rf x"
	}
	if command == "" && det.Dialog == nil && len(d.cfg.Profile.Command) == 0 {
		// A plain program the user named (rm -i): its command line is what
		// it asks about. Never an agent's: its dialog says what it asks.
		command, own = d.cfg.CommandLine, true
	}
	if command == "" && det.Dialog == nil && det.Rule.Tool == "" {
		if len(d.cfg.Profile.Command) > 0 {
			// An agent's question that shows no command, read as no
			// dialog: it is its question, not a command.
			det.Dialog = &heuristics.Dialog{Question: det.Prompt}
			if det.Option != "" {
				det.Dialog.Options = []string{det.Option}
			}
		} else {
			command = det.Prompt // a recording with no command line: the question says what
		}
	}
	input := map[string]any{"command": command}
	own = own && command == d.cfg.CommandLine
	// The question is worth showing only when it says what the command
	// does (rm: remove 'x'?), not when it is the program's menu title.
	desc := det.Description
	if desc == "" && det.Command == "" && d.t.suggestion == "" && det.Prompt != "" {
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
	p := &pending{id: emit.NewToolUseID(), n: d.outcome.Questions, det: det, input: input, tool: "Bash", own: own}
	if dl := det.Dialog; dl != nil && (command == "" || dl.Tool != "") {
		// A dialog read by its shape: what it draws, and only that.
		p.tool, p.input, command = dialogCall(dl, desc)
	} else if t := det.Rule.Tool; t == "Write" || t == "Edit" {
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
	if c := d.pendingCall(); c != nil && d.logFound() {
		// The transcript says what: the exact call, in Claude's words.
		p.input, p.tool, c.toolUse = maps.Clone(c.ev.Input), c.ev.Name, p.id
		if _, ok := p.input["description"]; !ok && desc != "" {
			p.input["description"] = desc
		}
		command = describeCall(c.ev.Name, p.input)
		d.tr.state(fmt.Sprintf("question %d: the call comes from the provider's transcript (%s %s)", p.n, c.ev.Name, c.ev.ID))
	} else if p.tool == askUserQuestion && d.cfg.Transcript != nil {
		// A dialog that names no call and none waits in the log: the
		// program's own question (Kilo's "disable Snapshots?" when its
		// start is slow). A call logged after it is reported as itself,
		// not as this question (that hid the turn's command behind the
		// dialog's answer); nothing it showed could match one.
		d.tr.state(fmt.Sprintf("question %d names no call, and the transcript holds none waiting: the program's own question", p.n))
	} else if d.cfg.Transcript != nil {
		d.tr.state(fmt.Sprintf("question %d: the call comes from the screen (nothing in the transcript yet)", p.n))
		d.log.orphans = append(d.log.orphans, orphan{toolUse: p.id, tool: p.tool, command: command, exact: wholeOnScreen(det)})
	}
	for _, m := range ptyhost.All[ptyhost.Marker](d.cfg.Term) {
		m.Mark(fmt.Sprintf("question %d: %s", p.n, command))
	}
	danger := d.policy.Assess(p.tool, p.input)
	if dl := det.Dialog; dl != nil && dl.Cut && p.tool == "Bash" && command == dl.Command {
		// What is not shown cannot be checked: never approved unseen.
		shown, _ := p.input["description"].(string)
		p.input["description"] = strings.TrimSpace(cutNote + "\n\n" + shown)
		danger.Rules = append(danger.Rules, "cut-short")
		danger.Reason = strings.TrimPrefix(danger.Reason+"; "+cutDanger, "; ")
	}
	if danger.Flagged() {
		p.input["dangerous"] = danger.Reason
		d.tr.state(fmt.Sprintf("question %d is dangerous: %s (%s)", p.n, danger.Reason, danger.Rule()))
	}
	// Decided before its tool_use is written: who answers for nobody (the
	// guard) is said in it.
	dec, early := d.policy.Decide(p.id, command, danger)
	if det.Dialog != nil && det.Dialog.Trust {
		var ok bool
		if dec, early, ok = d.trustDecision(det.Dialog, dec, early); !ok {
			return
		}
	}
	if dec.By != "" {
		p.input["approved_by"] = dec.By
	}
	d.emitErr(d.out.ToolUse(p.id, p.tool, p.input))
	if danger.Flagged() {
		d.emitErr(d.out.Warning(permission.DangerWarning(command, danger.Reason)))
	}
	if c := d.callOf(p.id); c != nil {
		d.reportAlso(c, "the question about "+p.id)
	}
	d.sayDecision(dec)
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
		d.t.pending = p
	}
}

// trustDecision decides a program's "trust this folder?": as the
// settings say (trust_folders: yes or no), else the GUI's; with nobody
// to ask, no guard trusts a folder for a person: the turn ends saying
// what the program asks and how to answer it. ok false: it ended.
func (d *driver) trustDecision(dl *heuristics.Dialog, dec permission.Decision, early *permission.Answer) (permission.Decision, *permission.Answer, bool) {
	const by = "settings.yaml trust_folders"
	switch d.cfg.TrustFolders {
	case "yes":
		return permission.Decision{Verdict: permission.Allow, By: by + ": yes", Notice: "yume-cli: the program asks whether to trust " + d.cfg.Cwd + "; " + by + " says yes"}, nil, true
	case "no":
		return permission.Decision{Verdict: permission.Refuse, By: by + ": no", Message: "Not trusted: " + by + " says no."}, nil, true
	}
	if d.policy.Channel() || early != nil {
		return dec, early, true
	}
	reason := fmt.Sprintf("yume-cli: the program asks whether to trust the folder %s (%q, options %q), and nobody can answer here (no approval channel). "+
		"Trust it in the program itself once, or set trust_folders: yes in settings.yaml (no answers no)", d.cfg.Cwd, dl.Question, dl.Options)
	d.tr.state("a trust question with nobody to answer it: " + dl.Question)
	d.abort(reason, false)
	return dec, early, false
}

// A command a dialog shows cut short ("…" where the rest would be, and
// nothing on screen has it whole) is asked about as shown, saying so: it
// is flagged, so no mode approves it unseen; a person may.
const (
	cutNote   = "yume-cli: the dialog shows this command cut short (it ends in \"…\"); the whole command is not on screen, and what runs is longer than what is shown."
	cutDanger = "the command is cut short on screen: its hidden part cannot be checked"
)

// sayDecision writes what a decision says: its notice, and its alert (a call the
// guard stopped) as a system error, which Yume shows.
func (d *driver) sayDecision(dec permission.Decision) {
	if dec.Notice != "" {
		d.emitErr(d.out.Notice(dec.Notice))
	}
	if dec.Alert != "" {
		d.emitErr(d.out.SystemError(dec.Alert))
	}
}

// decideNow decides p again by the policy as it is now (the mode
// changed, or stdin ended) and carries out what it decides; a question
// still to be asked stays with the GUI.
func (d *driver) decideNow(p *pending) {
	dec, _ := d.policy.Decide(p.id, describeCall(p.tool, p.input), d.policy.Assess(p.tool, p.input))
	switch dec.Verdict {
	case permission.Allow:
		d.sayDecision(dec)
		d.approve(p)
	case permission.Refuse:
		d.sayDecision(dec)
		d.deny(p, dec.Message)
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
	if d.goneBeforeApproval(p) {
		return
	}
	d.settled[p.id] = "approved"
	if !d.engine.StillShows(d.screen, p.det) {
		now := d.engine.Redrawn(d.screen, p.det) // found on this screen: it shows
		if now == nil {
			d.emitErr(d.out.ToolResult(p.id, "The command on screen changed before it was approved; yume-cli asks again.", true))
			d.toIdle("the screen changed before the approval of " + p.id)
			d.evaluate(true) // a changed prompt has a new identity: it fires anew
			return
		}
		// Drawn again, reading the same: the question approved.
		d.tr.state(fmt.Sprintf("question %d was drawn again before its approval, reading the same (rows %d-%d): the approval stands", p.n, now.Rows[0], now.Rows[len(now.Rows)-1]))
		p.det = now
	}
	typed := d.answerKeys(p, "approve", p.det.Rule.Approve, func(k *keying) {
		d.t.verdict = approved
		if p.tool == askUserQuestion {
			// A question, not a call: its result is the answer typed; what
			// the program draws next is its own next step.
			d.emitErr(d.out.ToolResult(p.id, "Answered: "+strings.TrimSpace(p.det.Option), false))
			d.toIdle("answered " + p.id)
			d.checkAnswer(k, false, nil, "")
			return
		}
		c := newCapture(p.id, p.input, k.mark, emit.MaxToolOutput, d.cfg.Profile.Echo)
		if p.det.Rule.Name == heuristics.DialogRule && p.tool == "Bash" {
			c.tui, c.mark, c.command, c.asked = true, k.retired, describeCall(p.tool, p.input), p.det
			c.askedRows = map[string]bool{}
			for _, r := range visibleRows(p.det.Rows) {
				if l := d.screen.Line(r); strings.TrimSpace(l) != "" {
					c.askedRows[l] = true
				}
			}
		}
		d.startCapture(c)
		d.checkAnswer(k, false, nil, "")
	})
	if !typed && d.st != stateEnded && d.settled[p.id] == "approved" {
		d.emitErr(d.out.ToolResult(p.id, "yume-cli could not type the approval; see --trace.", true))
		d.toIdle("the approval of " + p.id + " could not be typed")
	}
}

// deny types the deny keys; the denial's tool_result goes out once the
// program shows it took them and did not run the call (answer_check.go).
func (d *driver) deny(p *pending, msg string) {
	d.settled[p.id] = "denied"
	files := d.watchedFiles(p)
	typed := d.answerKeys(p, "deny", p.det.Rule.Deny, func(k *keying) {
		d.t.verdict = denied
		d.outcome.Denials++
		d.markDenied(p.id)
		d.toIdle("denied " + p.id)
		d.checkAnswer(k, true, files, msg)
	})
	if !typed && d.st != stateEnded && d.settled[p.id] == "denied" {
		// Nothing could be typed: the program still asks, and its call
		// has not run.
		d.t.verdict = denied
		d.outcome.Denials++
		d.markDenied(p.id)
		d.toIdle("denied " + p.id + "; its keys could not be typed")
		d.emitErr(d.out.Deny(p.id, p.tool, p.input, msg+" (yume-cli could not type the deny keys; see --trace)"))
	}
}

// revise answers with the program's own revise action and remembers the
// feedback for the input question that follows.
func (d *driver) revise(p *pending, a permission.Answer) {
	d.settled[p.id] = "revised"
	files := d.watchedFiles(p)
	d.answerKeys(p, "revise", p.det.Rule.Revise, func(k *keying) {
		d.t.revision, d.t.revising = a.Feedback, true
		d.outcome.Denials++
		d.markDenied(p.id)
		d.toIdle("revising " + p.id)
		d.checkAnswer(k, true, files, a.Denial())
	})
}

// answerFollowup answers "are you sure?" the way the question before it was answered.
func (d *driver) answerFollowup(det *heuristics.Detection) {
	keys, why := det.Rule.Deny, "followup-deny"
	if d.t.verdict == approved && d.out.GUIGone() {
		d.leave("the GUI went away before the follow-up question was answered")
		return
	}
	if d.t.verdict == approved {
		keys, why = det.Rule.Approve, "followup-approve"
	}
	if c := d.t.capture; c != nil {
		c.mark = d.markAfter(det)
	}
	if d.src.recording() != nil {
		d.sendMeaning(det.Rule, why, keys, d.equivalentsOf(det, why, false))
		return
	}
	// One key at a time, as every answer (keying.go); the state stays as
	// it is (a capture goes on).
	row, _, _ := d.screen.Cursor()
	d.t.keying = &keying{p: &pending{det: det}, det: det, why: why, keys: keys, followup: true,
		then: func(*keying) {}, row: d.screen.Retired() + uint64(row), began: d.now()}
	d.stepKeys()
}

// supersede settles a pending question the program no longer asks.
func (d *driver) supersede(why string) {
	p := d.t.pending
	if k := d.t.keying; k != nil {
		p = k.p // its answer was being typed
	}
	d.toIdle("superseded: " + why)
	d.emitErr(d.out.ToolResult(p.id, "Not run: "+why+".", true))
}

// dropQuestion settles the question the turn leaves open: one waiting
// for the GUI or being answered is not run; a denial held for its check
// goes out as it is.
func (d *driver) dropQuestion(why string) {
	if d.st == stateAwaiting || d.st == stateAnswering {
		d.supersede(why)
	}
	d.flushCheck()
}

// flushCheck sends a denial's tool_result held for its check: the turn
// moves on (a new question, its end) before the screen settled.
func (d *driver) flushCheck() {
	if c := d.t.check; c != nil && c.held != "" {
		d.emitErr(d.out.Deny(c.k.p.id, c.k.p.tool, c.k.p.input, c.held))
		c.held = ""
	}
}
