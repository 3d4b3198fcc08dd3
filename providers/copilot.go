package providers

import (
	"errors"
	"path/filepath"

	"github.com/yume-cli/yume-cli/permission"
)

// GitHub Copilot CLI: `copilot -p --output-format json`, or ACP
// (`--acp --stdio`). Version floors from its changelog: 0.0.422 JSONL,
// 0.0.397 --acp.
func init() {
	register(&Provider{
		Name:       "copilot",
		Title:      "GitHub Copilot CLI",
		Bin:        "copilot",
		Profile:    "copilot",
		BaseURLEnv: "COPILOT_PROVIDER_BASE_URL",
		Install:    "install it with `npm install -g @github/copilot`",
		Tools:      []string{"Bash", "Read", "Write", "Edit", "Glob", "Grep", "WebFetch", "WebSearch", "TodoWrite", "Task"},
		Credentials: Credentials{
			Env:   []string{"COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "COPILOT_PROVIDER_API_KEY"},
			Files: []string{".copilot/config.json"}, LoginKeys: []string{"logged_in_users", "last_logged_in_user"},
			Fix: "run `copilot` and /login, or set COPILOT_GITHUB_TOKEN", Login: "run `copilot` in a terminal and /login",
		},
		Structured: []Mode{
			{Name: ModeACP, Since: "0.0.397", Format: "acp", Resumes: true, Command: acpCommand("--stdio")},
			{Name: ModeJSON, Since: "0.0.422", Format: "copilot-json", Resumes: true, Command: copilotJSON, UsageFromTranscript: true},
		},
		MapTool: copilotTool,
		// Its streams tell a failed request's status late or never (429
		// over ACP: a minute, when it gives up); its process log at once.
		DebugLog:  copilotDebugLog,
		Verified:  [2]string{"1.0.87", "1.0.102"}, // make drift, 2026-11-25
		KnownHelp: copilotKnownHelp,
		Releases:  copilotReleases, Packages: []string{"@github/copilot"}, Updated: copilotUpdated,
		TUI: &TUI{LogEndsTurns: true, Args: copilotTUI, NewSession: newUUID, Transcript: copilotTranscript, Env: copilotEnv,
			ModeName: func(l Launch) string {
				if l.Mode == permission.Auto {
					return "copilot --allow-all-tools"
				}
				return "copilot manual approval"
			}},
	})
}

// copilotTUI: Copilot asks for every tool unless told otherwise, so only
// auto says --allow-all-tools. The session id is both how a new session is
// named and how an old one is resumed. The prompt is the value of
// --interactive=, which is never read as an option.
func copilotTUI(l Launch) ([]string, error) {
	var args []string
	if l.Mode == permission.Auto {
		if !hasFlag(l.Help, "--allow-all-tools") {
			return nil, errors.New("`copilot --help` lists no --allow-all-tools: use --permission-mode default")
		}
		args = append(args, "--allow-all-tools")
	}
	if err := checkLaunchSession("copilot", l); err != nil {
		return nil, err
	}
	if l.Session != "" {
		flag := "--session-id"
		if !hasFlag(l.Help, flag) {
			flag = "--resume"
		}
		args = append(args, flag, l.Session)
	}
	args = appendFlag(args, "--model", l.Model)
	if l.Prompt != "" {
		args = append(args, "--interactive="+l.Prompt)
	}
	return args, nil
}

// copilotEnv turns off COPILOT_ALLOW_ALL, which would let every tool run
// unasked, unless yume-cli's mode is auto.
func copilotEnv(l Launch) []string {
	if l.Mode == permission.Auto {
		return nil
	}
	return []string{"COPILOT_ALLOW_ALL=false"}
}

func copilotJSON(r Request) Invocation {
	args := []string{"--prompt=" + r.Prompt, "--output-format", "json"}
	if r.Auto {
		args = append(args, "--allow-all-tools")
	}
	args = appendFlag(args, "--model", r.Model)
	if r.Resume == "" && hasFlag(r.Help, "--session-id") {
		// A new session named by yume-cli: resumable even if this turn is
		// killed before Copilot reports its id (at its result).
		id := newUUID()
		return Invocation{Args: append(args, "--session-id", id), Session: id}
	}
	return Invocation{Args: appendFlag(args, "--resume", r.Resume)}
}

// hiddenCopilotTools are bookkeeping calls that are not work the user
// should see (report_intent only sets the status line).
var hiddenCopilotTools = map[string]bool{"report_intent": true}

// copilotTool maps a Copilot CLI tool call to a Claude tool name and input;
// "" hides a bookkeeping call.
func copilotTool(name string, a map[string]any) (string, map[string]any) {
	if hiddenCopilotTools[name] {
		return "", nil
	}
	switch name {
	case "bash", "powershell":
		return "Bash", pick(a, "command", "description")
	case "view":
		return "Read", renamed(pick(a, "path"), "path", "file_path")
	case "create":
		in := renamed(pick(a, "path", "file_text"), "path", "file_path")
		return "Write", renamed(in, "file_text", "content")
	case "edit", "str_replace", "str_replace_editor":
		in := renamed(pick(a, "path", "old_str", "new_str"), "path", "file_path")
		return "Edit", renamed(renamed(in, "old_str", "old_string"), "new_str", "new_string")
	case "glob":
		return "Glob", pick(a, "pattern", "path")
	case "grep", "rg":
		in := pick(a, "pattern", "path", "glob", "output_mode")
		if _, ok := in["path"]; !ok {
			if ps, ok := a["paths"].([]any); ok && len(ps) > 0 {
				in["path"] = ps[0]
			}
		}
		return "Grep", in
	case "web_fetch", "fetch":
		return "WebFetch", pick(a, "url", "prompt")
	case "web_search":
		return "WebSearch", pick(a, "query")
	case "update_todo":
		return "TodoWrite", map[string]any{"todos": Todos(a["todos"], "content")}
	case "task":
		return "Task", pick(a, "description", "prompt", "agent_type")
	}
	return name, a
}

// copilotKnownHelp is what Args and the modes read of `copilot --help`, as
// 1.0.102 prints it (Provider.KnownHelp).
const copilotKnownHelp = `      --session-id <id>
          Resume an existing session or task by ID, or set the UUID
          for a new session
      --allow-all-tools
          Allow all tools to run automatically without confirmation;
          required for non-interactive mode. Run ` + "`copilot help environment`" + `
          for what COPILOT_ALLOW_ALL accepts and what exact "true" grants [env: COPILOT_ALLOW_ALL=]
`

// copilotUpdated: Copilot CLI's npm package runs the newest release in its
// cache ($XDG_CACHE_HOME/copilot/pkg/PLATFORM/VERSION), where it unpacks
// itself and its updates: 1.0.87 with 1.0.102 there is 1.0.102.
func copilotUpdated(getenv func(string) string) []string {
	cache := getenv("XDG_CACHE_HOME")
	if cache == "" {
		home := getenv("HOME")
		if home == "" {
			return nil
		}
		cache = filepath.Join(home, ".cache")
	}
	dirs, _ := filepath.Glob(filepath.Join(cache, "copilot", "pkg", "*"))
	return dirs
}
