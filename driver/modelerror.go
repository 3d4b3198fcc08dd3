package driver

import (
	"fmt"
	"time"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/modelerror"
	"github.com/yume-cli/yume-cli/ptyhost"
	"github.com/yume-cli/yume-cli/transcript"
)

// Model errors: the model's service refused or failed a request, and the
// program says so on its screen (a profile's error rule, or the generic
// recogniser in heuristics) or in its transcript (transcript.ModelError; the
// debug log some programs keep of their retries is part of it). While the
// program retries, the GUI hears each distinct message once, at once, as
// a system message Yume shows (rate_limit for a rate limit or quota,
// error for the rest), in the program's words. The turn ends with a
// system error and an error result in the program's words and what to
// do: at once for an error no retry can fix (refused credentials, no
// such model); as soon as the program gives up — its transcript says so, it
// is back at rest (its ready input box, nothing busy) or its screen
// stands still with the error on it, or it exits — or, when it still
// retries modelerror.Bound after the first error with no progress
// (no answer, no tool call), yume-cli stops it and says so. A turn that
// made progress after an error (the retry worked) is not failed by it.

// modelErrors is what the running turn saw of model errors: a part of the
// driver, new with each turn (errorsOf).
type modelErrors struct {
	turn  *turn             // the turn it belongs to
	err   *modelerror.Error // the newest error without progress after it; nil: none
	since time.Duration     // when that run of errors began
	mark  progress          // the turn's progress when it began
	final bool              // the program's transcript has it: the program gave up
	// sure: the program's own words (a rule, its transcript) or its retries
	// say it is a model error, not a line of output that reads like one;
	// only then does the bound stop the program.
	sure    bool
	shownAt uint64 // screen generation the error was last seen on
	// stillGen is the screen generation the stand-still clock started on,
	// at stillAt.
	stillGen  uint64
	stillAt   time.Duration
	lookedGen uint64          // screen generation the poll last read (errorPoll)
	logSince  time.Duration   // when the poll first saw the transcript's session begun (silentTimer)
	noticed   map[string]bool // messages told the GUI (modelerror.Error.Key)
	stale     map[string]bool // messages from before progress: not news
	// held are the screen's words of a retry that names no status, held
	// for heldFor while the program's transcript may tell the same attempt
	// with its status (Claude Code's screen: "API error · Retrying in
	// 2s · attempt 3/10"; its debug log: "… HTTP 429 …"), which decides
	// between rate_limit and error.
	held map[string]heldError
	// begun and start are when the part began and the turn's progress
	// then: the silent bound counts from there.
	begun time.Duration
	start progress
}

// heldError is a message held back (modelErrors.held).
type heldError struct {
	e     *modelerror.Error
	until time.Duration
}

// heldFor is how long the screen's words of a retry without a status wait
// for the transcript's. The screen is read at most errorPoll after it
// changed and the transcript every logEvery, so the GUI still hears of it
// within a second.
const heldFor = 500 * time.Millisecond

// silentFactor times the error bound is how long a turn may show nothing
// but work in progress — no answer, no tool call, no question, no error —
// before yume-cli stops it: a CLI that retries a failing model service
// without a word on screen or in its transcript (Gemini CLI on 429 and 500)
// looks like this, and nothing else would end the turn before
// --turn-timeout.
const silentFactor = 2

// progress is what the turn produced: any change means the model answers.
type progress struct {
	text         string
	calls, asked int
}

// errorsOf is the running turn's part, new for a new turn.
func (d *driver) errorsOf() *modelErrors {
	if d.merr.turn != d.t {
		d.merr = modelErrors{turn: d.t, noticed: map[string]bool{}, stale: map[string]bool{}, held: map[string]heldError{},
			begun: d.now(), start: d.progressNow()}
		if d.logBegun() {
			d.merr.logSince = d.now()
		}
		if d.inTurn() && d.at[timerError] == 0 {
			d.at[timerError] = d.now() + errorPoll
		}
	}
	return &d.merr
}

func (d *driver) progressNow() progress {
	return progress{text: d.t.lastText, calls: len(d.log.order), asked: d.outcome.Questions}
}

