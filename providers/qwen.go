package providers

import "fmt"

// Qwen Code (a fork of Gemini CLI) over ACP: `qwen --acp`. Its default
// approval mode is auto (an LLM classifier approves what it deems safe),
// so yume-cli always names the mode: `--approval-mode default` asks before
// every shell command and edit; auto is yolo.
func init() {
	register(&Provider{
		Name:       "qwen",
		Title:      "Qwen Code",
		Bin:        "qwen",
		Profile:    "qwen",
		BaseURLEnv: "OPENAI_BASE_URL",
		Install:    "install it with `npm install -g @qwen-code/qwen-code`",
		Tools:      []string{"Bash", "Read", "Write", "Edit", "Glob", "Grep", "LS", "WebFetch", "WebSearch", "TodoWrite", "Task"},
		Credentials: Credentials{
			Env:   []string{"OPENAI_API_KEY", "DASHSCOPE_API_KEY", "QWEN_API_KEY"},
			Files: []string{".qwen/oauth_creds.json"}, EnvFiles: []string{".qwen/.env", ".env"},
			Fix:   "run `qwen` and /auth, or set OPENAI_API_KEY (with OPENAI_BASE_URL and OPENAI_MODEL) and security.auth.selectedType \"openai\" in ~/.qwen/settings.json",
			Login: "run `qwen` in a terminal and /auth",
		},
		Structured: []Mode{
			{Name: ModeACP, Since: "0.1.0", Format: "acp", Resumes: true, Command: qwenACP, AutoName: "qwen --approval-mode yolo"},
			// Headless, it declines what it would ask: auto and deny only.
			{Name: ModeJSON, Since: "0.1.0", Format: "qwen-stream-json", Resumes: true, Command: qwenJSON,
				AutoName: "qwen --approval-mode yolo", CannotAsk: true, WaitsForSideAgents: true},
		},
		SideAgentsOff: qwenSideAgentsOff,
		MapTool:       geminiTool,
		Verified:      [2]string{"0.24.2", "0.24.4"}, // e2e TestLiveAgents on 0.24.2, 0.24.3, 0.24.4, 2026-11-25
		KnownHelp:     qwenKnownHelp,
		Packages:      []string{"@qwen-code/qwen-code"},
		// ACP, headless and TUI alike (0.24.4 lists it).
		Instructions: func(text string) []string { return []string{"--append-system-prompt", text} },
		// Its TUI's transcript has each call before it runs, with its
		// whole output after; the screen says when it asks and when the
		// turn is over.
		TUI: &TUI{Args: qwenTUI, NewSession: newUUID, Transcript: qwenTranscript, Env: func(Launch) []string { return qwenDebugEnv("") },
			ModeName: func(l Launch) string { return "qwen --approval-mode " + geminiMode(l) }},
		// It retries a failed model request (429, 500) for minutes with no
		// word on its screen or in its streams: its debug log tells.
		DebugLog: qwenDebugLog,
	})
}

// qwenTUI: --approval-mode default asks before every shell command and
// edit (never left to its classifier's auto mode); auto is yolo. A new
// session takes our id, an old one is --resume'd; the prompt is the value
// of --prompt-interactive=.
func qwenTUI(l Launch) ([]string, error) {
	return approvalModeTUI("qwen", l, func(l Launch) error {
		if l.Session != "" && !uuidShape.MatchString(l.Session) {
			return fmt.Errorf("qwen not started: %q is not a qwen session id (a UUID, like 01a20093-4bdd-77c1-a518-78676408a977)", l.Session)
		}
		return nil
	})
}

// qwenACP: the approval mode is always given, whatever the settings say
// (a release without it fails at start, saying so, rather than running
// in its classifier's auto mode).
func qwenACP(r Request) Invocation {
	mode := "default"
	if r.Auto {
		mode = "yolo"
	}
	args := appendFlag([]string{"--acp", "--approval-mode", mode}, "--model", r.Model)
	return Invocation{Args: args, KeepStdin: true}
}

// qwenJSON is headless qwen (`-o stream-json`, Claude's stream-json with
// Qwen's tool names), the prompt on stdin, a session continued by
// --resume.
func qwenJSON(r Request) Invocation {
	mode := "default"
	if r.Auto {
		mode = "yolo"
	}
	args := appendFlag([]string{"--output-format", "stream-json", "--approval-mode", mode}, "--model", r.Model)
	return Invocation{Args: appendFlag(args, "--resume", r.Resume), Stdin: r.Prompt}
}

// qwenKnownHelp is what Args and the modes read of `qwen --help`, as
// 0.24.4 prints it (Provider.KnownHelp).
const qwenKnownHelp = `      --approval-mode                   Set the approval mode: plan (Analyze only, do not modify files or execute commands), default (Require approval for file edits or shell commands), auto-edit (Automatically approve file edits), auto (LLM classifier auto-approves safe actions, blocks risky ones), yolo (Automatically approve all tools)  [string] [choices: "plan", "default", "auto-edit", "auto", "yolo"]
      --session-id                      Specify a session ID for this run.  [string]
`
