package providers

import (
	"fmt"

	"github.com/yume-cli/yume-cli/permission"
)

// Gemini CLI: `gemini --output-format stream-json`, or ACP (`--acp`).
func init() {
	register(&Provider{
		Name:       "gemini",
		Title:      "Gemini CLI",
		Bin:        "gemini",
		Profile:    "gemini",
		BaseURLEnv: "GOOGLE_GEMINI_BASE_URL",
		Install:    "install it with `npm install -g @google/gemini-cli`",
		Tools:      []string{"Bash", "Read", "Write", "Edit", "Glob", "Grep", "LS", "WebFetch", "WebSearch", "TodoWrite"},
		Credentials: Credentials{
			Env:   []string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_GENAI_USE_VERTEXAI"},
			Files: []string{".gemini/oauth_creds.json"}, EnvFiles: []string{".gemini/.env", ".env"},
			Fix: "set GEMINI_API_KEY, or run `gemini` once and log in with Google", Login: "run `gemini` in a terminal and log in with Google",
		},
		Structured: []Mode{
			// ACP's session/load finds no session, not even one its own ACP
			// server created (verified with 0.61.0); `gemini --resume`
			// continues both kinds, so a resumed turn uses json.
			{Name: ModeACP, Since: "0.20.0", Format: "acp", Command: acpCommand(), UsageFromTranscript: true},
			{Name: ModeJSON, Since: "0.11.0", Format: "gemini-stream-json", Resumes: true, Command: geminiJSON},
		},
		MapTool: geminiTool,
		// Over ACP its retries reach its stderr only when it exits.
		DebugLog:  geminiDebugLog,
		Verified:  [2]string{"0.57.0", "0.61.0"}, // make drift, 2026-11-25
		KnownHelp: geminiKnownHelp,
		Releases:  geminiReleases, Packages: []string{"@google/gemini-cli"},
		TUI: &TUI{Args: geminiTUI, NewSession: newUUID, Transcript: geminiTranscript, LogAfterRun: true, Cols: 500, Env: geminiEnv,
			ModeName: func(l Launch) string { return "gemini --approval-mode " + geminiMode(l) }},
	})
}

// geminiTUI: --approval-mode default asks before every tool that changes
// anything; auto is yolo. A new session takes our id (--session-id), an
// old one is --resume'd; the prompt is the value of --prompt-interactive=.
func geminiTUI(l Launch) ([]string, error) {
	return approvalModeTUI("gemini", l, func(l Launch) error { return checkLaunchSession("gemini", l) })
}

// approvalModeTUI is the command line of Gemini CLI's TUI and of its
// forks (Qwen Code), which share its flags: the approval mode always
// given, our session id for a new session, --resume for an old one, the
// prompt as the value of --prompt-interactive=.
func approvalModeTUI(name string, l Launch, checkSession func(Launch) error) ([]string, error) {
	mode := geminiMode(l)
	if mode == "" {
		return nil, fmt.Errorf("cannot read %s's approval modes from `%s --help`; yume-cli does not start it without a mode that asks", name, name)
	}
	if err := checkSession(l); err != nil {
		return nil, err
	}
	args := []string{"--approval-mode", mode}
	switch {
	case l.Resume:
		args = append(args, "--resume", l.Session)
	case l.Session != "" && hasFlag(l.Help, "--session-id"):
		args = append(args, "--session-id", l.Session)
	}
	args = appendFlag(args, "--model", l.Model)
	if l.Prompt != "" {
		args = append(args, "--prompt-interactive="+l.Prompt)
	}
	return args, nil
}

// geminiEnv has the TUI keep a debug log of the run: the only word of its
// retries of a failed model request (HTTP 429 and 500), which its screen
// shows as a spinner alone (debuglog.go).
func geminiEnv(l Launch) []string {
	if path := prepareDebugLog(debugLogPath("gemini", l)); path != "" {
		return []string{"GEMINI_DEBUG_LOG_FILE=" + path}
	}
	return nil
}

func geminiMode(l Launch) string {
	have := flagChoices(l.Help, "--approval-mode")
	if l.Mode == permission.Auto {
		return firstOf(have, "yolo")
	}
	return firstOf(have, "default")
}

func geminiJSON(r Request) Invocation {
	args := []string{"--output-format", "stream-json", "--prompt=" + r.Prompt}
	if r.Auto {
		args = append(args, "--approval-mode", "yolo")
	}
	args = appendFlag(args, "--model", r.Model)
	return Invocation{Args: appendFlag(args, "--resume", r.Resume)}
}

// acpCommand is an ACP server's command line: the flag, any extra
// arguments, the model.
func acpCommand(extra ...string) func(Request) Invocation {
	return func(r Request) Invocation {
		args := append([]string{"--acp"}, extra...)
		return Invocation{Args: appendFlag(args, "--model", r.Model), KeepStdin: true}
	}
}

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
		if u := FirstURL.FindString(str(p["prompt"])); u != "" {
			in["url"] = u
		}
		return "WebFetch", in
	case "google_web_search":
		return "WebSearch", pick(p, "query")
	case "write_todos":
		return "TodoWrite", map[string]any{"todos": Todos(p["todos"], "description")}
	case "read_many_files":
		return "Glob", map[string]any{"pattern": p["include"]}
	}
	return name, p
}

// geminiKnownHelp is what Args and the modes read of `gemini --help`, as
// 0.61.0 prints it (Provider.KnownHelp).
const geminiKnownHelp = `      --approval-mode             Set the approval mode: default (prompt for approval), auto_edit (auto-approve edit tools), yolo (auto-approve all tools), plan (read-only mode)  [string] [choices: "default", "auto_edit", "yolo", "plan"]
      --session-id                Start a new session with a manually provided UUID.  [string]
`
