package providers

import "encoding/json"

// Claude Code: `claude -p --output-format stream-json`, with its stdio
// permission relay so its permission requests reach the GUI.
func init() {
	register(&Provider{
		Name:    "claude",
		Title:   "Claude Code",
		Bin:     "claude",
		Profile: "claude",
		Install: "install it with `npm install -g @anthropic-ai/claude-code`",
		Tools:   []string{"Task", "Bash", "Glob", "Grep", "Read", "Edit", "Write", "WebFetch", "TodoWrite", "WebSearch"},
		Credentials: Credentials{
			Env:   []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX"},
			Files: []string{".claude/.credentials.json", ".claude.json"}, LoginKeys: []string{"oauthAccount"},
			Fix: "run `claude` once and log in, or set ANTHROPIC_API_KEY",
		},
		Structured: []Mode{
			{Name: ModeJSON, Since: "1.0.0", Format: "claude-stream-json", Resumes: true, Command: claudeJSON},
		},
	})
}

// claudeJSON reads the prompt as a stream-json user message on stdin and
// keeps stdin open for the control responses of its permission relay.
func claudeJSON(r Request) Invocation {
	args := []string{"-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
		"--permission-prompt-tool", "stdio"}
	args = appendFlag(args, "--model", r.Model)
	args = appendFlag(args, "--resume", r.Resume)
	msg, _ := json.Marshal(map[string]any{"type": "user", "session_id": "", "parent_tool_use_id": nil,
		"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": r.Prompt}}}})
	return Invocation{Args: args, Stdin: string(msg) + "\n", KeepStdin: true}
}

// appendFlag adds "flag value" when value is set.
func appendFlag(args []string, flag, value string) []string {
	if value == "" {
		return args
	}
	return append(args, flag, value)
}
