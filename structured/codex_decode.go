package structured

import "github.com/yume-cli/yume-cli/internal/jsonfast"

// Fast decoding of Codex's item lines; see internal/jsonfast. fastDecode fills l
// exactly as json.Unmarshal would, or reports false and the caller decodes
// with json.Unmarshal. Items with lists or nested objects (file changes,
// MCP calls, plans, errors) and usage lines take the slow path.

// The JSON names of the decoded structs' fields, from their tags.
var (
	codexLineFields = jsonNames(codexLine{})
	codexItemFields = jsonNames(codexItem{})
)

func (l *codexLine) fastDecode(line []byte) bool {
	return jsonfast.EachMember(line, func(key []byte, esc bool, v []byte) (ok bool) {
		switch string(key) {
		case "type":
			l.Type, ok = jstring(v)
		case "thread_id":
			l.ThreadID, ok = jstring(v)
		case "message":
			l.Message, ok = jstring(v)
		case "item":
			if l.Item != nil {
				return false // a repeated object merges in encoding/json
			}
			if isNull(v) {
				return true
			}
			l.Item = &codexItem{}
			return l.Item.fastDecode(v)
		default:
			return !foldsToField(key, esc, codexLineFields)
		}
		return ok
	})
}

func (it *codexItem) fastDecode(v []byte) bool {
	if v[0] != '{' {
		return false
	}
	return jsonfast.EachMember(v, func(key []byte, esc bool, v []byte) (ok bool) {
		switch string(key) {
		case "id":
			it.ID, ok = jstring(v)
		case "type":
			it.Type, ok = jstring(v)
		case "text":
			it.Text, ok = jstring(v)
		case "command":
			it.Command, ok = jstring(v)
		case "aggregated_output":
			it.AggregatedOutput, ok = jstring(v)
		case "exit_code":
			it.ExitCode, ok = jintPtr(v)
		case "status":
			it.Status, ok = jstring(v)
		case "server":
			it.Server, ok = jstring(v)
		case "tool":
			it.Tool, ok = jstring(v)
		case "query":
			it.Query, ok = jstring(v)
		case "message":
			it.Message, ok = jstring(v)
		default:
			return !foldsToField(key, esc, codexItemFields)
		}
		return ok
	})
}
