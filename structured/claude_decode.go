package structured

import "github.com/yume-cli/yume-cli/internal/jsonfast"

// Fast decoding of Claude's busiest lines (assistant and user messages);
// see internal/jsonfast. fastDecode fills l exactly as json.Unmarshal would, or
// reports false and the caller decodes with json.Unmarshal.

// The JSON names of the decoded structs' fields, from their tags.
var (
	claudeLineFields    = jsonNames(claudeLine{})
	claudeMessageFields = jsonNames(claudeMessage{})
	claudeBlockFields   = jsonNames(claudeBlock{})
	claudeUsageFields   = jsonNames(claudeUsage{})
)

// fastDecode decodes an assistant or user line; other shapes fall back.
func (l *claudeLine) fastDecode(line []byte) bool {
	return jsonfast.EachMember(line, func(key []byte, esc bool, v []byte) (ok bool) {
		switch string(key) {
		case "type":
			l.Type, ok = jstring(v)
		case "subtype":
			l.Subtype, ok = jstring(v)
		case "session_id":
			l.SessionID, ok = jstring(v)
		case "error":
			l.Error, ok = jraw(v), true
		case "message":
			if l.Message != nil {
				return false // a repeated object merges in encoding/json
			}
			if isNull(v) {
				return true
			}
			l.Message = &claudeMessage{}
			return l.Message.fastDecode(v)
		default:
			return !foldsToField(key, esc, claudeLineFields)
		}
		return ok
	})
}

func (m *claudeMessage) fastDecode(v []byte) bool {
	if v[0] != '{' {
		return false
	}
	seen := false
	return jsonfast.EachMember(v, func(key []byte, esc bool, v []byte) bool {
		switch string(key) {
		case "content":
			if seen {
				return false
			}
			seen = true
			return m.Content.fastDecode(v)
		case "usage":
			if m.Usage != nil {
				return false // a repeated object merges in encoding/json
			}
			if isNull(v) {
				return true
			}
			m.Usage = &claudeUsage{}
			return decodeClaudeUsage(m.Usage, v)
		}
		return !foldsToField(key, esc, claudeMessageFields)
	})
}

// decodeClaudeUsage reads the four counts of a usage object; its other
// members (details, tiers) are skipped.
func decodeClaudeUsage(u *claudeUsage, v []byte) bool {
	if v[0] != '{' {
		return false
	}
	return jsonfast.EachMember(v, func(key []byte, esc bool, v []byte) (ok bool) {
		switch string(key) {
		case "input_tokens":
			u.InputTokens, ok = jint(v)
		case "output_tokens":
			u.OutputTokens, ok = jint(v)
		case "cache_creation_input_tokens":
			u.CacheCreationInputTokens, ok = jint(v)
		case "cache_read_input_tokens":
			u.CacheReadInputTokens, ok = jint(v)
		default:
			return !foldsToField(key, esc, claudeUsageFields)
		}
		return ok
	})
}

// fastDecode mirrors claudeContent.UnmarshalJSON.
func (c *claudeContent) fastDecode(v []byte) bool {
	switch v[0] {
	case '"':
		c.IsText = true
		return true
	case 'n':
		return true
	case '[':
		c.Blocks = []claudeBlock{}
		return jsonfast.EachElement(v, func(_ []byte, _ bool, el []byte) bool {
			c.Blocks = append(c.Blocks, claudeBlock{})
			return isNull(el) || decodeClaudeBlock(&c.Blocks[len(c.Blocks)-1], el)
		})
	}
	return false
}

// decodeClaudeBlock decodes one content block.
func decodeClaudeBlock(b *claudeBlock, v []byte) bool {
	if v[0] != '{' {
		return false
	}
	return jsonfast.EachMember(v, func(key []byte, esc bool, v []byte) (ok bool) {
		switch string(key) {
		case "type":
			b.Type, ok = jstring(v)
		case "text":
			b.Text, ok = jstring(v)
		case "id":
			b.ID, ok = jstring(v)
		case "name":
			b.Name, ok = jstring(v)
		case "tool_use_id":
			b.ToolUseID, ok = jstring(v)
		case "is_error":
			b.IsError, ok = jbool(v)
		case "input":
			b.Input, ok = jraw(v), true
		case "content":
			b.Content, ok = jraw(v), true
		default:
			return !foldsToField(key, esc, claudeBlockFields)
		}
		return ok
	})
}
