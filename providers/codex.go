package providers

import (
	"errors"

	"github.com/yume-cli/yume-cli/permission"
)

// Codex: `codex exec --json`. It cannot ask for approvals: the sandbox is
// chosen up front.
func init() {
	register(&Provider{
		Name:       "codex",
		Aliases:    []string{"openai"},
		Title:      "OpenAI Codex CLI",
		Bin:        "codex",
		Profile:    "codex",
		BaseURLEnv: "OPENAI_BASE_URL",
		Install:    "install it with `npm install -g @openai/codex`",
		Tools:      []string{"Bash", "Write", "Edit", "WebSearch", "TodoWrite"},
		Credentials: Credentials{
			Env: []string{"OPENAI_API_KEY", "CODEX_API_KEY"}, Files: []string{".codex/auth.json"}, HomeEnv: "CODEX_HOME",
			Fix:   "run `codex login`, or set OPENAI_API_KEY",
			Login: "run `printenv {var} | codex login --with-api-key` in a terminal",
		},
		Structured: []Mode{
			{Name: ModeJSON, Since: "0.44.0", Format: "codex-exec-json", Resumes: true, Command: codexJSON, TranscriptFillsGaps: true,
				AsksNothing: true},
		},
		Verified:  [2]string{"0.163.0", "0.171.0"}, // make drift, 2026-11-25; 0.171.0 on 2026-11-26
		KnownHelp: codexKnownHelp,
		Releases:  codexReleases, Packages: []string{"@openai/codex"},
		// A config override, before the subcommand (exec, resume): the
		// developer message of every turn.
		Instructions: func(text string) []string { return []string{"-c", "developer_instructions=" + tomlString(text)} },
		TUI:          &TUI{LogEndsTurns: true, Args: codexTUI, Transcript: codexTranscript, ModeName: codexModeName},
	})
}

// codexTUI asks before anything can change: approval on request and a
// read-only sandbox, so a write needs the model to ask for a run outside
// it. yume-cli's auto mode is Codex's own bypass. The prompt comes after
// "--"; a resumed session is `codex resume ID`.
func codexTUI(l Launch) ([]string, error) {
	var args []string
	if l.Resume {
		if err := checkLaunchSession("codex", l); err != nil {
			return nil, err
		}
		args = append(args, "resume", l.Session)
	}
	if l.Mode == permission.Auto && hasFlag(l.Help, "--dangerously-bypass-approvals-and-sandbox") {
		args = append(args, "--dangerously-bypass-approvals-and-sandbox")
	} else {
		policy := firstOf(flagChoices(l.Help, "--ask-for-approval"), "untrusted", "on-request")
		sandbox := firstOf(flagChoices(l.Help, "--sandbox"), "read-only")
		if policy == "" || sandbox == "" {
			return nil, errors.New("cannot read codex's approval policies and sandboxes from `codex --help`; yume-cli does not start it without a policy that asks")
		}
		args = append(args, "--ask-for-approval", policy, "--sandbox", sandbox)
	}
	args = appendFlag(args, "--model", l.Model)
	if l.Prompt != "" {
		args = append(args, "--", l.Prompt)
	}
	return args, nil
}

func codexModeName(l Launch) string {
	if l.Mode == permission.Auto {
		return "codex without approvals or sandbox"
	}
	return "codex read-only sandbox"
}

func codexJSON(r Request) Invocation {
	args := []string{"exec", "--json", "--skip-git-repo-check"}
	switch {
	case r.Auto && hasFlag(r.Help, "--dangerously-bypass-approvals-and-sandbox"):
		// exec never asks: auto is Codex's own bypass, or a call asking to
		// leave the sandbox is rejected.
		args = append(args, "--dangerously-bypass-approvals-and-sandbox")
	case r.Auto:
		args = append(args, "--sandbox", "workspace-write")
	default:
		args = append(args, "--sandbox", "read-only")
	}
	args = appendFlag(args, "--model", r.Model)
	if r.Resume != "" {
		args = append(args, "resume", r.Resume)
	}
	// "-": the prompt comes on stdin, so it is never read as an option.
	return Invocation{Args: append(args, "-"), Stdin: r.Prompt}
}

// codexKnownHelp is what Args and the modes read of `codex --help`, as
// 0.171.0 prints it (Provider.KnownHelp).
const codexKnownHelp = `  -s, --sandbox <SANDBOX_MODE>
          Select the sandbox policy to use when executing model-generated shell commands

          [possible values: read-only, workspace-write, danger-full-access]
      --dangerously-bypass-approvals-and-sandbox
          Skip all confirmation prompts and execute commands without sandboxing. EXTREMELY DANGEROUS. Intended solely for running in environments that are externally sandboxed
  -a, --ask-for-approval <APPROVAL_POLICY>
          Configure when the model requires human approval before executing a command

          Possible values:
          - on-request: The model decides when to ask the user for approval
          - never:      Never ask for user approval Execution failures are immediately returned to the model
`
