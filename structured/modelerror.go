package structured

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
)

// Model errors in the JSON modes: a provider that retries a failing model
// service says so in its stream (Claude's api_retry, Codex's
// "Reconnecting…") or only on its stderr (Gemini CLI's "Attempt 1 failed
// with status 429. Retrying with backoff…"). errorWatch tells the GUI
// each distinct message once, as a notice, and stops a provider that
// retried past heuristics.ErrorBound with no progress (no text, no tool
// call); the turn then ends with one error result in the provider's
// words and what to do. The error results providers write themselves get
// the same advice (adviseResult).

// errorWatch follows one turn's model errors. Its methods are safe for
// the stderr copier, the translator and the watchdog at once.
type errorWatch struct {
	mu       sync.Mutex
	w        *emit.Writer
	name     string
	bound    time.Duration
	err      *heuristics.ModelError // the newest error with no progress after it
	since    time.Time              // when that run of errors began
	noticed  map[string]bool
	stopped  string        // why yume-cli stopped the provider; "" if it did not
	done     chan struct{} // closed by close: the turn is over
	closeOne sync.Once
	partial  []byte // stderr text after the last line break
	// ready: the turn's init is written, so notices may follow; until
	// then they wait in pending.
	ready   bool
	pending []string
	// silent, where set (ACP), also stops a turn that produced nothing at
	// all for twice the bound: an agent retrying its model service
	// without a word (Gemini CLI on 429 and 500). began is the turn's
	// start, produced says it answered or called a tool since.
	silent   bool
	began    time.Time
	produced bool
}

// notify writes a notice now, or once the turn's init is out.
func (e *errorWatch) notify(msg string) {
	e.mu.Lock()
	if !e.ready {
		e.pending = append(e.pending, msg)
		e.mu.Unlock()
		return
	}
	e.mu.Unlock()
	_ = e.w.Notice(msg) // Best effort: stdout errors surface on the next event.
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
		_ = e.w.Notice(m) // Best effort, as in notify.
	}
}

func newErrorWatch(w *emit.Writer, name string) *errorWatch {
	return &errorWatch{w: w, name: name, bound: heuristics.ErrorBound(), noticed: map[string]bool{}, done: make(chan struct{})}
}

// saw takes a model error; notify says whether the GUI still needs to
// hear it (a translator that already wrote its notice says no).
func (e *errorWatch) saw(me *heuristics.ModelError, notify bool) {
	if e == nil || me == nil {
		return
	}
	e.mu.Lock()
	if e.err == nil {
		e.since = time.Now()
	}
	e.err = me
	k := me.Key()
	fresh := !e.noticed[k]
	e.noticed[k] = true
	e.mu.Unlock()
	if fresh && notify {
		e.notify(fmt.Sprintf("%s: the model's service answered with an error; it retries: %s", e.name, me.Describe()))
	}
}

// sawText takes a provider's own words of an error, if they are one.
func (e *errorWatch) sawText(text string, notify bool) {
	if e != nil {
		e.saw(heuristics.ClassifyError(text), notify)
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
		if strings.HasPrefix(t, "at ") || len(strings.Fields(t)) < 3 {
			continue // a stack trace's frames, a dump's fields
		}
		e.sawText(t, true)
	}
	return len(p), nil
}

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
// with no progress, until close.
func (e *errorWatch) start(stop func()) {
	e.mu.Lock()
	e.began = time.Now()
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
			over := e.err != nil && time.Since(e.since) >= e.bound
			if over {
				e.stopped = fmt.Sprintf("%s retried a model error for %v without an answer; yume-cli stopped it", e.name, e.bound)
			} else if e.silent && !e.produced && e.err == nil && time.Since(e.began) >= 2*e.bound {
				over = true
				e.stopped = fmt.Sprintf("%s worked for %v with no answer, no tool call and no word of an error; yume-cli stopped it. "+
					"An agent that retries a failing model service silently looks like this (Gemini CLI on HTTP 429 and 500): "+
					"check the service's status and the key's quota", e.name, 2*e.bound)
			}
			e.mu.Unlock()
			if over {
				e.notify("yume-cli: " + e.stoppedWhy())
				stop()
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
		msg = fmt.Sprintf("%s. The last error: %q. %s", e.stopped, e.err.Describe(), upperFirst(e.err.Advice()))
	}
	return emit.Result{IsError: true, Text: msg, Errors: []string{msg}}
}

// adviseResult adds what to do to an error result whose words are a
// model error the provider gave up on.
func adviseResult(r *emit.Result) {
	if !r.IsError {
		return
	}
	text := r.Text
	if text == "" && len(r.Errors) > 0 {
		text = r.Errors[len(r.Errors)-1]
	}
	me := heuristics.FindModelError(text)
	if me == nil {
		return
	}
	if adv := upperFirst(me.Advice()); !strings.Contains(text, adv) {
		r.Text = strings.TrimRight(text, " \n") + "\n" + adv + "."
	}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
