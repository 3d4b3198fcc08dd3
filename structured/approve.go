package structured

import (
	"context"
	"fmt"
	"sync"

	"github.com/yume-cli/yume-cli/emit"
)

// decision is the answer to one permission request.
type decision struct {
	allow   bool
	message string // why it was denied
}

// approver decides permission requests: by the permission mode, or by
// asking the GUI (a can_use_tool control_request) and waiting for its
// control frame.
type approver struct {
	w         *emit.Writer
	interrupt func()

	mu      sync.Mutex
	mode    string
	open    bool                     // the control channel is still open
	pending map[string]chan decision // request id -> waiter
}

// noChannel explains a denial when nobody can be asked.
const noChannel = "denied: no approval channel (yume-cli has no control frames on stdin); use --permission-mode auto to allow tools"

// newApprover starts reading controls (nil = none) until done is closed.
func newApprover(w *emit.Writer, mode string, controls <-chan emit.Control, interrupt func(), done <-chan struct{}) *approver {
	a := &approver{w: w, mode: mode, interrupt: interrupt, open: controls != nil, pending: map[string]chan decision{}}
	if controls != nil {
		go a.dispatch(controls, done)
	}
	return a
}

// ask decides whether tool toolUseID may run. The tool_use must already be
// written. It returns ctx's error if the run is interrupted while waiting.
func (a *approver) ask(ctx context.Context, toolUseID, name string, input any) (decision, error) {
	a.mu.Lock()
	mode, open := a.mode, a.open
	a.mu.Unlock()
	switch mode {
	case "auto":
		return decision{allow: true}, a.w.Notice("auto-approved: " + describe(name, input))
	case "deny":
		return decision{message: "denied: permission mode is deny"}, nil
	}
	if !open {
		return decision{message: noChannel}, nil
	}
	ch := make(chan decision, 1)
	a.mu.Lock()
	reqID, err := a.w.PermissionRequest(toolUseID, name, input)
	if err == nil {
		a.pending[reqID] = ch
	}
	a.mu.Unlock()
	if err != nil {
		return decision{}, err
	}
	select {
	case d := <-ch:
		return d, nil
	case <-ctx.Done():
		a.mu.Lock()
		delete(a.pending, reqID)
		a.mu.Unlock()
		return decision{message: "interrupted"}, ctx.Err()
	}
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
	case emit.ControlSetMode:
		a.mu.Lock()
		a.mode = c.Mode
		a.mu.Unlock()
	case emit.ControlUser:
		_ = a.w.SystemError("a new prompt arrived while a turn is running; send it after the result") // Best effort: stdout errors surface in the main loop.
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
	ch, ok := a.pending[reqID]
	delete(a.pending, reqID)
	a.mu.Unlock()
	if !ok {
		id := c.RequestID
		if id == "" {
			id = c.ToolUseID
		}
		_ = a.w.SystemError(fmt.Sprintf("approval for %q, which is not pending", id)) // Best effort, as above.
		return
	}
	d := decision{allow: c.Approved, message: c.Message}
	if !d.allow && d.message == "" {
		d.message = "denied by the user"
	}
	ch <- d
}

// closeChannel denies everything pending: stdin EOF while an approval is
// pending counts as a denial.
func (a *approver) closeChannel() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.open = false
	for id, ch := range a.pending {
		ch <- decision{message: noChannel}
		delete(a.pending, id)
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
