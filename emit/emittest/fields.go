package emittest

import (
	"encoding/json"
	"strconv"
	"strings"
)

// jsonKind is the JSON type a field must have.
type jsonKind int

const (
	jAny    jsonKind = iota // present and not null
	jString                 // "…"
	jBool                   // true / false
	jObject                 // {…}
	jArray                  // […]
	jUint                   // a non-negative integer (Yume's u64 fields)
	jNumber                 // any number
)

var kindNames = map[jsonKind]string{
	jAny: "a value", jString: "a string", jBool: "true or false", jObject: "an object",
	jArray: "an array", jUint: "a non-negative integer", jNumber: "a number",
}

// isKind reports whether raw is a JSON value of kind k.
func isKind(raw json.RawMessage, k jsonKind) bool {
	if len(raw) == 0 {
		return false
	}
	switch c := raw[0]; k {
	case jAny:
		return string(raw) != "null"
	case jString:
		return c == '"'
	case jBool:
		return string(raw) == "true" || string(raw) == "false"
	case jObject:
		return c == '{'
	case jArray:
		return c == '['
	case jUint:
		_, err := strconv.ParseUint(string(raw), 10, 64)
		return err == nil
	case jNumber:
		return c == '-' || (c >= '0' && c <= '9')
	}
	return false
}

// field checks member key of m (named where in messages) and returns it;
// a missing optional member returns nil without complaint.
func (v *validator) field(m fields, where, key string, k jsonKind, required bool) json.RawMessage {
	raw, ok := m[key]
	if !ok {
		if required {
			v.fail("%s has no %q (must be %s)", where, key, kindNames[k])
		}
		return nil
	}
	if !isKind(raw, k) {
		v.fail("%s field %q must be %s, got %s", where, key, kindNames[k], quote(raw))
		return nil
	}
	return raw
}

// obj decodes an object member that field has already type-checked.
func obj(raw json.RawMessage) fields {
	var f fields
	_ = json.Unmarshal(raw, &f) // Checked by isKind; a bad object reads as empty.
	return f
}

// checkFields checks the members of a line of a known type, following the
// table in docs/protocol.md plus what Writer always includes.
func (v *validator) checkFields(typ string, m fields) {
	switch typ {
	case "system":
		v.checkSystem(m)
	case "assistant", "user":
		if raw := v.field(m, typ, "message", jObject, true); raw != nil {
			v.checkMessage(typ, obj(raw))
		}
		v.field(m, typ, "session_id", jString, false)
	case "text":
		v.field(m, typ, "content", jString, true)
	case "tool_use":
		v.checkToolUse(m, typ)
	case "tool_result":
		v.checkToolResult(m, typ)
	case "usage":
		v.checkUsage(m, typ)
	case "thinking":
		v.field(m, typ, "is_thinking", jBool, false)
		v.field(m, typ, "thought", jString, false)
	case "result":
		v.checkResult(m)
	case "error":
		v.field(m, typ, "message", jString, true)
		v.field(m, typ, "code", jString, false)
	case "interrupt", "message_stop":
	case "control_request":
		v.checkControlRequest(m)
	default:
		v.fail("unknown type %q: Yume shows it as a raw message", typ)
	}
}

func (v *validator) checkSystem(m fields) {
	subtype := ""
	if raw := v.field(m, "system", "subtype", jString, true); raw != nil {
		_ = json.Unmarshal(raw, &subtype)
	}
	where := "system/" + subtype
	v.field(m, where, "session_id", jString, subtype == "init" || subtype == "session_id")
	v.field(m, where, "message", jString, subtype == "error" || subtype == "notice" || subtype == "rate_limit")
	if subtype == "compact_boundary" || subtype == "compact" {
		v.turn.compacted = true
	}
	v.field(m, where, "model", jString, false)
	v.field(m, where, "cwd", jString, false)
	v.field(m, where, "permissionMode", jString, false)
	if raw := v.field(m, where, "tools", jArray, subtype == "init"); raw != nil {
		var tools []any
		_ = json.Unmarshal(raw, &tools)
		for _, t := range tools {
			if _, ok := t.(string); !ok {
				v.fail(`%s "tools" must list tool names (strings)`, where)
				break
			}
		}
	}
}

// checkMessage checks a Claude assistant/user message and its content
// blocks.
func (v *validator) checkMessage(role string, msg fields) {
	where := role + " message"
	if raw := v.field(msg, where, "role", jString, true); raw != nil && string(raw) != strconv.Quote(role) {
		v.fail("%s role must be %q, got %s", where, role, raw)
	}
	raw, ok := msg["content"]
	if !ok {
		v.fail("%s has no \"content\"", where)
		return
	}
	if u := v.field(msg, where, "usage", jObject, false); u != nil {
		v.checkUsage(obj(u), where+" usage")
	}
	if isKind(raw, jString) {
		return
	}
	var blocks []json.RawMessage
	if !isKind(raw, jArray) || json.Unmarshal(raw, &blocks) != nil {
		v.fail("%s content must be a string or an array of blocks", where)
		return
	}
	for _, b := range blocks {
		if !isKind(b, jObject) {
			v.fail("%s content block must be an object, got %s", where, quote(b))
			continue
		}
		block := obj(b)
		kind, _, err := block.Str("type")
		if err != nil || kind == "" {
			v.fail(`%s content block has no string "type"`, where)
			continue
		}
		switch kind {
		case "text":
			v.field(block, "text block", "text", jString, true)
		case "tool_use":
			v.checkToolUse(block, "tool_use block")
		case "tool_result":
			v.checkToolResult(block, "tool_result block")
		}
	}
}

