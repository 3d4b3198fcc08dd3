package structured

import (
	"encoding/json"

	"github.com/yume-cli/yume-cli/internal/jsonfast"
	"github.com/yume-cli/yume-cli/providers"
)

// Fast decoding of Copilot's lines; see internal/jsonfast. The fastDecode
// methods fill their struct exactly as json.Unmarshal would, or report
// false and the caller decodes with json.Unmarshal.

// The JSON names of the decoded structs' fields, from their tags.
var (
	copilotLineFields    = jsonNames(copilotLine{})
	copilotDataFields    = jsonNames(copilotData{})
	copilotRequestFields = jsonNames(providers.CopilotToolRequest{})
	copilotResultFields  = jsonNames(providers.CopilotResult{})
)

func (l *copilotLine) fastDecode(line []byte) bool {
	return jsonfast.EachMember(line, func(key []byte, esc bool, v []byte) (ok bool) {
		switch string(key) {
		case "type":
			l.Type, ok = jstring(v)
		case "id":
			l.ID, ok = jstring(v)
		case "timestamp":
			l.Timestamp, ok = jstring(v)
		case "ephemeral":
			l.Ephemeral, ok = jbool(v)
		case "sessionId":
			l.SessionID, ok = jstring(v)
		case "exitCode":
			l.ExitCode, ok = jintPtr(v)
		case "data":
			// Not copied (unlike jraw): Data is decoded before Line returns
			// and never kept.
			l.Data, ok = json.RawMessage(v), true
		default:
			return !foldsToField(key, esc, copilotLineFields)
		}
		return ok
	})
}

func (d *copilotData) fastDecode(data []byte) bool {
	var argsSeen, requestsSeen bool
	return jsonfast.EachMember(data, func(key []byte, esc bool, v []byte) (ok bool) {
		switch string(key) {
		case "messageId":
			d.MessageID, ok = jstring(v)
		case "deltaContent":
			d.DeltaContent, ok = jstring(v)
		case "content":
			d.Content, ok = jstring(v)
		case "toolCallId":
			d.ToolCallID, ok = jstring(v)
		case "toolName":
			d.ToolName, ok = jstring(v)
		case "success":
			d.Success, ok = jbool(v)
		case "error":
			d.Error, ok = jraw(v), true
		case "inputTokens":
			d.InputTokens, ok = jint(v)
		case "outputTokens":
			d.OutputTokens, ok = jint(v)
		case "cacheReadTokens":
			d.CacheReadTokens, ok = jint(v)
		case "message":
			d.Message, ok = jstring(v)
		case "sessionId":
			d.SessionID, ok = jstring(v)
		case "errorType":
			d.ErrorType, ok = jstring(v)
		case "arguments":
			if argsSeen {
				return false // a repeated object merges in encoding/json
			}
			argsSeen = true
			d.Arguments, ok = jraw(v), true
		case "toolRequests":
			if requestsSeen {
				return false
			}
			requestsSeen = true
			return d.fastRequests(v)
		case "result":
			if d.Result != nil {
				return false
			}
			return d.fastResult(v)
		default:
			return !foldsToField(key, esc, copilotDataFields)
		}
		return ok
	})
}

func (d *copilotData) fastResult(v []byte) bool {
	if isNull(v) {
		return true
	}
	if v[0] != '{' {
		return false
	}
	d.Result = &providers.CopilotResult{}
	return jsonfast.EachMember(v, func(key []byte, esc bool, v []byte) bool {
		if string(key) == "content" {
			d.Result.Content = jraw(v)
			return true
		}
		return !foldsToField(key, esc, copilotResultFields)
	})
}

func (d *copilotData) fastRequests(v []byte) bool {
	if isNull(v) {
		return true
	}
	if v[0] != '[' {
		return false
	}
	d.ToolRequests = []providers.CopilotToolRequest{}
	return jsonfast.EachElement(v, func(_ []byte, _ bool, el []byte) bool {
		d.ToolRequests = append(d.ToolRequests, providers.CopilotToolRequest{})
		return isNull(el) || fastToolRequest(&d.ToolRequests[len(d.ToolRequests)-1], el)
	})
}

func fastToolRequest(r *providers.CopilotToolRequest, v []byte) bool {
	if v[0] != '{' {
		return false
	}
	argsSeen := false
	return jsonfast.EachMember(v, func(key []byte, esc bool, v []byte) (ok bool) {
		switch string(key) {
		case "toolCallId":
			r.ToolCallID, ok = jstring(v)
		case "name":
			r.Name, ok = jstring(v)
		case "arguments":
			if argsSeen {
				return false // a repeated object merges in encoding/json
			}
			argsSeen = true
			r.Arguments, ok = jraw(v), true
		default:
			return !foldsToField(key, esc, copilotRequestFields)
		}
		return ok
	})
}
