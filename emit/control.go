package emit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/yume-cli/yume-cli/permission"
)

// ControlKind says what a control frame asks for.
type ControlKind int

const (
	// ControlUser is a new prompt: Control.Text.
	ControlUser ControlKind = iota + 1
	// ControlApproval answers a pending tool use: Control.Approved, with
	// Control.ToolUseID (tool_approval) or Control.RequestID
	// (control_response), and Control.Message on a denial.
	ControlApproval
	// ControlInterrupt stops the current turn; Control.RequestID is set
	// when it came as a control_request.
	ControlInterrupt
	// ControlSetMode changes the permission mode: Control.Mode.
	ControlSetMode
)

// String names the kind as the frame types do.
func (k ControlKind) String() string {
	switch k {
	case ControlUser:
		return "user"
	case ControlApproval:
		return "approval"
	case ControlInterrupt:
		return "interrupt"
	case ControlSetMode:
		return "set_permission_mode"
	}
	return fmt.Sprintf("ControlKind(%d)", int(k))
}

// Control is one parsed control frame from stdin.
type Control struct {
	Kind      ControlKind
	Text      string // user prompt
	ToolUseID string // tool_approval id (or toolUseID echoed in a control_response)
	RequestID string // control_response / control_request request_id
	Approved  bool
	Message   string // deny message
	// Revise is a denial's request to change the command instead ("use
	// ls -1"): programs with a revise action (gh copilot's "Revise
	// command") get it typed; elsewhere it is an ordinary denial.
	Revise string
	Mode   permission.Mode // set_permission_mode
}

// Answer is an approval frame's answer.
func (c Control) Answer() permission.Answer {
	return permission.Answer{Allow: c.Approved, Message: c.Message, Revise: c.Revise != "", Feedback: c.Revise}
}

// ErrEmptyControl is returned for a blank line; callers may skip it.
var ErrEmptyControl = errors.New("empty control frame")

// ParseControl parses one line from stdin. It accepts every frame in
// docs/protocol.md "Control frames":
//
//	{"type":"user","content":"…"}  (also content blocks, and Yume's
//	                                 {"type":"user","message":{"role":"user","content":…}})
//	{"type":"tool_approval","id":"toolu_…","approved":false,"message":"…","revise":"…"}
//	{"type":"interrupt"}
//	{"type":"set_permission_mode","mode":"default|interactive|auto|deny"}
//	{"type":"control_response","response":{"subtype":"success","request_id":"…","response":{"behavior":"allow"|"deny","message":"…"}}}
//	{"type":"control_request","request_id":"…","request":{"subtype":"interrupt"|"set_permission_mode",…}}
//
// A control_response with subtype "error" counts as a denial whose message
// is the host's error. Unknown or malformed input returns an error that
// names the frame and says what is wrong, for the caller to report as a
// system error; it never panics.
func ParseControl(line []byte) (Control, error) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return Control{}, ErrEmptyControl
	}
	var m fields
	if err := json.Unmarshal(line, &m); err != nil {
		return Control{}, fmt.Errorf("control frame is not a JSON object (%v): %s", err, quote(line))
	}
	typ, ok, err := m.Str("type")
	if err != nil || !ok {
		return Control{}, fmt.Errorf("control frame has no string \"type\": %s", quote(line))
	}
	var c Control
	switch typ {
	case "user":
		c, err = parseUser(m)
	case "tool_approval":
		c, err = parseApproval(m)
	case "interrupt":
		c = Control{Kind: ControlInterrupt}
	case "set_permission_mode":
		c, err = parseMode(m)
	case "control_response":
		c, err = parseResponse(m)
	case "control_request":
		c, err = parseRequest(m)
	default:
		return Control{}, fmt.Errorf("unknown control frame type %q: expected user, tool_approval, interrupt, set_permission_mode, control_response or control_request", typ)
	}
	if err != nil {
		return Control{}, fmt.Errorf("invalid %s frame: %w", typ, err)
	}
	return c, nil
}

func parseUser(m fields) (Control, error) {
	content, ok := m["content"]
	if !ok {
		msg, ok, err := m.Object("message")
		if err != nil {
			return Control{}, err
		}
		if !ok {
			return Control{}, errors.New(`needs "content" or "message":{"role":"user","content":…}`)
		}
		if role, _, err := msg.Str("role"); err != nil || (role != "" && role != "user") {
			return Control{}, fmt.Errorf(`message role must be "user", got %q`, role)
		}
		if content, ok = msg["content"]; !ok {
			return Control{}, errors.New(`message has no "content"`)
		}
	}
	text, err := contentText(content)
	if err != nil {
		return Control{}, err
	}
	if strings.TrimSpace(text) == "" {
		return Control{}, errors.New("the prompt is empty")
	}
	return Control{Kind: ControlUser, Text: text}, nil
}

