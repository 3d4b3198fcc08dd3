package structured

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/modelerror"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/transcript"
)

// Model errors in the JSON and ACP modes: a provider that retries a
// failing model service says so in its stream (Claude's api_retry,
// Codex's "Reconnecting…") or only on its stderr (Gemini CLI's "Attempt 1
// failed with status 429. Retrying with backoff…"). errorWatch tells the
// GUI each distinct message once, at once, as a system message Yume shows
// (rate_limit for a rate limit or quota, error for the rest), and stops
// the provider when no retry can fix the error (credentials refused, no
// such model: modelerror.Error.Final) or when it retried for
// modelerror.Bound after the first error with no progress (no text,
// no tool call); the turn then ends with a system error and an error
// result in the provider's words and what to do. The error results
// providers write themselves get the same advice (adviseResult).

// errorWatch follows one turn's model errors. Its methods are safe for
// the stderr copier, the translator and the watchdog at once.
type errorWatch struct {
	mu       sync.Mutex
	w        *emit.Writer
	name     string
	bound    time.Duration
	err      *modelerror.Error // the newest error with no progress after it
	since    time.Time         // when that run of errors began
	noticed  map[string]bool
	stopped  string        // why yume-cli stopped the provider; "" if it did not
	done     chan struct{} // closed by close: the turn is over
	closeOne sync.Once
	partial  []byte // stderr text after the last line break
	// ready: the turn's init is written, so messages may follow; until
	// then they wait in pending.
	ready   bool
	pending []shown
	stop    func() // stops the provider (start)
	// begin writes the turn's init, for a message that cannot wait for
	// the provider's first word (nil: it waits).
	begin func() error
	// silent, where set (ACP), also stops a turn that produced nothing at
	// all for twice the bound: an agent retrying its model service
	// without a word (Gemini CLI on 429 and 500). began is the turn's
	// start, produced says it answered or called a tool since.
	silent   bool
	began    time.Time
	produced bool
}

// shown is a system message for the GUI: its subtype (error or
// rate_limit) and text.
type shown struct{ subtype, msg string }

// write writes s; errors surface on the next event.
func (e *errorWatch) write(s shown) {
	if s.subtype == "rate_limit" {
		_ = e.w.RateLimit(s.msg) // Best effort, as the others.
		return
	}
	_ = e.w.SystemError(s.msg) // Best effort: stdout errors surface on the next event.
}

// notify writes a message Yume shows now, or once the turn's init is out.
func (e *errorWatch) notify(subtype, msg string) {
	e.mu.Lock()
	if !e.ready {
		e.pending = append(e.pending, shown{subtype, msg})
		begin := e.begin
		e.mu.Unlock()
		if begin != nil {
			// opencode's `run` says nothing on stdout until it gives up:
			// the init goes out now, then what waited (markReady).
			_ = begin() // Best effort: stdout errors surface on the next event.
		}
		return
	}
	e.mu.Unlock()
	e.write(shown{subtype, msg})
}

// beginWith sets how a message that cannot wait writes the turn's init.
func (e *errorWatch) beginWith(begin func() error) {
	e.mu.Lock()
	e.begin = begin
	e.mu.Unlock()
}

// markReady says the turn's init is written and writes what waited.
func (e *errorWatch) markReady() {
	if e == nil {
		return
	}
	e.mu.Lock()
	e.ready = true
	waiting := e.pending
	e.pending = nil
	e.mu.Unlock()
	for _, m := range waiting {
		e.write(m)
	}
}

func newErrorWatch(w *emit.Writer, name string) *errorWatch {
	return &errorWatch{w: w, name: name, bound: modelerror.Bound(), noticed: map[string]bool{}, done: make(chan struct{})}
}

// saw takes a model error: the GUI hears each distinct message once, in
// the provider's words; one no retry can fix stops the provider now.
func (e *errorWatch) saw(me *modelerror.Error) {
	if e == nil || me == nil {
		return
	}
	e.mu.Lock()
	if e.err == nil {
		e.since = time.Now()
	}
	if e.err == nil || me.Status != 0 || e.err.Status == 0 {
		e.err = me
	}
	k := me.Key()
	fresh := !e.noticed[k]
	e.noticed[k] = true
	final := me.Final() && e.stopped == "" && e.stop != nil
	if final {
		e.stopped = fmt.Sprintf("%s: no retry can fix this model error; yume-cli stopped %s", e.name, e.name)
	}
	stop := e.stop
	e.mu.Unlock()
	switch {
	case final:
		stop() // the turn ends with the error (stopResult), said once there
	case fresh:
		e.notify(me.Subtype(), me.Retries(e.name))
	}
}

// sawText takes a provider's own words of an error, if they are one.
func (e *errorWatch) sawText(text string) {
	if e != nil {
		e.saw(modelerror.Classify(text))
	}
}

// alive says the agent sent word of its turn (a thought, a plan), so its
// silence is not a silent retry.
func (e *errorWatch) alive() {
	if e == nil {
		return
	}
	e.mu.Lock()
	e.produced = true
	e.mu.Unlock()
}

// progress forgets the errors: the model answered after them.
func (e *errorWatch) progress() {
	if e == nil {
		return
	}
	e.mu.Lock()
	e.err, e.produced = nil, true
	e.mu.Unlock()
}

