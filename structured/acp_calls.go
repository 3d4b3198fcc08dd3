package structured

import (
	"encoding/json"
	"slices"
	"strings"
)

// An ACP tool call is announced before the agent knows what it will do:
// opencode's first tool_call for a shell command is {title:"bash",
// rawInput:{cwd}}, Qwen's {title:"Shell", rawInput:{}}; the command comes
// with a later update or the permission request. So a call is collected
// until it says what it does, and its tool_use is written then (or at its
// permission request, or its end, whichever comes first).

// acpCall is what is known of a tool call whose tool_use is not written.
type acpCall struct {
	title, kind string
	// name is the agent's own tool name where it gives one (ACP's
	// optional name, Claude's adapter's _meta.claudeCode.toolName).
	name  string
	raw   map[string]any
	paths []string
	diffs []acpDiff
	// ended is the update that ended the call, heard before its
	// tool_use was written; seq orders the calls as first heard of.
	ended *acpUpdate
	seq   int
}

// empty reports whether nothing is known of what the call is.
func (c *acpCall) empty() bool {
	return c.title == "" && c.kind == "" && c.name == "" && len(c.raw) == 0 && len(c.paths) == 0 && len(c.diffs) == 0
}

// acpDiff is a ToolCallContent diff: a file's text before and after.
type acpDiff struct {
	Path    string  `json:"path"`
	OldText *string `json:"oldText"`
	NewText string  `json:"newText"`
}

// merge adds what an update or permission request says about the call.
func (c *acpCall) merge(u acpUpdate) {
	if u.Title != "" {
		c.title = u.Title
	}
	if u.Kind != "" {
		c.kind = u.Kind
	}
	if n := u.toolName(); n != "" {
		c.name = n
	}
	for k, v := range u.RawInput {
		if c.raw == nil {
			c.raw = map[string]any{}
		}
		c.raw[k] = v
	}
	for _, l := range u.Locations {
		if l.Path != "" && !slices.Contains(c.paths, l.Path) {
			c.paths = append(c.paths, l.Path)
		}
	}
	c.diffs = append(c.diffs, contentDiffs(u.Content)...)
}

// ready reports whether the call says what it does: a shell call its
// command, an edit its file and change, any other call some input.
func (c *acpCall) ready() bool {
	switch c.kind {
	case "execute":
		return commandOf(c.raw) != ""
	case "edit":
		return len(c.diffs) > 0 || (filePathOf(c.raw) != "" && len(c.raw) > 1)
	}
	for k := range c.raw {
		if k != "cwd" {
			return true
		}
	}
	return len(c.paths) > 0
}

// tool is the call as a Claude tool name and input.
func (c *acpCall) tool() (string, map[string]any) {
	kind := c.kind
	if kind == "" || kind == "other" {
		kind = kindOfName(c.name, c.raw)
	}
	switch {
	case kind == "edit" || (len(c.diffs) > 0 && kind != "execute"):
		return editTool(c.raw, c.paths, c.diffs)
	case kind == "execute":
		// Claude's Bash fields only: the agents add where it runs (cwd),
		// their own copies of the command (Copilot's "commands") and
		// their bookkeeping (Codex's call and turn ids).
		bash := map[string]any{}
		for _, k := range []string{"description", "timeout", "run_in_background"} {
			if v, ok := c.raw[k]; ok {
				bash[k] = v
			}
		}
		command := commandOf(c.raw)
		if command == "" {
			// The last resort: what the agent shows as the call's title,
			// which may be a label ("Terminal") and not what runs; said so.
			command = titleCommand(c.title, c.name)
			note := "command from the agent's title for the call: its input named none"
			if command == "" {
				note = "the agent named no command for this call"
			}
			if d, _ := bash["description"].(string); d != "" {
				note = d + " (" + note + ")"
			}
			bash["description"] = note
		}
		bash["command"] = command
		return "Bash", bash
	}
	return acpTool(kind, c.title, c.raw, c.paths)
}

