package structured

import (
	"strings"

	"github.com/kballard/go-shellquote"
	"github.com/yume-cli/yume-cli/providers"
)

// Tool names and inputs are rewritten to Claude's (PROTOCOL.md "Tool names
// and inputs"), because Yume's renderer only knows those: file tools always
// take file_path, never path. Each provider's own tool names are mapped by
// its descriptor (providers.Provider.MapTool); ACP's tool kinds here.

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
			if u := providers.FirstURL.FindString(title); u != "" {
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
