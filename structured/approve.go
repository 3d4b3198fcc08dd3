package structured

import (
	"context"
	"fmt"
	"sync"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/permission"
)

// approver decides permission requests with the permission policy: by the
// mode, or by asking the GUI (a can_use_tool control_request) and waiting
// for its control frame.
type approver struct {
	w         *emit.Writer
	interrupt func()

	mu      sync.Mutex
	policy  *permission.Policy
	pending map[string]*waiter // request id -> the question waiting
	decided map[string]string  // tool_use id -> how the mode decided it
	// known reports whether a tool_use was written and has no result yet:
	// an answer for it may come before its permission request (the GUI
	// saw the tool_use first), and is kept until then.
	known func(toolUseID string) bool
}

// waiter is a question put to the GUI, waiting for its answer.
type waiter struct {
	ch        chan permission.Answer
	toolUseID string
	name      string
	input     map[string]any
}

// newApprover starts reading controls (nil = none) until done is closed;
// with nobody to ask, fallback answers default mode's questions.
func newApprover(w *emit.Writer, mode permission.Mode, fallback permission.Fallback, dangers *permission.Dangers, controls <-chan emit.Control, interrupt func(), done <-chan struct{}) *approver {
	a := &approver{w: w, interrupt: interrupt, policy: permission.New(mode, controls != nil),
		pending: map[string]*waiter{}, decided: map[string]string{}, known: w.ToolUseOpen}
	if dangers != nil {
		a.policy.SetDangers(dangers)
	}
	a.policy.SetFallback(fallback)
	if controls != nil {
		go a.dispatch(controls, done)
	}
	return a
}

// ask decides whether tool toolUseID may run. The tool_use must already be
// written. It returns ctx's error if the run is interrupted while waiting.
func (a *approver) ask(ctx context.Context, toolUseID, name string, input any) (permission.Answer, error) {
	a.mu.Lock()
	m, _ := input.(map[string]any)
	d, early := a.policy.Decide(toolUseID, describe(name, input), a.policy.Assess(name, m))
	var ch chan permission.Answer
	var reqID string
	var err error
	if d.Verdict != permission.Ask && early == nil {
		a.decided[toolUseID] = d.Notice
	}
	if d.Verdict == permission.Ask {
		ch = make(chan permission.Answer, 1)
		if reqID, err = a.w.PermissionRequest(toolUseID, name, input); err == nil {
			a.pending[reqID] = &waiter{ch: ch, toolUseID: toolUseID, name: name, input: m}
		}
	}
	a.mu.Unlock()
	if err != nil {
		return permission.Answer{}, err
	}
	if err := a.say(d); err != nil {
		return permission.Answer{}, err
	}
	switch {
	case early != nil:
		return a.unlessGone(*early), nil
	case d.Verdict == permission.Allow:
		return a.unlessGone(permission.Answer{Allow: true}), nil
	case d.Verdict == permission.Refuse:
		return permission.Answer{Message: d.Message}, nil
	}
	select {
	case ans := <-ch:
		if ctx.Err() != nil {
			// An interrupt cancels the turn before it releases the
			// waiting questions: the turn's end, not a denial, answers.
			return permission.Answer{Message: "interrupted"}, ctx.Err()
		}
		return a.unlessGone(ans), nil
	case <-ctx.Done():
		a.mu.Lock()
		delete(a.pending, reqID)
		a.mu.Unlock()
		return permission.Answer{Message: "interrupted"}, ctx.Err()
	}
}

// unlessGone is ans, except that nothing is approved once the GUI went
// away: nobody would see the call run.
func (a *approver) unlessGone(ans permission.Answer) permission.Answer {
	if ans.Allow && a.w.GUIGone() {
		return permission.Answer{Message: permission.GUIGone}
	}
	return ans
}

// say writes what a decision says: its notice, and its alert (a call the
// guard stopped) as a system error, which Yume shows.
func (a *approver) say(d permission.Decision) error {
	if d.Notice != "" {
		if err := a.w.Notice(d.Notice); err != nil {
			return err
		}
	}
	if d.Alert != "" {
		return a.w.SystemError(d.Alert)
	}
	return nil
}