func (v *validator) checkToolUse(m fields, where string) {
	v.field(m, where, "name", jString, true)
	v.field(m, where, "input", jAny, true)
	if raw := v.field(m, where, "id", jString, true); raw != nil {
		id, _, _ := m.Str("id")
		v.useTool(id)
	}
}

func (v *validator) checkToolResult(m fields, where string) {
	v.field(m, where, "content", jString, true)
	isErr := v.field(m, where, "is_error", jBool, false)
	if raw := v.field(m, where, "tool_use_id", jString, true); raw != nil {
		id, _, _ := m.Str("tool_use_id")
		v.answerTool(id, string(isErr) == "true")
	}
}

func (v *validator) checkUsage(m fields, where string) {
	v.field(m, where, "input_tokens", jUint, true)
	v.field(m, where, "output_tokens", jUint, true)
	v.field(m, where, "cache_creation_input_tokens", jUint, false)
	v.field(m, where, "cache_read_input_tokens", jUint, false)
}

func (v *validator) checkResult(m fields) {
	const where = "result"
	sub := v.field(m, where, "subtype", jString, true)
	isErr := v.field(m, where, "is_error", jBool, true)
	v.field(m, where, "session_id", jString, true)
	v.field(m, where, "duration_ms", jUint, true)
	turns := v.field(m, where, "num_turns", jUint, false)
	text := v.field(m, where, "result", jString, false)
	v.field(m, where, "total_cost_usd", jNumber, false)
	// Yume's own tests of a compaction (src/renderer/services/
	// wrapperIntegration.ts, both versions seen): zero input and output;
	// num_turns with no cache reads; an empty result with no usage. Each
	// replaces the answer and forgets the session id.
	cacheRead := false
	raw := v.field(m, where, "usage", jObject, false)
	if raw != nil {
		u := obj(raw)
		v.checkUsage(u, "result usage")
		if string(u["input_tokens"]) == "0" && string(u["output_tokens"]) == "0" && !v.turn.compacted {
			v.fail(`result usage with input_tokens and output_tokens both 0: Yume takes it for a compaction (it replaces the answer and forgets the session id); leave "usage" out when no tokens are known`)
		}
		cacheRead = u["cache_read_input_tokens"] != nil && string(u["cache_read_input_tokens"]) != "0"
	}
	if turns != nil && !cacheRead && !v.turn.compacted {
		v.fail(`result with num_turns and no cache_read_input_tokens: Yume takes it for a compaction; leave num_turns out`)
	}
	if raw == nil && (text == nil || string(text) == `""`) && !v.turn.compacted {
		v.fail(`result with an empty "result" and no usage: Yume takes it for a compaction; say what ended the turn`)
	}
	if raw := v.field(m, where, "permission_denials", jArray, true); raw != nil {
		var denials []json.RawMessage
		_ = json.Unmarshal(raw, &denials)
		for _, d := range denials {
			if !isKind(d, jObject) {
				v.fail("permission_denials entries must be objects, got %s", quote(d))
				continue
			}
			den := obj(d)
			v.field(den, "permission denial", "tool_name", jString, true)
			v.field(den, "permission denial", "tool_use_id", jString, true)
			v.field(den, "permission denial", "tool_input", jAny, true)
		}
	}
	var errs []any
	if raw := v.field(m, where, "errors", jArray, false); raw != nil {
		_ = json.Unmarshal(raw, &errs)
		for _, e := range errs {
			if _, ok := e.(string); !ok {
				v.fail(`result "errors" must be strings`)
				break
			}
		}
	}
	if string(isErr) == "true" && len(errs) == 0 {
		v.fail(`an error result must list its "errors"`)
	}
	if sub != nil && strings.HasPrefix(string(sub), `"error`) && string(isErr) != "true" {
		v.fail("subtype %s needs is_error true", sub)
	}
}

func (v *validator) checkControlRequest(m fields) {
	const where = "control_request"
	v.field(m, where, "request_id", jString, true)
	raw := v.field(m, where, "request", jObject, true)
	if raw == nil {
		return
	}
	req := obj(raw)
	sub, _, _ := req.Str("subtype")
	if sub == "" {
		v.fail(`control_request "request" has no string "subtype"`)
		return
	}
	if sub != "can_use_tool" {
		return
	}
	v.field(req, "can_use_tool", "tool_name", jString, true)
	v.field(req, "can_use_tool", "input", jAny, true)
	if v.field(req, "can_use_tool", "tool_use_id", jString, true) != nil {
		id, _, _ := req.Str("tool_use_id")
		if _, ok := v.toolUses[id]; !ok {
			v.fail("can_use_tool for %q, which no earlier tool_use has", id)
		}
	}
}
