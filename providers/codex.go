package providers

// Codex: `codex exec --json`. It cannot ask for approvals: the sandbox is
// chosen up front.
func init() {
	register(&Provider{
		Name:    "codex",
		Aliases: []string{"openai"},
		Title:   "OpenAI Codex CLI",
		Bin:     "codex",
		Profile: "codex",
		Install: "install it with `npm install -g @openai/codex`",
		Tools:   []string{"Bash", "Write", "Edit", "WebSearch", "TodoWrite"},
		Credentials: Credentials{
			Env: []string{"OPENAI_API_KEY", "CODEX_API_KEY"}, Files: []string{".codex/auth.json"}, HomeEnv: "CODEX_HOME",
			Fix: "run `codex login`, or set OPENAI_API_KEY",
		},
		Structured: []Mode{
			{Name: ModeJSON, Since: "0.44.0", Format: "codex-exec-json", Resumes: true, Command: codexJSON},
		},
	})
}

func codexJSON(r Request) Invocation {
	sandbox := "read-only"
	if r.Auto {
		sandbox = "workspace-write"
	}
	args := []string{"exec", "--json", "--skip-git-repo-check", "--sandbox", sandbox}
	args = appendFlag(args, "--model", r.Model)
	if r.Resume != "" {
		args = append(args, "resume", r.Resume)
	}
	// "-": the prompt comes on stdin, so it is never read as an option.
	return Invocation{Args: append(args, "-"), Stdin: r.Prompt}
}
