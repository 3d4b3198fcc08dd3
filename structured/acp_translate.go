package structured

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
)

// acpTranslator maps ACP session/update notifications, permission requests
// and the prompt's stop reason to emit events.
type acpTranslator struct {
	*turn
	plans int // TodoWrite revisions written, for unique ids
	// recorded finds a call's output in the agent's own record of the
	// session, for an agent that sends none over ACP (Gemini's shell
	// calls); nil when there is no record.
	recorded func(id string) (string, bool)
}

type acpUpdate struct {
	SessionUpdate string          `json:"sessionUpdate"`
	Content       json.RawMessage `json:"content"`
	ToolCallID    string          `json:"toolCallId"`
	Title         string          `json:"title"`
	Kind          string          `json:"kind"`
	Status        string          `json:"status"`
	RawInput      map[string]any  `json:"rawInput"`
	RawOutput     json.RawMessage `json:"rawOutput"`
	Locations     []struct {
		Path string `json:"path"`
	} `json:"locations"`
	Entries []struct {
		Content string `json:"content"`
		Status  string `json:"status"`
	} `json:"entries"`
}

// update handles the params of one session/update notification.
func (a *acpTranslator) update(params json.RawMessage) error {
	var n struct {
		Update acpUpdate `json:"update"`
	}
	if err := decode(params, &n); err != nil {
		return err
	}
	u := n.Update
	switch u.SessionUpdate {
	case "agent_message_chunk":
		var c struct{ Type, Text string }
		if json.Unmarshal(u.Content, &c) == nil && c.Type == "text" {
			if err := a.ensureInit(); err != nil {
				return err
			}
			return a.buffer(c.Text)
		}
	case "tool_call":
		if err := a.use(u); err != nil {
			return err
		}
		return a.maybeResult(u)
	case "tool_call_update":
		if !a.tools.seen(u.ToolCallID) && (u.RawInput != nil || u.Kind != "") {
			if err := a.use(u); err != nil {
				return err
			}
		}
		return a.maybeResult(u)
	case "plan":
		a.plans++
		id := fmt.Sprintf("plan_%s_%d", a.w.SessionID(), a.plans)
		list := make([]any, 0, len(u.Entries))
		for _, e := range u.Entries {
			list = append(list, map[string]any{"content": e.Content, "status": e.Status, "activeForm": e.Content})
		}
		input := map[string]any{"todos": providers.Todos(list, "content")}
		if err := a.toolUse(id, "TodoWrite", input); err != nil {
			return err
		}
		return a.toolResult(id, "plan updated", false)
	}
	return nil // thoughts, commands, modes, usage: not shown.
}

// use writes the tool_use of an ACP tool call.
func (a *acpTranslator) use(u acpUpdate) error {
	if err := a.ensureInit(); err != nil {
		return err
	}
	var paths []string
	for _, l := range u.Locations {
		paths = append(paths, l.Path)
	}
	name, input := acpTool(u.Kind, u.Title, u.RawInput, paths)
	return a.toolUse(u.ToolCallID, name, input)
}

// maybeResult writes the tool_result once the call completed or failed.
func (a *acpTranslator) maybeResult(u acpUpdate) error {
	if u.Status != "completed" && u.Status != "failed" {
		return nil
	}
	out := acpContentText(u.Content)
	if out == "" && len(u.RawOutput) > 0 && string(u.RawOutput) != "null" {
		var m struct {
			Message string `json:"message"`
			Output  string `json:"output"`
		}
		if json.Unmarshal(u.RawOutput, &m) == nil && m.Message+m.Output != "" {
			out = strings.TrimSpace(m.Output + "\n" + m.Message)
		} else {
			out = blocksText(u.RawOutput)
		}
	}
	if out == "" && a.recorded != nil {
		out, _ = a.recorded(u.ToolCallID)
	}
	if out == "" {
		out = u.Status
	}
	return a.toolResult(u.ToolCallID, out, u.Status == "failed")
}

// acpContentText flattens ToolCallContent items to text.
func acpContentText(raw json.RawMessage) string {
	var items []struct {
		Type    string          `json:"type"`
		Content json.RawMessage `json:"content"`
		Path    string          `json:"path"`
		NewText string          `json:"newText"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return ""
	}
	var parts []string
	for _, it := range items {
		switch it.Type {
		case "content":
			var c struct{ Type, Text string }
			if json.Unmarshal(it.Content, &c) == nil && c.Text != "" {
				parts = append(parts, c.Text)
			}
		case "diff":
			parts = append(parts, "edited "+it.Path)
		case "terminal":
			parts = append(parts, "(output in a terminal)")
		}
	}
	return strings.Join(parts, "\n")
}

// permissionCall reads a session/request_permission request.
type permissionCall struct {
	ToolCall acpUpdate `json:"toolCall"`
	Options  []struct {
		OptionID string `json:"optionId"`
		Kind     string `json:"kind"`
	} `json:"options"`
}

// pickOption returns the option id of the first of kinds offered.
func (p permissionCall) pickOption(kinds ...string) string {
	for _, k := range kinds {
		for _, o := range p.Options {
			if o.Kind == k {
				return o.OptionID
			}
		}
	}
	return ""
}

// outcome builds the RequestPermissionResponse for a decision.
func (p permissionCall) outcome(d permission.Answer) map[string]any {
	id := p.pickOption("reject_once", "reject_always")
	if d.Allow {
		id = p.pickOption("allow_once", "allow_always")
	}
	if id == "" {
		return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}
	}
	return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": id}}
}

// stop ends the turn from the prompt's stop reason.
func (a *acpTranslator) stop(reason string) error {
	switch reason {
	case "end_turn", "":
		return a.end(emit.Result{Usage: a.usage})
	case "cancelled":
		return a.abort()
	case "max_turn_requests":
		return a.end(emit.Result{IsError: true, Subtype: "error_max_turns", Errors: []string{"the agent reached its limit of model requests for one turn"}})
	}
	return a.end(emit.Result{IsError: true, Errors: []string{"the agent stopped: " + reason}})
}
