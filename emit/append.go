package emit

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/yume-cli/yume-cli/internal/jsonfast"
)

// Hand-written encoders for the lines a busy stream is made of (assistant
// text and tool calls, tool results, usage): encoding/json's reflection
// cost more than everything else the Writer does. They write exactly the
// bytes json.Encoder with SetEscapeHTML(false) writes for the same structs
// (append_test.go compares the two); marshal falls back to encoding/json
// for the other shapes and whenever an appender fails, so errors read as
// before.

// appender is implemented by the line shapes that encode themselves.
type appender interface {
	appendJSON(dst []byte) ([]byte, error)
}

func (l messageLine) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = jsonfast.AppendString(dst, l.Type)
	dst = appendKey(append(dst, ','), "message")
	dst, err := appendValue(dst, l.Message)
	if err != nil {
		return nil, err
	}
	dst = appendKey(append(dst, ','), "parent_tool_use_id")
	dst = appendStringPtr(dst, l.ParentToolUseID)
	dst = appendKey(append(dst, ','), "session_id")
	dst = jsonfast.AppendString(dst, l.SessionID)
	dst = appendKey(append(dst, ','), "uuid")
	return append(jsonfast.AppendString(dst, l.UUID), '}'), nil
}

func (m assistantMessage) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "id")
	dst = jsonfast.AppendString(dst, m.ID)
	dst = appendKey(append(dst, ','), "type")
	dst = jsonfast.AppendString(dst, m.Type)
	dst = appendKey(append(dst, ','), "role")
	dst = jsonfast.AppendString(dst, m.Role)
	dst = appendKey(append(dst, ','), "model")
	dst = jsonfast.AppendString(dst, m.Model)
	dst = appendKey(append(dst, ','), "content")
	if m.Content == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, c := range m.Content {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendValue(dst, c); err != nil {
				return nil, err
			}
		}
		dst = append(dst, ']')
	}
	dst = appendKey(append(dst, ','), "stop_reason")
	dst = appendStringPtr(dst, m.StopReason)
	if u := m.Usage; u != nil {
		dst = appendKey(append(dst, ','), "usage")
		dst = appendKey(append(dst, '{'), "input_tokens")
		dst = strconv.AppendInt(dst, int64(u.InputTokens), 10)
		dst = appendKey(append(dst, ','), "output_tokens")
		dst = strconv.AppendInt(dst, int64(u.OutputTokens), 10)
		dst = appendKey(append(dst, ','), "cache_creation_input_tokens")
		dst = strconv.AppendInt(dst, int64(u.CacheCreationInputTokens), 10)
		dst = appendKey(append(dst, ','), "cache_read_input_tokens")
		dst = append(strconv.AppendInt(dst, int64(u.CacheReadInputTokens), 10), '}')
	}
	return append(dst, '}'), nil
}

func (m userMessage) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "role")
	dst = jsonfast.AppendString(dst, m.Role)
	dst = appendKey(append(dst, ','), "content")
	if m.Content == nil {
		return append(dst, "null}"...), nil
	}
	dst = append(dst, '[')
	for i, b := range m.Content {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst, _ = b.appendJSON(dst)
	}
	return append(dst, ']', '}'), nil
}

func (b textBlock) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = jsonfast.AppendString(dst, b.Type)
	dst = appendKey(append(dst, ','), "text")
	return append(jsonfast.AppendString(dst, b.Text), '}'), nil
}

func (b toolUseBlock) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = jsonfast.AppendString(dst, b.Type)
	dst = appendKey(append(dst, ','), "id")
	dst = jsonfast.AppendString(dst, b.ID)
	dst = appendKey(append(dst, ','), "name")
	dst = jsonfast.AppendString(dst, b.Name)
	dst = appendKey(append(dst, ','), "input")
	dst, err := appendValue(dst, b.Input)
	if err != nil {
		return nil, err
	}
	return append(dst, '}'), nil
}