// Write is the provider's stderr: copied to out by tee, each complete
// line read for a model error ("Attempt 2 failed with status 429…").
func (e *errorWatch) Write(p []byte) (int, error) {
	e.mu.Lock()
	e.partial = append(e.partial, p...)
	var lines []string
	for {
		i := bytes.IndexByte(e.partial, '\n')
		if i < 0 {
			break
		}
		lines = append(lines, string(e.partial[:i]))
		e.partial = e.partial[i+1:]
	}
	if len(e.partial) > 64<<10 {
		e.partial = e.partial[:0] // no line break in sight: not a message
	}
	e.mu.Unlock()
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if words, ok := logfmtError(t); ok {
			t = words // a log line's error, without its fields
		}
		if strings.HasPrefix(t, "at ") || len(strings.Fields(t)) < 3 || dumpField.MatchString(t) {
			continue // a stack trace's frames, a dump's fields
		}
		e.sawText(t)
	}
	return len(p), nil
}

// logfmtLine is a program's log line of an error in logfmt (opencode's
// and Kilo's --print-logs: `… level=ERROR … message="stream error" …
// error.error="AI_APICallError: fake error 429"`).
var (
	logfmtLine  = lazyre.New(`\blevel=(?:ERROR|WARN)\b`)
	logfmtError = func(line string) (string, bool) {
		if !logfmtLine.MatchString(line) {
			return "", false
		}
		m := logfmtValue.FindStringSubmatch(line)
		if m == nil {
			return "", false
		}
		msg := ""
		if mm := logfmtMessage.FindStringSubmatch(line); mm != nil {
			msg = strings.Trim(mm[1], `"`) + ": "
		}
		return msg + strings.Trim(m[1], `"`), true
	}
	logfmtValue   = lazyre.New(`\berror(?:\.error|\.message)?=("[^"]*"|\S+)`)
	logfmtMessage = lazyre.New(`\bmessage=("[^"]*"|\S+)`)
)

// dumpField is a field of an object a program dumped on stderr
// ("message: 'Internal error',"), not a message of its own.
var dumpField = lazyre.New(`^['"]?[\w$]+['"]?:\s*['"{\[]`)

// tee is out with the provider's stderr read on the way.
func (e *errorWatch) tee(out io.Writer) io.Writer {
	if out == nil {
		out = io.Discard
	}
	return io.MultiWriter(out, e)
}

// watchdogEvery is how often the watchdog looks at the bound.
const watchdogEvery = 250 * time.Millisecond

// start stops the provider (with stop) once an error stood for the bound
// with no progress, or at once for an error no retry can fix, until
// close.
func (e *errorWatch) start(stop func()) {
	e.mu.Lock()
	e.began = time.Now()
	e.stop = stop
	e.mu.Unlock()
	go func() {
		tick := time.NewTicker(watchdogEvery)
		defer tick.Stop()
		for {
			select {
			case <-e.done:
				return
			case <-tick.C:
			}
			e.mu.Lock()
			over := e.err != nil && time.Since(e.since) >= e.bound && e.stopped == ""
			if over {
				e.stopped = fmt.Sprintf("%s retried a model error for %v without an answer; yume-cli stopped it", e.name, e.bound)
			} else if e.silent && !e.produced && e.err == nil && e.stopped == "" && time.Since(e.began) >= 2*e.bound {
				over = true
				e.stopped = fmt.Sprintf("%s worked for %v with no answer, no tool call and no word of an error; yume-cli stopped it. "+
					"An agent that retries a failing model service silently looks like this (Gemini CLI on HTTP 429 and 500): "+
					"check the service's status and the key's quota", e.name, 2*e.bound)
			}
			e.mu.Unlock()
			if over {
				stop() // the turn ends with the error (stopResult), said once there
				return
			}
		}
	}()
}

// close ends the watchdog.
func (e *errorWatch) close() { e.closeOne.Do(func() { close(e.done) }) }

func (e *errorWatch) stoppedWhy() string {
	if e == nil {
		return ""
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stopped
}

// stopResult is the error result of a turn the watchdog stopped.
func (e *errorWatch) stopResult() emit.Result {
	e.mu.Lock()
	defer e.mu.Unlock()
	msg := e.stopped
	if e.err != nil {
		msg = fmt.Sprintf("%s. The last error: %q. %s", e.stopped, e.err.Describe(), e.err.Todo())
	}
	return emit.Result{IsError: true, Text: msg, Errors: []string{msg}}
}

// adviseResult adds what to do to an error result whose words are a
// model error the provider gave up on, and returns that advice ("" when
// the words are no model error).
func adviseResult(r *emit.Result) string {
	if !r.IsError {
		return ""
	}
	text := r.Text
	if text == "" && len(r.Errors) > 0 {
		text = r.Errors[len(r.Errors)-1]
	}
	me := modelerror.Find(text)
	if me == nil {
		return ""
	}
	adv := me.Todo() + "."
	if !strings.Contains(text, adv) {
		r.Text = strings.TrimRight(text, " \n") + "\n" + adv
	}
	return adv
}

// debugEvery is how often a provider's debug log is read for its retries.
const debugEvery = 100 * time.Millisecond

// followDebugLog reads the provider's debug log of the run (l: its start
// and environment; session: its session id once known) for the retries
// its stream leaves out (providers.DebugLog), each told the GUI as it
// comes, until the watch closes.
func (e *errorWatch) followDebugLog(d *providers.DebugLog, l providers.Launch, session func() string) {
	if e == nil || d == nil {
		return
	}
	go func() {
		var src transcript.Source
		defer func() {
			if c, ok := src.(io.Closer); ok {
				_ = c.Close() // Best effort: an owned file is removed.
			}
		}()
		tick := time.NewTicker(debugEvery)
		defer tick.Stop()
		for {
			if src == nil {
				l.Session = session()
				src = d.Open(l)
			}
			if src != nil {
				evs, _ := src.Poll() // Best effort: the log only adds words.
				for _, ev := range evs {
					if ev.Kind == transcript.ModelError {
						e.sawText(ev.Text)
					}
				}
			}
			select {
			case <-e.done:
				return
			case <-tick.C:
			}
		}
	}()
}
