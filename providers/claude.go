package providers

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/yume-cli/yume-cli/permission"
)

// Claude Code: `claude -p --output-format stream-json`, with its stdio
// permission relay so its permission requests reach the GUI.
func init() {
	register(&Provider{
		Name:       "claude",
		Aliases:    []string{"anthropic"}, // Yume's background agents say "anthropic"
		Title:      "Claude Code",
		Bin:        "claude",
		Profile:    "claude",
		BaseURLEnv: "ANTHROPIC_BASE_URL",
		Install:    "install it with `npm install -g @anthropic-ai/claude-code`",
		Tools:      []string{"Task", "Bash", "Glob", "Grep", "Read", "Edit", "Write", "WebFetch", "TodoWrite", "WebSearch"},
		Credentials: Credentials{
			Env:   []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX"},
			Files: []string{".claude/.credentials.json", ".claude.json"}, LoginKeys: []string{"oauthAccount"},
			SettingsEnv: ".claude/settings.json",
			Fix:         "run `claude` once and log in, or set ANTHROPIC_API_KEY",
			Login:       "run `claude` in a terminal and log in",
		},
		Structured: []Mode{
			{Name: ModeJSON, Since: "1.0.0", Format: "claude-stream-json", Resumes: true, Command: claudeJSON},
		},
		Verified:  [2]string{"2.1.197", "2.1.332"}, // make drift, 2026-11-25; 2.1.332 on 2026-11-26
		KnownHelp: claudeKnownHelp,
		Releases:  claudeReleases, Packages: []string{"@anthropic-ai/claude-code"},
		// In every release yume-cli drives (2.1.197 and later), TUI and -p.
		Instructions: func(text string) []string { return []string{"--append-system-prompt", text} },
		TUI:          &TUI{LogEndsTurns: true, Args: claudeTUI, NewSession: newUUID, Transcript: claudeTranscript, ModeName: claudeModeName},
	})
}

// claudeTUI starts the TUI in the permission mode yume-cli's mode needs,
// on the session yume-cli named (so its transcript is found), with the
// prompt after "--".
func claudeTUI(l Launch) ([]string, error) {
	mode, err := claudeMode(l)
	if err != nil {
		return nil, err
	}
	if err := checkLaunchSession("claude", l); err != nil {
		return nil, err
	}
	args := []string{"--permission-mode", mode}
	switch {
	case l.Resume:
		args = append(args, "--resume", l.Session)
	case l.Session != "":
		args = append(args, "--session-id", l.Session)
	}
	args = appendFlag(args, "--model", l.Model)
	if path := prepareDebugLog(claudeDebugLog(l)); path != "" {
		// Its screen says "API error · Retrying in 2s · attempt 3/10";
		// its debug log says which status (debuglog.go).
		args = append(args, "--debug-file", path)
	}
	if l.Prompt != "" {
		args = append(args, "--", l.Prompt)
	}
	return args, nil
}

// claudeDebugLog is the debug log of a TUI run; "" for a release without
// --debug-file.
func claudeDebugLog(l Launch) string {
	if !hasFlag(l.Help, "--debug-file") {
		return ""
	}
	return debugLogPath("claude", l)
}

// claudeMode picks --permission-mode from the values this release lists:
// a mode that asks ("manual" since 2.1.3xx, "default" before) unless
// yume-cli's mode is auto, which takes Claude's own "auto".
func claudeMode(l Launch) (string, error) {
	have := flagChoices(l.Help, "--permission-mode")
	if l.Mode == permission.Auto {
		if m := firstOf(have, "auto", "acceptEdits"); m != "" {
			return m, nil
		}
	}
	if m := firstOf(have, "manual", "default"); m != "" {
		return m, nil
	}
	if len(have) == 0 {
		return "", errors.New("cannot read claude's permission modes from `claude --help`; yume-cli does not start it without a mode that asks")
	}
	return "", fmt.Errorf("claude offers no permission mode that asks (it lists %s); yume-cli does not let it run commands unasked: use --permission-mode auto, or another release", strings.Join(have, ", "))
}

func claudeModeName(l Launch) string {
	m, _ := claudeMode(l)
	return "claude " + m + " mode"
}

// claudeJSON reads the prompt as a stream-json user message on stdin and
// keeps stdin open for the control responses of its permission relay.
func claudeJSON(r Request) Invocation {
	args := []string{"-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
		"--permission-prompt-tool", "stdio"}
	// Its permission mode is set, not left to its default (auto since
	// 2.1.3xx, which runs tools without asking the relay) or the user's
	// settings; a --help that lists none keeps the old behaviour.
	mode := permission.Default
	if r.Auto {
		mode = permission.Auto
	}
	if m, err := claudeMode(Launch{Help: r.Help, Mode: mode}); err == nil {
		args = append(args, "--permission-mode", m)
	}
	args = appendFlag(args, "--model", r.Model)
	args = appendFlag(args, "--resume", r.Resume)
	msg, _ := json.Marshal(map[string]any{"type": "user", "session_id": "", "parent_tool_use_id": nil,
		"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": r.Prompt}}}})
	return Invocation{Args: args, Stdin: string(msg) + "\n", KeepStdin: true}
}

// claudeKnownHelp is what Args and the modes read of `claude --help`, as
// 2.1.332 prints it (Provider.KnownHelp).
const claudeKnownHelp = `  --debug-file <path>                   Write debug logs to a specific file path
                                        (implicitly enables debug mode)
  --permission-mode <mode>              Permission mode to use for the session
                                        (choices: "acceptEdits", "auto",
                                        "bypassPermissions", "manual",
                                        "dontAsk", "plan")
  --session-id <uuid>                   Use a specific session ID for the
                                        conversation (must be a valid UUID)
`