// contentText reads message content: a string, or an array of text
// blocks joined by newlines.
func contentText(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var blocks []fields
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", errors.New(`"content" must be a string or an array of text blocks`)
	}
	texts := make([]string, 0, len(blocks))
	for i, b := range blocks {
		typ, _, err := b.Str("type")
		if err != nil || typ != "text" {
			return "", fmt.Errorf("content block %d has type %q; only text blocks are supported", i+1, typ)
		}
		text, ok, err := b.Str("text")
		if err != nil || !ok {
			return "", fmt.Errorf(`content block %d has no string "text"`, i+1)
		}
		texts = append(texts, text)
	}
	return strings.Join(texts, "\n"), nil
}

func parseApproval(m fields) (Control, error) {
	id, ok, err := m.Str("id")
	if err != nil {
		return Control{}, err
	}
	if !ok || id == "" {
		return Control{}, errors.New(`needs "id", the tool_use id being answered`)
	}
	approved, ok, err := m.Bool("approved")
	if err != nil {
		return Control{}, err
	}
	if !ok {
		return Control{}, errors.New(`needs "approved": true or false`)
	}
	msg, _, err := m.Str("message")
	if err != nil {
		return Control{}, err
	}
	revise, _, err := m.Str("revise")
	if err != nil {
		return Control{}, err
	}
	return Control{Kind: ControlApproval, ToolUseID: id, Approved: approved, Message: msg, Revise: revise}, nil
}

func parseMode(m fields) (Control, error) {
	mode, ok, err := m.Str("mode")
	if err != nil {
		return Control{}, err
	}
	if !ok {
		return Control{}, fmt.Errorf(`needs "mode": one of %s`, strings.Join(permission.Names(), ", "))
	}
	pm, err := permission.Parse(mode)
	if err != nil || mode == "" {
		return Control{}, fmt.Errorf("mode %q is not one of %s", mode, strings.Join(permission.Names(), ", "))
	}
	return Control{Kind: ControlSetMode, Mode: pm}, nil
}

func parseResponse(m fields) (Control, error) {
	resp, ok, err := m.Object("response")
	if err != nil {
		return Control{}, err
	}
	if !ok {
		return Control{}, errors.New(`needs a "response" object`)
	}
	reqID, ok, err := resp.Str("request_id")
	if err != nil {
		return Control{}, err
	}
	if !ok || reqID == "" {
		return Control{}, errors.New(`response needs "request_id", the id of the can_use_tool request`)
	}
	c := Control{Kind: ControlApproval, RequestID: reqID}
	switch sub, _, _ := resp.Str("subtype"); sub {
	case "error":
		msg, _, _ := resp.Str("error")
		c.Message = "the host could not answer the permission request: " + msg
		return c, nil
	case "success":
	default:
		return Control{}, fmt.Errorf(`response subtype must be "success" or "error", got %q`, sub)
	}
	result, ok, err := resp.Object("response")
	if err != nil {
		return Control{}, err
	}
	if !ok {
		return Control{}, errors.New(`success response needs "response":{"behavior":"allow"|"deny"}`)
	}
	behavior, _, _ := result.Str("behavior")
	switch behavior {
	case "allow":
		c.Approved = true
	case "deny":
	default:
		return Control{}, fmt.Errorf(`behavior must be "allow" or "deny", got %q`, behavior)
	}
	if c.Message, _, err = result.Str("message"); err != nil {
		return Control{}, err
	}
	if c.ToolUseID, _, err = result.Str("toolUseID"); err != nil {
		return Control{}, err
	}
	if c.Revise, _, err = result.Str("revise"); err != nil {
		return Control{}, err
	}
	return c, nil
}

func parseRequest(m fields) (Control, error) {
	reqID, _, err := m.Str("request_id")
	if err != nil {
		return Control{}, err
	}
	req, ok, err := m.Object("request")
	if err != nil {
		return Control{}, err
	}
	if !ok {
		return Control{}, errors.New(`needs a "request" object with a "subtype"`)
	}
	switch sub, _, _ := req.Str("subtype"); sub {
	case "interrupt":
		return Control{Kind: ControlInterrupt, RequestID: reqID}, nil
	case "set_permission_mode":
		c, err := parseMode(req)
		c.RequestID = reqID
		return c, err
	default:
		return Control{}, fmt.Errorf("request subtype %q is not supported: only interrupt and set_permission_mode", sub)
	}
}
