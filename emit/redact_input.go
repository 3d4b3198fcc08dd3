package emit

import "encoding/json"

// redactInput returns a tool call's input with its secrets redacted, for
// a tool_use, a control_request or a denial: every string, at any depth,
// through Redact, except a command, which goes through RedactCommand so
// that what the person approves is still what runs. The input itself is
// not changed (the caller may still need the exact text); a copy is made
// only where something was redacted.
func redactInput(v any) any {
	return redactValue("", v)
}

func redactValue(key string, v any) any {
	switch x := v.(type) {
	case string:
		if key == "command" {
			return RedactCommand(x)
		}
		return Redact(x)
	case map[string]any:
		var out map[string]any
		for k, e := range x {
			r := redactValue(k, e)
			if s, ok := r.(string); ok && s == e {
				continue
			}
			if out == nil {
				out = make(map[string]any, len(x))
				for k2, e2 := range x {
					out[k2] = e2
				}
			}
			out[k] = r
		}
		if out == nil {
			return x
		}
		return out
	case json.RawMessage:
		// Passed through undecoded for speed; decoded only to redact.
		if !hasSecret(string(x)) {
			return x
		}
		var dec any
		if json.Unmarshal(x, &dec) != nil {
			return json.RawMessage(Redact(string(x)))
		}
		return redactValue(key, dec)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = redactValue(key, e)
		}
		return out
	}
	return v
}
