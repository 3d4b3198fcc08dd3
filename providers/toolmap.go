package providers

import "github.com/yume-cli/yume-cli/internal/lazyre"

// Helpers for the MapTool functions: providers rename their tools' inputs
// to Claude's (docs/protocol.md "Tool names and inputs"), because Yume's
// renderer only knows those — file tools always take file_path, never path.

// FirstURL finds the first http(s) URL in a text.
var FirstURL = lazyre.New(`https?://[^\s"'<>)]+`)

// pick copies the given keys that are present.
func pick(m map[string]any, keys ...string) map[string]any {
	out := make(map[string]any, len(keys))
	for _, k := range keys {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	return out
}

// renamed moves key from to key to, in place.
func renamed(m map[string]any, from, to string) map[string]any {
	if v, ok := m[from]; ok {
		delete(m, from)
		m[to] = v
	}
	return m
}

// Todos converts a provider todo list to TodoWrite's {content,status,activeForm};
// textKey names the field that holds an item's text.
func Todos(v any, textKey string) []any {
	list, _ := v.([]any)
	out := make([]any, 0, len(list))
	for _, it := range list {
		m, _ := it.(map[string]any)
		text := str(m[textKey])
		if text == "" {
			text = str(m["content"])
		}
		status := str(m["status"])
		switch status {
		case "pending", "in_progress", "completed":
		default: // cancelled, blocked, none: Claude has no such state
			status = "pending"
		}
		out = append(out, map[string]any{"content": text, "status": status, "activeForm": text})
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func num(v any) (int, bool) {
	f, ok := v.(float64)
	return int(f), ok
}

// ClaudeTools are the tool names Yume's renderer knows.
var ClaudeTools = []string{"Bash", "Read", "Write", "Edit", "MultiEdit", "Glob", "Grep", "LS", "WebFetch", "WebSearch", "TodoWrite", "Task"}
