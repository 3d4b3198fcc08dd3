// Package driver drives a program through its terminal: it reads what the
// program draws into a screen, asks the rules what the screen means, turns
// a question into a tool_use and the GUI's answer into keys, and captures
// what follows as the tool_result. The same loop runs a live program
// (ptyhost) and a recording (replay) on the recording's own clock.
//
// Its state is a composition: the session (driver: what lives across
// turns), the running turn (a new value each turn, so nothing is reset by
// hand), and named parts, each in its own file with its fields and its
// deadline: prompt submission (prompt.go), the question (question.go), the
// capture (capture.go), the provider's transcript (transcript.go),
// quitting (quit.go), retries of dropped keys (retry.go). Every deadline
// is a row of one table (deadlines.go).
package driver

import (
	"context"
	"io"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/ptyhost"
	"github.com/yume-cli/yume-cli/transcript"
)

// Config wires a terminal to the heuristics and the emitter.
type Config struct {
	Term    ptyhost.Terminal
	Profile *heuristics.Profile
	Out     *emit.Writer
	// Controls carries the GUI's frames; nil means there is no control
	// channel, so NoChannel answers default mode's questions (the guard).
	// A closed channel (stdin EOF) has it answer what is pending and
	// anything asked later.
	Controls <-chan emit.Control
	Mode     permission.Mode
	// NoChannel answers for nobody ("": the guard).
	NoChannel permission.Fallback
	// TrustFolders answers a program's "trust this folder?": "yes", "no",
	// or ask the GUI ("" or "ask"; with no channel the turn ends saying
	// so: no guard trusts a folder for a person).
	TrustFolders string
	// Dangers is the dangerous-command set: such calls are marked and
	// never auto-approved (nil: the embedded set, judged from the
	// current directory).
	Dangers *permission.Dangers
	// Prompt is the user's prompt, typed where a rule's keys say <Prompt>.
	Prompt string
	// TypePrompt: the program was started without the prompt (opencode's
	// TUI ignores --prompt when it resumes a session), so it is typed at
	// the profile's ready input box, as a persistent turn's is.
	TypePrompt bool
	// CommandLine is the program's own command, shown as the tool_use
	// command when a question names none (rm -i, git add -p).
	CommandLine string
	// Cwd is the folder the program runs in, named where a fail rule's
	// hint says {cwd} ("trust the folder {cwd}").
	Cwd        string
	Cols, Rows int
	Quiet      time.Duration // settle period; 0 = the profile's, else 40ms
	Trace      io.Writer     // one JSON line per decision; nil = off
	// Transcript is the provider's own log of the session (nil: none): the
	// exact calls, their whole output and the end of the turn come from
	// it (transcript.go). Not to be confused with yume-cli's asciicast
	// (--record), which the terminal writes (ptyhost.Marker).
	Transcript transcript.Source
	// UnaskedBy says who let a call run that the program did not ask
	// about ("claude auto mode"), in that call's report.
	UnaskedBy string
	// UnaskedAfter reports a logged call that has run this long with no
	// question on screen as run without asking, before its result: for a
	// program in its own auto mode, which asks nothing. 0 waits for the
	// result (a program that may still ask, in a dialog no rule knows).
	UnaskedAfter time.Duration
	// LogAfterRun: the transcript holds a call only once it ran, so a
	// question does not wait for it (transcript.go).
	LogAfterRun bool
	// LogEndsTurns: the transcript marks each turn's end, so a done rule
	// on screen waits for it; otherwise done rules end turns.
	LogEndsTurns bool
	// IdleTimeout ends a turn whose program is back at its ready input
	// box, not busy, with nothing ending the turn (default 5s).
	IdleTimeout time.Duration
	// TurnTimeout ends any turn that runs longer, waiting for the GUI
	// aside (default 10 minutes).
	TurnTimeout time.Duration
	// ErrorBound is how long the program may retry a model error with no
	// progress before yume-cli stops it (0: modelerror.Bound()).
	ErrorBound time.Duration
	// ToolTimeout interrupts a command still running after this long (the
	// way the profile interrupts, Ctrl-C by default); its tool_result says
	// so and keeps the output so far, and the turn goes on (default 120s).
	ToolTimeout time.Duration
	// Persistent keeps the program open between turns: each user frame on
	// Controls is a turn (persistent.go). Without a Prompt the session
	// starts between turns.
	Persistent bool
	// OnTurn hears each persistent turn's prompt as the turn starts, and
	// in a replay each prompt the recording typed at the input box.
	OnTurn func(prompt string)
	// EarlierAnswers are the answers of a resumed session's earlier turns,
	// which the program shows again when it starts: a done rule that
	// reads one of them is not this turn's end.
	EarlierAnswers []string
	// OnSession hears the program's own session id when its transcript
	// names it (a program that picks its own, like Codex).
	OnSession func(id string)
	// OnNote hears what the user may want to know but the GUI need not
	// (yume-cli prints it on stderr with --verbose): control characters
	// removed from a typed text, once per text.
	OnNote func(msg string)
	// FirstRun says, when a fail rule fires, the other first-run problems
	// yume-cli knows of without the program (credentials missing), besides
	// what that rule (named by screen) already shows: "" when none; nil:
	// none. The fail rule's error carries it.
	FirstRun func(screen string) string
}

