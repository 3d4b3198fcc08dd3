package providers

// Qwen Code (a fork of Gemini CLI) over ACP: `qwen --acp`. Its default
// approval mode is auto (an LLM classifier approves what it deems safe),
// so yume-cli always names the mode: `--approval-mode default` asks before
// every shell command and edit; auto is yolo.
func init() {
	register(&Provider{
		Name:       "qwen",
		Title:      "Qwen Code",
		Bin:        "qwen",
		BaseURLEnv: "OPENAI_BASE_URL",
		Install:    "install it with `npm install -g @qwen-code/qwen-code`",
		Tools:      []string{"Bash", "Read", "Write", "Edit", "Glob", "Grep", "LS", "WebFetch", "WebSearch", "TodoWrite", "Task"},
		Credentials: Credentials{
			Env:   []string{"OPENAI_API_KEY", "DASHSCOPE_API_KEY", "QWEN_API_KEY"},
			Files: []string{".qwen/oauth_creds.json"},
			Fix:   "run `qwen` and /auth, or set OPENAI_API_KEY (with OPENAI_BASE_URL and OPENAI_MODEL) and security.auth.selectedType \"openai\" in ~/.qwen/settings.json",
		},
		Structured: []Mode{
			{Name: ModeACP, Since: "0.1.0", Format: "acp", Resumes: true, Command: qwenACP, AutoName: "qwen --approval-mode yolo"},
			// Headless, it declines what it would ask: auto and deny only.
			{Name: ModeJSON, Since: "0.1.0", Format: "qwen-stream-json", Resumes: true, Command: qwenJSON,
				AutoName: "qwen --approval-mode yolo", CannotAsk: true},
		},
		MapTool:  geminiTool,
		Verified: [2]string{"0.24.2", "0.24.4"}, // e2e TestLiveAgents on 0.24.2, 0.24.3, 0.24.4, 2026-11-25
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