// progressed forgets an error the program got past: the model answered
// after it. Its message, still on screen, is no news any more.
func (d *driver) progressed(m *modelErrors) {
	if m.err == nil || d.progressNow() == m.mark {
		return
	}
	d.tr.state("the program made progress after the model error " + m.err.Text + ": the retry worked")
	for k := range m.noticed {
		m.stale[k] = true
	}
	clear(m.held) // the retry worked: no news
	m.err, m.final = nil, false
}

// sawModelError takes an error the screen or the transcript shows: a notice
// for a new message, the bound's clock for the first of a run.
func (d *driver) sawModelError(e *modelerror.Error, where string) {
	m := d.errorsOf()
	d.progressed(m)
	k := e.Key()
	if m.stale[k] || d.st == stateEnded || d.st == stateQuitting {
		return
	}
	if where != "transcript" {
		m.shownAt = d.screen.Generation()
	}
	m.sure = m.sure || where != "screen" || e.Retrying
	if m.err == nil {
		m.since, m.mark = d.now(), d.progressNow()
	}
	if m.err == nil || e.Status != 0 || m.err.Status == 0 {
		m.err = e
	}
	if where == "transcript" && !e.Retrying {
		m.final = true // its transcript holds the error it gave up on, not a retry
	}
	fresh := !m.noticed[k]
	m.noticed[k] = true
	if fresh {
		d.tr.state(fmt.Sprintf("model error (%s): %s (class %s)", where, e.Describe(), e.Class))
		for _, mk := range ptyhost.All[ptyhost.Marker](d.cfg.Term) {
			mk.Mark(fmt.Sprintf("model error (%s): %s", where, e.Describe())) // a cast shows when it was seen
		}
	}
	if e.Final() && m.sure && d.t.begun && d.st != stateBetween {
		// No retry fixes refused credentials or a missing model: the
		// program's retries would only keep the user waiting.
		m.err = e
		d.endOnModelError("no retry can fix this error", "no retry can fix this error ("+d.cfg.Profile.Name+" would retry it); yume-cli stopped it")
		return
	}
	if !fresh {
		return
	}
	if where == "transcript" {
		delete(m.held, k) // the transcript's words, with the status, are told
	} else if e.Status == 0 && e.Retrying && d.logFound() && d.logsRetries() {
		m.noticed[k] = false
		if _, ok := m.held[k]; !ok {
			m.held[k] = heldError{e, d.now() + heldFor}
		}
		return
	}
	d.tellModelError(e)
}

// retryLogger is a transcript that tells each retry of a failed model
// request with its status (a program's debug log read with its transcript).
type retryLogger interface{ LogsRetries() bool }

// logsRetries reports whether the transcript tells retries.
func (d *driver) logsRetries() bool {
	l, ok := transcript.As[retryLogger](d.cfg.Transcript)
	return ok && l.LogsRetries()
}

// tellHeld tells the GUI the held messages whose wait is over.
func (d *driver) tellHeld() {
	m := d.errorsOf()
	for k, h := range m.held {
		if d.now() < h.until || m.stale[k] {
			continue
		}
		delete(m.held, k)
		if !m.noticed[k] {
			m.noticed[k] = true
			d.tellModelError(h.e)
		}
	}
}

// tellModelError tells the GUI of a model error while the program goes
// on: a system message Yume shows, rate_limit or error.
func (d *driver) tellModelError(e *modelerror.Error) {
	m := d.errorsOf()
	name := d.cfg.Profile.Name
	msg := fmt.Sprintf("%s: the model's service answered with an error: %s", name, e.Describe())
	if e.Retrying && !m.final {
		msg = e.Retries(name)
	}
	d.emitErr(d.showError(e.Subtype(), msg))
}

// showError writes a system message Yume shows: rate_limit or error.
func (d *driver) showError(subtype, msg string) error {
	if subtype == "rate_limit" {
		return d.out.RateLimit(msg)
	}
	return d.out.SystemError(msg)
}

func (d *driver) errorBound() time.Duration {
	if d.cfg.ErrorBound > 0 {
		return d.cfg.ErrorBound
	}
	return modelerror.Bound()
}

// errorBusy is work in progress as the AI TUIs word it: a hint to stop it.
var errorBusy = lazyre.New(`(?i)esc to (?:interrupt|cancel)`)

// busyNow reports whether the screen shows work in progress.
func (d *driver) busyNow(screen string) bool {
	p := d.cfg.Profile
	return p.Busy != nil && p.Busy.MatchString(screen) || errorBusy.MatchString(screen)
}
