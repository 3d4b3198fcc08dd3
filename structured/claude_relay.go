package structured

import (
	"context"
)

// claudeRelay answers Claude's can_use_tool control requests (Claude runs
// with --permission-prompt-tool stdio): by the permission mode or by asking
// the GUI, then writes the control_response back on Claude's stdin.
type claudeRelay struct {
	ctx   context.Context
	t     *claudeTranslator
	ap    *approver
	write func(v any) error
}

func (r *claudeRelay) handle(req claudeControl) error {
	if req.Subtype != "can_use_tool" {
		return r.write(map[string]any{"type": "control_response", "response": map[string]any{
			"subtype": "error", "request_id": req.RequestID, "error": "yume-cli does not handle " + req.Subtype}})
	}
	id := req.ToolUseID
	if id == "" {
		id = "toolu_" + req.RequestID
	}
	// Claude writes the tool_use before asking; if it did not, the GUI still
	// needs to see the tool before the question.
	var input any = req.Input
	if req.Input == nil {
		input = map[string]any{}
	}
	r.t.askedBy = r.ap.answeredBy // written as it is asked: it says who answers
	err := r.t.toolUse(id, req.ToolName, input)
	r.t.askedBy = nil
	if err != nil {
		return err
	}
	d, err := r.ap.ask(r.ctx, id, req.ToolName, input)
	if err != nil && r.ctx.Err() == nil {
		return err // stdout failed
	}
	resp := map[string]any{"behavior": "allow", "updatedInput": input, "toolUseID": id}
	if !d.Allow {
		resp = map[string]any{"behavior": "deny", "message": d.Denial(), "toolUseID": id}
		// The denial is reported now; Claude's own error result for the
		// tool, which follows, is then dropped as a duplicate.
		if err := r.t.deny(id, d.Denial()); err != nil {
			return err
		}
	}
	// A write error means Claude is gone; its exit ends the turn.
	_ = r.write(map[string]any{"type": "control_response", "response": map[string]any{
		"subtype": "success", "request_id": req.RequestID, "response": resp}})
	return nil
}
