package driver

import (
	"fmt"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/transcript"
)

// Model errors: the model's service refused or failed a request, and the
// program says so on its screen (a profile's error rule, or the generic
// recogniser in heuristics) or in its record (transcript.ModelError; the
// debug log some programs keep of their retries is part of it). While the
// program retries, the GUI hears each distinct message once, at once, as
// a system message Yume shows (rate_limit for a rate limit or quota,
// error for the rest), in the program's words. The turn ends with a
// system error and an error result in the program's words and what to
// do: at once for an error no retry can fix (refused credentials, no
// such model); as soon as the program gives up — its record says so, it
// is back at rest (its ready input box, nothing busy) or its screen
// stands still with the error on it, or it exits — or, when it still
// retries heuristics.ErrorBound after the first error with no progress
// (no answer, no tool call), yume-cli stops it and says so. A turn that
// made progress after an error (the retry worked) is not failed by it.

// modelErrors is what the running turn saw of model errors: a part of the
// driver, new with each turn (errorsOf).
type modelErrors struct {
	turn  *turn                  // the turn it belongs to
	err   *heuristics.ModelError // the newest error without progress after it; nil: none
	since time.Duration          // when that run of errors began
	mark  progress               // the turn's progress when it began
	final bool                   // the program's record has it: the program gave up
	// sure: the program's own words (a rule, its record) or its retries
	// say it is a model error, not a line of output that reads like one;
	// only then does the bound stop the program.
	sure    bool
	shownAt uint64 // screen generation the error was last seen on
	// stillGen is the screen generation the stand-still clock started on,
	// at stillAt.
	stillGen uint64
	stillAt  time.Duration
	noticed  map[string]bool // messages told the GUI (heuristics.ModelError.Key)
	stale    map[string]bool // messages from before progress: not news
	// held are the screen's words of a retry that names no status, held
	// for heldFor while the program's record may tell the same attempt
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
	e     *heuristics.ModelError
	until time.Duration
}

// heldFor is how long the screen's words of a retry without a status wait
// for the record's. The screen is read at most errorPoll after it
// changed and the record every logEvery, so the GUI still hears of it
// within 2 s.
const heldFor = 500 * time.Millisecond

// silentFactor times the error bound is how long a turn may show nothing
// but work in progress — no answer, no tool call, no question, no error —
// before yume-cli stops it: a CLI that retries a failing model service
// without a word on screen or in its record (Gemini CLI on 429 and 500)
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

