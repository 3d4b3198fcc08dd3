package structured

import (
	"strings"

	"github.com/kballard/go-shellquote"
	"github.com/yume-cli/yume-cli/providers"
)

// Tool names and inputs are rewritten to Claude's (docs/protocol.md "Tool names
// and inputs"), because Yume's renderer only knows those: file tools always
// take file_path, never path. Each provider's own tool names are mapped by
// its descriptor (providers.Provider.MapTool); ACP's tool kinds here.

// acpTool maps an ACP tool call that is neither a command nor an edit
// (acp_calls.go) to a Claude tool: by kind, with the agent's input where
// Claude's tool takes the same fields; file tools take file_path.
func acpTool(kind, title string, raw map[string]any, paths []string) (string, map[string]any) {
	in := map[string]any{}
	for k, v := range raw {
		in[k] = v
	}
	firstPath := func() {
		if _, ok := in["file_path"]; !ok {
			if p := filePathOf(raw); p != "" {
				in["file_path"] = p
			} else if len(paths) > 0 {
				in["file_path"] = paths[0]
			}
		}
		for _, k := range []string{"path", "filePath", "filepath", "absolute_path"} {
			if _, ok := in["file_path"]; ok {
				delete(in, k)
			}
		}
	}
	switch kind {
	case "read":
		firstPath()
		return "Read", in
	case "delete", "move":
		firstPath()
		if _, ok := in["description"]; !ok && title != "" {
			in["description"] = title
		}
		return "Edit", in
	case "search":
		if g, ok := in["glob"].(string); ok && in["pattern"] == nil && in["query"] == nil {
			in["pattern"] = g
			delete(in, "glob")
			return "Glob", in
		}
		if _, ok := in["pattern"]; !ok {
			if q, ok := firstString(raw, "query", "regex", "search"); ok {
				in["pattern"] = q
			} else {
				in["pattern"] = title
			}
		}
		if _, ok := in["path"]; !ok && len(paths) > 0 {
			in["path"] = paths[0]
		}
		return "Grep", in
	case "fetch":
		if _, ok := in["url"]; !ok {
			if u := providers.FirstURL.FindString(title); u != "" {
				in["url"] = u
			} else if q, ok := firstString(raw, "query", "q"); ok {
				return "WebSearch", map[string]any{"query": q}
			}
		}
		return "WebFetch", in
	case "", "other":
		// A shape yume-cli does not know: the title the agent shows, and
		// its input as it sent it, labelled so.
		out := map[string]any{"description": title}
		if len(raw) > 0 {
			out["raw_input"] = raw
		}
		if len(paths) > 0 {
			out["file_path"] = paths[0]
		}
		return "Tool", out
	}
	// Keep the ACP title visible for kinds without a Claude equivalent
	// (think, switch_mode).
	if _, ok := in["description"]; !ok && title != "" {
		in["description"] = title
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
