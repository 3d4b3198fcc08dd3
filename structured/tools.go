package structured

import (
	"regexp"
	"strings"

	"github.com/kballard/go-shellquote"
)

// Tool names and inputs are rewritten to Claude's (PROTOCOL.md "Tool names
// and inputs"), because Yume's renderer only knows those: file tools always
// take file_path, never path.

// geminiTool maps a Gemini CLI tool call to a Claude tool name and input.
func geminiTool(name string, p map[string]any) (string, map[string]any) {
	switch name {
	case "run_shell_command":
		in := pick(p, "command", "description")
		if bg, ok := p["is_background"]; ok {
			in["run_in_background"] = bg
		}
		return "Bash", in
	case "read_file":
		in := map[string]any{"file_path": p["file_path"]}
		if s, ok := num(p["start_line"]); ok {
			in["offset"] = s
			if e, ok := num(p["end_line"]); ok && e >= s {
				in["limit"] = e - s + 1
			}
		}
		return "Read", in
	case "write_file":
		return "Write", pick(p, "file_path", "content")
	case "replace", "edit_file":
		in := pick(p, "file_path", "old_string", "new_string")
		if all, ok := p["allow_multiple"]; ok {
			in["replace_all"] = all
		}
		return "Edit", in
	case "glob", "find_files":
		return "Glob", renamed(pick(p, "pattern", "dir_path"), "dir_path", "path")
	case "grep_search", "search_file_content", "grep", "search_files":
		in := renamed(pick(p, "pattern", "dir_path", "include_pattern"), "dir_path", "path")
		return "Grep", renamed(in, "include_pattern", "glob")
	case "list_directory":
		return "LS", renamed(pick(p, "dir_path"), "dir_path", "path")
	case "web_fetch":
		in := pick(p, "prompt")
		if u := firstURL.FindString(str(p["prompt"])); u != "" {
			in["url"] = u
		}
		return "WebFetch", in
	case "google_web_search":
		return "WebSearch", pick(p, "query")
	case "write_todos":
		return "TodoWrite", map[string]any{"todos": todos(p["todos"], "description")}
	case "read_many_files":
		return "Glob", map[string]any{"pattern": p["include"]}
	}
	return name, p
}

// copilotTool maps a Copilot CLI tool call to a Claude tool name and input.
func copilotTool(name string, a map[string]any) (string, map[string]any) {
	switch name {
	case "bash", "powershell":
		return "Bash", pick(a, "command", "description")
	case "view":
		return "Read", renamed(pick(a, "path"), "path", "file_path")
	case "create":
		in := renamed(pick(a, "path", "file_text"), "path", "file_path")
		return "Write", renamed(in, "file_text", "content")
	case "edit", "str_replace", "str_replace_editor":
		in := renamed(pick(a, "path", "old_str", "new_str"), "path", "file_path")
		return "Edit", renamed(renamed(in, "old_str", "old_string"), "new_str", "new_string")
	case "glob":
		return "Glob", pick(a, "pattern", "path")
	case "grep", "rg":
		in := pick(a, "pattern", "path", "glob", "output_mode")
		if _, ok := in["path"]; !ok {
			if ps, ok := a["paths"].([]any); ok && len(ps) > 0 {
				in["path"] = ps[0]
			}
		}
		return "Grep", in
	case "web_fetch", "fetch":
		return "WebFetch", pick(a, "url", "prompt")
	case "web_search":
		return "WebSearch", pick(a, "query")
	case "update_todo":
		return "TodoWrite", map[string]any{"todos": todos(a["todos"], "content")}
	case "task":
		return "Task", pick(a, "description", "prompt", "agent_type")
	}
	return name, a
}

// hiddenCopilotTools are bookkeeping calls Copilot makes that are not work
// the user should see (report_intent only sets the status line).
var hiddenCopilotTools = map[string]bool{"report_intent": true}

// acpTool maps an ACP tool call (kind + rawInput) to a Claude tool.
func acpTool(kind, title string, raw map[string]any, paths []string) (string, map[string]any) {
	in := map[string]any{}
	for k, v := range raw {
		in[k] = v
	}
	firstPath := func() {
		if _, ok := in["file_path"]; !ok {
			if p, ok := in["path"]; ok {
				in["file_path"] = p
				delete(in, "path")
			} else if len(paths) > 0 {
				in["file_path"] = paths[0]
			}
		}
	}
	switch kind {
	case "execute":
		if _, ok := in["command"]; !ok {
			in["command"] = title
		}
		return "Bash", in
	case "read":
		firstPath()
		return "Read", in
	case "edit", "delete", "move":
		firstPath()
		if _, ok := in["content"]; ok {
			return "Write", in
		}
		return "Edit", in
	case "search":
		if _, ok := in["pattern"]; !ok {
			in["pattern"] = title
		}
		return "Grep", in
	case "fetch":
		if _, ok := in["url"]; !ok {
			if u := firstURL.FindString(title); u != "" {
				in["url"] = u
			}
		}
		return "WebFetch", in
	}
	// Keep the ACP title visible for tools without a Claude equivalent.
	if _, ok := in["description"]; !ok && title != "" {
		in["description"] = title
	}
	if kind == "" || kind == "other" {
		return "Tool", in
	}
	return kind, in
}

// unwrapShell turns a shell-wrapped command ("/bin/bash -lc 'ls -la'") back
// into what the model asked for ("ls -la"); other commands are kept.
func unwrapShell(cmd string) string {
	words, err := shellquote.Split(cmd)
	if err != nil || len(words) != 3 {
		return cmd
	}
	sh := words[0][strings.LastIndexByte(words[0], '/')+1:]
	switch sh {
	case "bash", "sh", "zsh", "dash":
	default:
		return cmd
	}
	if words[1] != "-lc" && words[1] != "-c" {
		return cmd
	}
	return words[2]
}

var firstURL = regexp.MustCompile(`https?://[^\s"'<>)]+`)

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

// todos converts a provider todo list to TodoWrite's {content,status,activeForm}.
func todos(v any, textKey string) []any {
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
		case "cancelled", "blocked", "":
			status = "pending"
		default:
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