// claudeKinds are the ACP kinds of Claude's own tool names, for a call
// whose kind is missing or "other" but whose agent names its tool.
var claudeKinds = map[string]string{"bash": "execute", "shell": "execute", "run_shell_command": "execute", "exec_command": "execute",
	"read": "read", "read_file": "read", "write": "edit", "write_file": "edit", "edit": "edit", "multiedit": "edit",
	"grep": "search", "glob": "search", "webfetch": "fetch", "web_fetch": "fetch",
	// Cline's tools.
	"run_commands": "execute", "editor": "edit", "read_files": "read", "search_codebase": "search", "fetch_web_content": "fetch"}

// kindOfName is the ACP kind of an agent's own tool name ("mcp__acp__Bash"
// is Bash), else "other"; a call whose input is a command is an execute.
func kindOfName(name string, raw map[string]any) string {
	n := strings.ToLower(name[strings.LastIndex(name, "__")+1:])
	n = strings.TrimPrefix(n, "_")
	if k, ok := claudeKinds[n]; ok {
		return k
	}
	for _, k := range []string{"command", "commands"} {
		if _, ok := raw[k]; ok && commandOf(raw) != "" {
			return "execute"
		}
	}
	return "other"
}

// contentDiffs reads the diff items of a ToolCallContent list.
func contentDiffs(raw json.RawMessage) []acpDiff {
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var items []struct {
		Type string `json:"type"`
		acpDiff
	}
	if json.Unmarshal(raw, &items) != nil {
		return nil
	}
	var out []acpDiff
	for _, it := range items {
		if it.Type == "diff" && it.Path != "" {
			out = append(out, it.acpDiff)
		}
	}
	return out
}

// filePathOf finds a file path among an edit's inputs, in the spellings
// agents use.
func filePathOf(raw map[string]any) string {
	for _, k := range []string{"file_path", "filePath", "filepath", "path", "absolute_path"} {
		if s, _ := raw[k].(string); s != "" {
			return s
		}
	}
	return ""
}

// firstString is the first of keys that raw holds as a string.
func firstString(raw map[string]any, keys ...string) (string, bool) {
	for _, k := range keys {
		if s, ok := raw[k].(string); ok {
			return s, true
		}
	}
	return "", false
}

// editTool maps an edit: the model's own old and new strings (Edit) or
// content (Write) when the agent passes them on, else the diff it shows:
// a new file (no old text) is a Write, a change an Edit of the lines that
// differ.
func editTool(raw map[string]any, paths []string, diffs []acpDiff) (string, map[string]any) {
	path := filePathOf(raw)
	if path == "" && len(diffs) > 0 {
		path = diffs[len(diffs)-1].Path
	}
	if path == "" && len(paths) > 0 {
		path = paths[0]
	}
	in := map[string]any{"file_path": path}
	oldS, hasOld := firstString(raw, "old_string", "oldString", "old_str", "old_text")
	newS, hasNew := firstString(raw, "new_string", "newString", "new_str", "new_text")
	if _, insert := raw["insert_line"]; hasNew && !hasOld && !insert && raw["new_text"] != nil {
		// Cline's editor: new_text alone creates the file.
		in["content"] = newS
		return "Write", in
	}
	if hasOld || hasNew {
		in["old_string"], in["new_string"] = oldS, newS
		for _, k := range []string{"replace_all", "replaceAll"} {
			if b, ok := raw[k].(bool); ok {
				in["replace_all"] = b
			}
		}
		return "Edit", in
	}
	if content, ok := firstString(raw, "content", "file_text"); ok {
		in["content"] = content
		return "Write", in
	}
	for i := len(diffs) - 1; i >= 0; i-- {
		d := diffs[i]
		if d.Path != path {
			continue
		}
		if d.OldText == nil || *d.OldText == "" {
			in["content"] = d.NewText
			return "Write", in
		}
		in["old_string"], in["new_string"] = changedLines(*d.OldText, d.NewText)
		return "Edit", in
	}
	return "Edit", in
}

// changedLines trims the lines two texts share at their start and end,
// leaving the part that changed (whole lines).
func changedLines(old, new string) (string, string) {
	a, b := strings.SplitAfter(old, "\n"), strings.SplitAfter(new, "\n")
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	j := 0
	for j < len(a)-i && j < len(b)-i && a[len(a)-1-j] == b[len(b)-1-j] {
		j++
	}
	return strings.Join(a[i:len(a)-j], ""), strings.Join(b[i:len(b)-j], "")
}