func (b toolResultBlock) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = jsonfast.AppendString(dst, b.Type)
	dst = appendKey(append(dst, ','), "tool_use_id")
	dst = jsonfast.AppendString(dst, b.ToolUseID)
	dst = appendKey(append(dst, ','), "content")
	dst = jsonfast.AppendString(dst, b.Content)
	dst = appendKey(append(dst, ','), "is_error")
	return append(strconv.AppendBool(dst, b.IsError), '}'), nil
}

func (l textLine) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = jsonfast.AppendString(dst, l.Type)
	dst = appendKey(append(dst, ','), "content")
	dst = jsonfast.AppendString(dst, l.Content)
	dst = appendKey(append(dst, ','), "uuid")
	return append(jsonfast.AppendString(dst, l.UUID), '}'), nil
}

func (l toolUseLine) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = jsonfast.AppendString(dst, l.Type)
	dst = appendKey(append(dst, ','), "id")
	dst = jsonfast.AppendString(dst, l.ID)
	dst = appendKey(append(dst, ','), "name")
	dst = jsonfast.AppendString(dst, l.Name)
	dst = appendKey(append(dst, ','), "input")
	dst, err := appendValue(dst, l.Input)
	if err != nil {
		return nil, err
	}
	dst = appendKey(append(dst, ','), "uuid")
	return append(jsonfast.AppendString(dst, l.UUID), '}'), nil
}

func (l toolResultLine) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = jsonfast.AppendString(dst, l.Type)
	dst = appendKey(append(dst, ','), "tool_use_id")
	dst = jsonfast.AppendString(dst, l.ToolUseID)
	dst = appendKey(append(dst, ','), "content")
	dst = jsonfast.AppendString(dst, l.Content)
	dst = appendKey(append(dst, ','), "is_error")
	dst = strconv.AppendBool(dst, l.IsError)
	dst = appendKey(append(dst, ','), "uuid")
	return append(jsonfast.AppendString(dst, l.UUID), '}'), nil
}

func (l usageLine) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = jsonfast.AppendString(dst, l.Type)
	dst = appendKey(append(dst, ','), "input_tokens")
	dst = strconv.AppendInt(dst, int64(l.InputTokens), 10)
	dst = appendKey(append(dst, ','), "output_tokens")
	dst = strconv.AppendInt(dst, int64(l.OutputTokens), 10)
	dst = appendKey(append(dst, ','), "uuid")
	return append(jsonfast.AppendString(dst, l.UUID), '}'), nil
}

func (l bareLine) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = jsonfast.AppendString(dst, l.Type)
	dst = appendKey(append(dst, ','), "uuid")
	return append(jsonfast.AppendString(dst, l.UUID), '}'), nil
}

func (l systemLine) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = jsonfast.AppendString(dst, l.Type)
	dst = appendKey(append(dst, ','), "subtype")
	dst = jsonfast.AppendString(dst, l.Subtype)
	dst = appendKey(append(dst, ','), "message")
	dst = jsonfast.AppendString(dst, l.Message)
	dst = appendKey(append(dst, ','), "session_id")
	dst = jsonfast.AppendString(dst, l.SessionID)
	dst = appendKey(append(dst, ','), "uuid")
	return append(jsonfast.AppendString(dst, l.UUID), '}'), nil
}

// appendValue encodes a value held in an `any` field: the shapes above
// directly, a json.RawMessage (Claude's tool input, passed through) as
// encoding/json would, compacted, and anything else through encoding/json.
func appendValue(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case appender:
		return v.appendJSON(dst)
	case json.RawMessage:
		if v == nil {
			return append(dst, "null"...), nil
		}
		buf := bytes.NewBuffer(dst)
		if err := json.Compact(buf, v); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	case nil:
		return append(dst, "null"...), nil
	}
	b, err := reflectMarshal(v)
	if err != nil {
		return nil, err
	}
	return append(dst, b[:len(b)-1]...), nil // without the Encoder's newline
}

// appendKey appends a key known to need no escaping, and its colon.
func appendKey(dst []byte, key string) []byte {
	dst = append(dst, '"')
	dst = append(dst, key...)
	return append(dst, '"', ':')
}

func appendStringPtr(dst []byte, s *string) []byte {
	if s == nil {
		return append(dst, "null"...)
	}
	return jsonfast.AppendString(dst, *s)
}
