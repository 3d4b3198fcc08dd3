package emit

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
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
	dst = appendString(dst, l.Type)
	dst = appendKey(append(dst, ','), "message")
	dst, err := appendValue(dst, l.Message)
	if err != nil {
		return nil, err
	}
	dst = appendKey(append(dst, ','), "parent_tool_use_id")
	dst = appendStringPtr(dst, l.ParentToolUseID)
	dst = appendKey(append(dst, ','), "session_id")
	dst = appendString(dst, l.SessionID)
	dst = appendKey(append(dst, ','), "uuid")
	return append(appendString(dst, l.UUID), '}'), nil
}

func (m assistantMessage) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "id")
	dst = appendString(dst, m.ID)
	dst = appendKey(append(dst, ','), "type")
	dst = appendString(dst, m.Type)
	dst = appendKey(append(dst, ','), "role")
	dst = appendString(dst, m.Role)
	dst = appendKey(append(dst, ','), "model")
	dst = appendString(dst, m.Model)
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
	dst = appendKey(append(dst, ','), "usage")
	dst = appendKey(append(dst, '{'), "input_tokens")
	dst = strconv.AppendInt(dst, int64(m.Usage.InputTokens), 10)
	dst = appendKey(append(dst, ','), "output_tokens")
	return append(strconv.AppendInt(dst, int64(m.Usage.OutputTokens), 10), '}', '}'), nil
}

func (m userMessage) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "role")
	dst = appendString(dst, m.Role)
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
	dst = appendString(dst, b.Type)
	dst = appendKey(append(dst, ','), "text")
	return append(appendString(dst, b.Text), '}'), nil
}

func (b toolUseBlock) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = appendString(dst, b.Type)
	dst = appendKey(append(dst, ','), "id")
	dst = appendString(dst, b.ID)
	dst = appendKey(append(dst, ','), "name")
	dst = appendString(dst, b.Name)
	dst = appendKey(append(dst, ','), "input")
	dst, err := appendValue(dst, b.Input)
	if err != nil {
		return nil, err
	}
	return append(dst, '}'), nil
}

func (b toolResultBlock) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = appendString(dst, b.Type)
	dst = appendKey(append(dst, ','), "tool_use_id")
	dst = appendString(dst, b.ToolUseID)
	dst = appendKey(append(dst, ','), "content")
	dst = appendString(dst, b.Content)
	dst = appendKey(append(dst, ','), "is_error")
	return append(strconv.AppendBool(dst, b.IsError), '}'), nil
}

func (l textLine) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = appendString(dst, l.Type)
	dst = appendKey(append(dst, ','), "content")
	dst = appendString(dst, l.Content)
	dst = appendKey(append(dst, ','), "uuid")
	return append(appendString(dst, l.UUID), '}'), nil
}

func (l toolUseLine) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = appendString(dst, l.Type)
	dst = appendKey(append(dst, ','), "id")
	dst = appendString(dst, l.ID)
	dst = appendKey(append(dst, ','), "name")
	dst = appendString(dst, l.Name)
	dst = appendKey(append(dst, ','), "input")
	dst, err := appendValue(dst, l.Input)
	if err != nil {
		return nil, err
	}
	dst = appendKey(append(dst, ','), "uuid")
	return append(appendString(dst, l.UUID), '}'), nil
}

func (l toolResultLine) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = appendString(dst, l.Type)
	dst = appendKey(append(dst, ','), "tool_use_id")
	dst = appendString(dst, l.ToolUseID)
	dst = appendKey(append(dst, ','), "content")
	dst = appendString(dst, l.Content)
	dst = appendKey(append(dst, ','), "is_error")
	dst = strconv.AppendBool(dst, l.IsError)
	dst = appendKey(append(dst, ','), "uuid")
	return append(appendString(dst, l.UUID), '}'), nil
}

func (l usageLine) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = appendString(dst, l.Type)
	dst = appendKey(append(dst, ','), "input_tokens")
	dst = strconv.AppendInt(dst, int64(l.InputTokens), 10)
	dst = appendKey(append(dst, ','), "output_tokens")
	dst = strconv.AppendInt(dst, int64(l.OutputTokens), 10)
	dst = appendKey(append(dst, ','), "uuid")
	return append(appendString(dst, l.UUID), '}'), nil
}

func (l bareLine) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = appendString(dst, l.Type)
	dst = appendKey(append(dst, ','), "uuid")
	return append(appendString(dst, l.UUID), '}'), nil
}

func (l systemLine) appendJSON(dst []byte) ([]byte, error) {
	dst = appendKey(append(dst, '{'), "type")
	dst = appendString(dst, l.Type)
	dst = appendKey(append(dst, ','), "subtype")
	dst = appendString(dst, l.Subtype)
	dst = appendKey(append(dst, ','), "message")
	dst = appendString(dst, l.Message)
	dst = appendKey(append(dst, ','), "session_id")
	dst = appendString(dst, l.SessionID)
	dst = appendKey(append(dst, ','), "uuid")
	return append(appendString(dst, l.UUID), '}'), nil
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
	return appendString(dst, *s)
}

// appendString appends s as a JSON string exactly as encoding/json does
// with SetEscapeHTML(false): quote, backslash and control characters
// escaped (\b \f \n \r \t short), each invalid UTF-8 byte as \ufffd, and
// U+2028 and U+2029 escaped.
func appendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