// sawModelError takes an error the screen or the record shows: a notice
// for a new message, the bound's clock for the first of a run.
func (d *driver) sawModelError(e *heuristics.ModelError, where string) {
	m := d.errorsOf()
	d.progressed(m)
	k := e.Key()
	if m.stale[k] || d.st == stateEnded || d.st == stateQuitting {
		return
	}
	if where != "record" {
		m.shownAt = d.screen.Generation()
	}
	m.sure = m.sure || where != "screen" || e.Retrying
	if m.err == nil {
		m.since, m.mark = d.now(), d.progressNow()
	}
	if m.err == nil || e.Status != 0 || m.err.Status == 0 {
		m.err = e
	}
	if where == "record" && !e.Retrying {
		m.final = true // it recorded the error it gave up on, not a retry
	}
	fresh := !m.noticed[k]
	m.noticed[k] = true
	if fresh {
		d.tr.state(fmt.Sprintf("model error (%s): %s (class %s)", where, e.Describe(), e.Class))
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
	if where == "record" {
		delete(m.held, k) // the record's words, with the status, are told
	} else if e.Status == 0 && e.Retrying && d.logFound() && d.logsRetries() {
		m.noticed[k] = false
		if _, ok := m.held[k]; !ok {
			m.held[k] = heldError{e, d.now() + heldFor}
		}
		return
	}
	d.tellModelError(e)
}

// retryLogger is a session log that tells each retry of a failed model
// request with its status (a program's debug log read with its record).
type retryLogger interface{ LogsRetries() bool }

// logsRetries reports whether the session log tells retries.
func (d *driver) logsRetries() bool {
	l, ok := transcript.As[retryLogger](d.cfg.SessionLog)
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
func (d *driver) tellModelError(e *heuristics.ModelError) {
	m := d.errorsOf()
	name := d.cfg.Profile.Name
	msg := fmt.Sprintf("%s: the model's service answered with an error: %s", name, e.Describe())
	if e.Retrying && !m.final {
		msg = fmt.Sprintf("%s: the model's service failed a request; %s retries: %s", name, name, e.Describe())
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
	return heuristics.ErrorBound()
}

// errorBusy is work in progress as the AI TUIs word it: a hint to stop it.
var errorBusy = lazyre.New(`(?i)esc to (?:interrupt|cancel)`)

// busyNow reports whether the screen shows work in progress.
func (d *driver) busyNow(screen string) bool {
	p := d.cfg.Profile
	return p.Busy != nil && p.Busy.MatchString(screen) || errorBusy.MatchString(screen)
}

// checkModelError looks for a model error on a settled screen (the rows
// after this turn's prompt, not the turn's own answer) and ends the turn
// when the program gave up on one.
func (d *driver) checkModelError() {
	m := d.errorsOf()
	if d.st != stateIdle || !d.t.begun {
		return
	}
	d.progressed(m)
	d.lookForModelError()
	if m.err == nil || d.st != stateIdle {
		return
	}
	screen := d.screen.String()
	busy := d.busyNow(screen)
	atRest := d.cfg.Profile.Ready != nil && d.cfg.Profile.Ready.MatchString(screen) && !busy
	switch {
	case m.final && !busy:
		d.endOnModelError("the program recorded the error and stopped", "")
	case atRest && m.shownAt == d.screen.Generation():
		d.endOnModelError("the program is back at its input box with the error shown", "")
	}
}

// errorPoll is how often the running turn's screen is read for a model
// error whatever its state: a CLI that retries draws a spinner, so its
// screen may not settle until it gives up.
const errorPoll = time.Second

// modelErrorTimer polls the running turn: a model error on screen (told
// the GUI), and the ends: the program gave up (it recorded the error, or
// its screen stood still with the error on it for the idle timeout), the
// bound passed, or the turn stayed silent too long (silentTimer).
func (d *driver) modelErrorTimer() {
	m := d.errorsOf()
	d.progressed(m)
	if !d.inTurn() {
		return // the next turn's part arms the poll again
	}
	d.at[timerError] = d.now() + errorPoll
	if d.st != stateIdle || !d.t.begun {
		return
	}
	d.lookForModelError()
	if m.err == nil {
		d.silentTimer(m)
		return
	}
	screen := d.screen.String()
	busy := d.busyNow(screen)
	if gen := d.screen.Generation(); gen != m.stillGen {
		m.stillGen, m.stillAt = gen, d.now()
	}
	switch {
	case m.final && !busy:
		d.endOnModelError("the program recorded the error and stopped", "")
	case m.sure && d.now() >= m.since+d.errorBound():
		said := fmt.Sprintf("%s still retried %v after the first error, without an answer; yume-cli stopped it", d.cfg.Profile.Name, d.errorBound())
		d.endOnModelError("retried past the bound", said)
	case !busy && m.shownAt == m.stillGen && d.now()-m.stillAt >= d.cfg.IdleTimeout:
		d.endOnModelError(fmt.Sprintf("the program shows the error and nothing changed for %v", d.cfg.IdleTimeout), "")
	}
}

// modelErrorMessage is the turn's error in the program's words and what
// to do; "" when no error stands (none, or the model answered after it).
func (d *driver) modelErrorMessage() string {
	m := d.errorsOf()
	d.progressed(m)
	if m.err == nil {
		return ""
	}
	return fmt.Sprintf("%s: the model's service failed the request: %q. %s",
		d.cfg.Profile.Name, m.err.Describe(), upperFirst(m.err.Advice()))
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// endOnModelError ends the turn with the model error (failTurn), said in
// a system error Yume shows (its error result shows only "error during
// execution"): what happened — said, when yume-cli stopped the program,
// then the program's words — and what to do.
func (d *driver) endOnModelError(why, said string) {
	msg := d.modelErrorMessage()
	if msg == "" {
		return
	}
	if said != "" {
		msg = said + ". " + msg
	}
	d.tr.state("the turn ends on the model error: " + why)
	d.emitErr(d.out.SystemError(msg))
	d.failTurn(msg, why)
}

// failTurn ends the turn with an error result saying msg: a one-turn
// session stops the program (exit status 1); a persistent one keeps it
// open for the next prompt.
func (d *driver) failTurn(msg, why string) {
	if !d.cfg.Persistent {
		d.abort(msg, false)
		return
	}
	d.outcome.Failed = true
	if !d.cfg.Profile.Interrupt.IsZero() && d.busyNow(d.screen.String()) {
		d.send(interruptRule, "interrupt", d.cfg.Profile.Interrupt) // it still retries: stop that
	}
	d.endCapture(nil)
	d.dropQuestion("the turn ended on a model error")
	d.lastTokens()
	d.emitErr(d.out.Result(d.withUsage(emit.Result{IsError: true, Text: msg, Errors: []string{msg}})))
	d.to(stateBetween, why)
	d.nextTurn()
	if !d.policy.Channel() {
		d.quit()
	}
}

// modelErrorEndsTurn is turnDone's question: does a model error with no
// answer after it end this turn (reported so; true) rather than a done?
func (d *driver) modelErrorEndsTurn(why string) bool {
	if d.st == stateEnded || d.st == stateBetween || d.modelErrorMessage() == "" {
		return false
	}
	d.endOnModelError(why+", after a model error and no answer", "")
	return true
}

// modelErrorAtExit turns the result of a program that exited after a
// model error with no answer into that error, whatever its exit status.
func (d *driver) modelErrorAtExit(r *emit.Result) {
	msg := d.modelErrorMessage()
	if msg == "" {
		return
	}
	d.outcome.Failed = true
	d.emitErr(d.out.SystemError(msg))
	r.IsError, r.Text, r.Errors = true, msg, []string{msg}
}

// logModelError takes an error from the program's record.
func (d *driver) logModelError(e transcript.Event) {
	d.sawModelError(errorOf(e.Text), "record")
}

// screenModelError is the model error the screen shows from this turn's
// prompt down (all of it when the prompt is not shown), not counting the
// rows of answers already emitted: in the words of a profile error rule
// (rule: true), else as the generic recogniser reads it; nil when none.
// The prompt is looked for from the bottom up: a TUI may echo it in its
// footer too (Codex: "GPT-5.5 default · DIR · make the file"), below the
// error.
func (d *driver) screenModelError() (e *heuristics.ModelError, rule bool) {
	all := d.screen.Lines()
	head := promptHead(d.t.prompt)
	found := false
	for i := len(all) - 1; i >= 0 && head != ""; i-- {
		if strings.Contains(normalText(all[i]), cutRunes(head, 16)) {
			found = true
			if e, rule := d.modelErrorIn(all[i+1:]); e != nil {
				return e, rule
			}
		}
	}
	if found {
		return nil, false
	}
	return d.modelErrorIn(all)
}

// modelErrorIn is screenModelError's reading of rows.
func (d *driver) modelErrorIn(rows []string) (e *heuristics.ModelError, rule bool) {
	text := strings.Join(rows, "\n")
	if e := d.ruleError(text); e != nil {
		return e, true
	}
	if heuristics.FindModelError(text) == nil {
		return nil, false // the common case: no need to look at the answers
	}
	out := rows[:0:0]
	for _, r := range rows {
		if t := strings.TrimSpace(r); len(t) > 8 && d.emitted(t) {
			continue
		}
		out = append(out, r)
	}
	return heuristics.FindModelError(strings.Join(out, "\n")), false
}

// lookForModelError takes the model error the screen shows, if any.
func (d *driver) lookForModelError() {
	e, rule := d.screenModelError()
	switch {
	case e != nil && rule:
		d.sawModelError(e, "rule")
	case e != nil:
		d.sawModelError(e, "screen")
	}
}

// ruleError is the first profile error rule's reading of text (its group
// text, else its match, each row trimmed), classified where the generic
// recogniser can; nil when none matches. The engine fires rules on
// settled screens only; a retrying program's spinner keeps its screen
// from settling, so the poll asks the error rules itself.
func (d *driver) ruleError(text string) *heuristics.ModelError {
	for _, r := range d.cfg.Profile.Rules {
		if r.Kind != heuristics.KindError || r.Match == nil {
			continue
		}
		m := r.Match.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		words := m[0]
		if i := r.Match.SubexpIndex("text"); i >= 0 && m[i] != "" {
			words = m[i]
		}
		return errorOf(words)
	}
	return nil
}

// errorOf is a program's words of an error, classified where the generic
// recogniser can, else an error of its own kind.
func errorOf(words string) *heuristics.ModelError {
	lines := strings.Split(words, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	words = strings.TrimSpace(strings.Join(lines, "\n"))
	if e := heuristics.ClassifyError(words); e != nil {
		return e
	}
	return &heuristics.ModelError{Class: heuristics.ErrorOther, Text: words, Retrying: heuristics.SaysRetry(words)}
}

// emitted reports whether a row is part of an answer already emitted.
func (d *driver) emitted(row string) bool {
	row = normalText(row)
	for t := range d.texts {
		if strings.Contains(normalText(t), row) {
			return true
		}
	}
	return d.t.lastText != "" && strings.Contains(normalText(d.t.lastText), row)
}

// ruleModelError takes a profile error rule's detection: the program's
// own wording of a model error (group text, else the match).
func (d *driver) ruleModelError(det *heuristics.Detection) {
	text := det.Text
	if text == "" {
		text = det.Prompt
	}
	if d.st == stateIdle && d.t.begun {
		d.sawModelError(errorOf(text), "rule")
	}
}

// silentTimer stops a turn that has shown only work in progress for
// silentFactor times the bound, with nothing produced since it began.
func (d *driver) silentTimer(m *modelErrors) {
	if d.progressNow() != m.start || !d.t.begun {
		return // the turn produced something: no silent retries
	}
	if d.now() < m.begun+silentFactor*d.errorBound() {
		return
	}
	if !d.busyNow(d.screen.String()) {
		return // not working: the idle and stall rules judge this screen
	}
	why := fmt.Sprintf("%s worked for %v with no answer, no tool call and no word of progress on screen or in its record; "+
		"yume-cli stopped it. A CLI that retries a failing model service silently looks like this (Gemini CLI does so on "+
		"HTTP 429 and 500): check the service's status and the key's quota, then try again", d.cfg.Profile.Name, silentFactor*d.errorBound())
	d.emitErr(d.out.SystemError("yume-cli: " + why))
	d.failTurn(why, "no progress for "+(silentFactor*d.errorBound()).String())
}