// answeredBy is the approved_by of a call asked about now, when
// yume-cli answers it for nobody (the guard), for its tool_use.
func (a *approver) answeredBy(name string, input map[string]any) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.policy.AnsweredBy(name, input)
}

// dispatch routes control frames until the channel closes or done.
func (a *approver) dispatch(controls <-chan emit.Control, done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		case c, ok := <-controls:
			if !ok {
				a.closeChannel()
				return
			}
			a.handle(c)
		}
	}
}

func (a *approver) handle(c emit.Control) {
	switch c.Kind {
	case emit.ControlApproval:
		a.answer(c)
	case emit.ControlInterrupt:
		a.interrupt()
		a.release("interrupted by the user")
	case emit.ControlSetMode:
		a.mu.Lock()
		notice := a.policy.SetMode(c.Mode)
		a.mu.Unlock()
		_ = a.w.Notice(notice) // Best effort: stdout errors surface in the main loop.
	case emit.ControlUser:
		_ = a.w.SystemError("a new prompt arrived while a turn is running; send it after the result") // Best effort, as above.
	}
}

// release answers every waiting request with a denial: the turn is being
// interrupted, and a relay blocked on its answer must let the turn end.
func (a *approver) release(why string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for id, q := range a.pending {
		q.ch <- permission.Answer{Message: why} // buffered: never blocks
		delete(a.pending, id)
	}
}

// answer delivers an approval frame to its waiting request.
func (a *approver) answer(c emit.Control) {
	a.mu.Lock()
	reqID := c.RequestID
	if reqID == "" {
		for id := range a.pending {
			if tu, ok := a.w.ToolUseForRequest(id); ok && tu == c.ToolUseID {
				reqID = id
				break
			}
		}
	}
	q, ok := a.pending[reqID]
	delete(a.pending, reqID)
	how, decided := a.decided[c.ToolUseID]
	early := !ok && c.RequestID == "" && !decided && a.known != nil && a.known(c.ToolUseID)
	if early {
		a.policy.Keep(c.ToolUseID, c.Answer())
	}
	a.mu.Unlock()
	switch {
	case ok:
		q.ch <- c.Answer()
	case early: // kept for the request that follows
	case decided:
		_ = a.w.Notice(fmt.Sprintf("tool_use %s was already decided: %s", c.ToolUseID, how)) // Best effort, as above.
	default:
		id := c.RequestID
		if id == "" {
			id = c.ToolUseID
		}
		waits := "none is waiting"
		if w, ok := a.w.Waiting(); ok {
			waits = fmt.Sprintf("the one waiting is %q", w.ToolUseID)
		}
		_ = a.w.SystemError(fmt.Sprintf("no tool_use is waiting for approval with id %q: %s", id, waits)) // Best effort, as above.
	}
}

// closeChannel records stdin's end: nobody can answer what is pending,
// so the policy does (the guard, in default mode), and says so.
func (a *approver) closeChannel() {
	type decided struct {
		q *waiter
		d permission.Decision
	}
	var all []decided
	a.mu.Lock()
	a.policy.CloseChannel()
	for id, q := range a.pending {
		d, _ := a.policy.Decide(q.toolUseID, describe(q.name, q.input), a.policy.Assess(q.name, q.input))
		a.decided[q.toolUseID] = d.Notice
		all = append(all, decided{q, d})
		delete(a.pending, id)
	}
	a.mu.Unlock()
	for _, x := range all {
		_ = a.say(x.d)                                                                            // Best effort: stdout errors surface in the main loop.
		x.q.ch <- permission.Answer{Allow: x.d.Verdict == permission.Allow, Message: x.d.Message} // buffered: never blocks
	}
}

// describe is a short human form of a tool call for notices.
func describe(name string, input any) string {
	if m, ok := input.(map[string]any); ok {
		for _, k := range []string{"command", "file_path", "url", "query", "pattern"} {
			if s, ok := m[k].(string); ok && s != "" {
				return s
			}
		}
	}
	return name
}
