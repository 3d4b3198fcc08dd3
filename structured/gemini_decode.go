package structured

import "github.com/yume-cli/yume-cli/internal/jsonfast"

// Fast decoding of Gemini's lines; see internal/jsonfast. fastDecode fills l
// exactly as json.Unmarshal would, or reports false and the caller decodes
// with json.Unmarshal. Result lines (stats) always take the slow path.

// geminiLineFields are the JSON names of geminiLine's fields, from its tags.
var geminiLineFields = jsonNames(geminiLine{})

func (l *geminiLine) fastDecode(line []byte) bool {
	paramsSeen := false
	return jsonfast.EachMember(line, func(key []byte, esc bool, v []byte) (ok bool) {
		switch string(key) {
		case "type":
			l.Type, ok = jstring(v)
		case "session_id":
			l.SessionID, ok = jstring(v)
		case "role":
			l.Role, ok = jstring(v)
		case "content":
			l.Content, ok = jstring(v)
		case "tool_name":
			l.ToolName, ok = jstring(v)
		case "tool_id":
			l.ToolID, ok = jstring(v)
		case "status":
			l.Status, ok = jstring(v)
		case "severity":
			l.Severity, ok = jstring(v)
		case "message":
			l.Message, ok = jstring(v)
		case "output":
			if isNull(v) {
				l.Output = nil
				return true
			}
			var s string
			s, ok = jstring(v)
			l.Output = &s
		case "parameters":
			if paramsSeen {
				return false // a repeated object merges in encoding/json
			}
			paramsSeen = true
			l.Parameters, ok = jmap(v)
		case "error":
			if l.Error != nil {
				return false
			}
			return l.fastError(v)
		default:
			return !foldsToField(key, esc, geminiLineFields)
		}
		return ok
	})
}

func (l *geminiLine) fastError(v []byte) bool {
	if isNull(v) {
		return true
	}
	if v[0] != '{' {
		return false
	}
	l.Error = &struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}{}
	e := l.Error
	return jsonfast.EachMember(v, func(key []byte, esc bool, v []byte) (ok bool) {
		switch string(key) {
		case "type":
			e.Type, ok = jstring(v)
		case "message":
			e.Message, ok = jstring(v)
		default:
			return !foldsToField(key, esc, []string{"type", "message"})
		}
		return ok
	})
}
