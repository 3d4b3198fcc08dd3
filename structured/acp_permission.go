package structured

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/yume-cli/yume-cli/permission"
)

// permissionCall reads a session/request_permission request.
type permissionCall struct {
	ToolCall acpUpdate `json:"toolCall"`
	Options  []struct {
		OptionID string `json:"optionId"`
		Kind     string `json:"kind"`
	} `json:"options"`
}

// pickOption returns the id of the first option of kind offered.
func (p permissionCall) pickOption(kind string) string {
	for _, o := range p.Options {
		if o.Kind == kind {
			return o.OptionID
		}
	}
	return ""
}

// outcome builds the RequestPermissionResponse for a decision: the
// agent's allow-once or reject-once option, never an "always" one (the
// next call must be asked about too). Without such an option the request
// is answered cancelled, and the call does not run.
func (p permissionCall) outcome(d permission.Answer) map[string]any {
	id := p.pickOption("reject_once")
	if d.Allow {
		id = p.pickOption("allow_once")
	}
	if id == "" {
		return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}
	}
	return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": id}}
}

// permission routes a session/request_permission to the approver.
func (s *acpSession) permission(turnCtx context.Context, params json.RawMessage) (any, error) {
	var p permissionCall
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &acpError{Code: -32602, Message: "bad request_permission params: " + err.Error()}
	}
	id := p.ToolCall.ToolCallID
	s.mu.Lock()
	if !s.tr.tools.seen(id) {
		s.tr.askedBy = s.ap.answeredBy // written as it is asked: it says who answers
		err := s.tr.use(p.ToolCall)
		s.tr.askedBy = nil
		if err != nil {
			s.mu.Unlock()
			return nil, err
		}
	}
	tc, _ := s.tr.tools.get(id)
	s.mu.Unlock()
	d, err := s.ap.ask(turnCtx, id, tc.name, tc.input)
	if err != nil {
		if turnCtx.Err() != nil {
			// session/cancel: every pending permission is answered cancelled.
			return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}, nil
		}
		return nil, err
	}
	if d.Allow && p.pickOption("allow_once") == "" {
		d = permission.Answer{Message: fmt.Sprintf("%s offered no allow-once option for this call; yume-cli never picks an \"always\" one, so it did not run: allow it in %s's own settings, or run it yourself", s.agent, s.agent)}
	}
	if d.Allow {
		s.mu.Lock()
		s.allowed[id] = true
		s.mu.Unlock()
	}
	if !d.Allow {
		// Report the denial now: not every agent sends a result for a
		// rejected call (Gemini does not).
		s.mu.Lock()
		err = s.tr.deny(id, d.Denial())
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
	}
	return p.outcome(d), nil
}