// Defaults of the bounded-time rule.
const (
	DefaultIdleTimeout = 5 * time.Second
	DefaultTurnTimeout = 10 * time.Minute
	DefaultToolTimeout = 120 * time.Second
	// denialIdle is the idle timeout after a denial: the program stops
	// the turn, and only needs to draw that it did.
	denialIdle = time.Second
)

// Outcome is how a driven session ended.
type Outcome struct {
	Exit        ptyhost.ExitStatus
	Questions   int
	Denials     int
	Interrupted bool
	Failed      bool // the turn ended on a screen yume-cli cannot answer
	// QuitAsAsked: the program left on its quit keys' Ctrl-C (a SIGINT,
	// or status 130), or was stopped after them: its exit status says
	// nothing failed.
	QuitAsAsked bool
	// ProviderSession is the program's own session id, when its session
	// log names it (a program that picks its own, like Codex).
	ProviderSession string
	// KeyDiffs are, in a replay, the answers the recording gave otherwise
	// than the rules would have (a different decision), with the rule and
	// the screen; the replay went on from the recording.
	KeyDiffs []KeysError
	// Unrecognised are the questions the program asked that no rule
	// knew, each once, with the rules that came closest.
	Unrecognised []Unrecognised
}

// Unrecognised is a question no rule knew: when it was asked, its row,
// the screen, and the question rules nearest to matching it (closest
// first), for a replay that fails on it and says why.
type Unrecognised struct {
	At       time.Duration
	Question string
	Screen   string
	Nearest  []heuristics.RuleMiss
}

// Succeeded reports a session whose program ended well: with status 0,
// or as its quit keys asked.
func (o Outcome) Succeeded() bool {
	return !o.Interrupted && !o.Failed && (o.Exit.Success() || o.QuitAsAsked)
}

// Summary says how the session ended, for a person: an interrupted
// program is reported as interrupted, whatever status it stopped with.
func (o Outcome) Summary() string {
	switch {
	case o.Interrupted:
		return "interrupted; when stopped, " + o.Exit.String()
	case o.Failed:
		return "the turn failed; " + o.Exit.String()
	}
	return o.Exit.String()
}

// Drive runs a live session until the program exits or ctx is cancelled,
// and ends the turn with exactly one result. It returns an error only for
// a fault of the driver itself (a dead stdout).
func Drive(ctx context.Context, cfg Config) (Outcome, error) {
	keys := ptyhost.NewKeyWriter(cfg.Term)
	defer keys.Stop()
	cfg.Term = keys
	src := newLiveSource(cfg.Term, cfg.Controls)
	d := newDriver(cfg, src, src.clock)
	src.start(d.screen)
	d.policy.Ready() // the program is starting: the first question does not wait for this
	return d.run(ctx)
}

// run is the one session loop, live or replayed: it takes the next event
// from the source, first running every evaluation due by the event's time
// (advance), then handles it.
func (d *driver) run(ctx context.Context) (Outcome, error) {
	defer d.src.stop()
	defer d.tr.flush() // this screen's repeated decisions, counted
	for {
		ev := d.src.next(ctx, d.at.next(), d.t.pending)
		if ev.fed {
			// Already on the screen: it moves the pause deadlines on
			// before anything due by now is evaluated.
			d.printedAt(ev.at)
		}
		if ev.kind == evPaused {
			d.pausedAt(ev.at)
		}
		d.advance(ev.at)
		if d.fault != nil || d.st == stateEnded {
			return d.finishEarly()
		}
		switch ev.kind {
		case evOutput:
			if ev.fed {
				break
			}
			if ev.cols > 0 && (ev.cols != d.screen.Cols() || ev.rows != d.screen.Rows()) {
				d.screen.Resize(ev.cols, ev.rows)
			}
			d.feed(ev.data)
		case evEnd:
			return d.finishExit(ev.err)
		case evControl:
			d.control(ev.control, ev.ok)
		case evAnswer:
			if ev.asRecorded {
				ev.answer = d.recordedAnswer(d.t.pending)
			}
			d.answer(d.t.pending, ev.answer)
		case evCancel:
			if ptyhost.GUIGone(ctx) {
				d.leave(context.Cause(ctx).Error())
			} else {
				why := "interrupted: yume-cli received a signal"
				if c := context.Cause(ctx); c != nil && c != context.Canceled {
					why = c.Error() // which signal
				}
				d.interrupt(why)
			}
		case evTimer: // advance did the work
		}
		if d.fault != nil || d.st == stateEnded {
			return d.finishEarly()
		}
	}
}
