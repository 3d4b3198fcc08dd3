package providers

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/permission"
)

// opencode and Kilo Code CLI (a fork of opencode) over ACP (`opencode acp`,
// `kilo acp`). Both run shell commands and edits without asking by
// default, so yume-cli always sets their permission through their own
// variable (OPENCODE_PERMISSION, KILO_PERMISSION), which wins over the
// user's config files: ask in default, interactive and deny modes, allow
// in auto. The model and --api-base go in through their config-content
// variable, merged over the config files.
func init() {
	register(openCodeFamily(openCodeSpec{
		name: "opencode", title: "opencode", env: "OPENCODE", config: ".config/opencode/opencode.json",
		data:     ".local/share/opencode/auth.json",
		install:  "install it with `npm install -g opencode-ai` (or the native package opencode-linux-x64, opencode-darwin-arm64, …)",
		verified: [2]string{"1.18.32", "1.18.34"},     // e2e TestLiveAgents on 1.18.32, 1.18.33, 1.18.34, 2026-11-25
		packages: []string{"opencode-ai", "opencode"}, // the npm wrapper; the native builds (opencode-linux-x64)
	}))
	register(openCodeFamily(openCodeSpec{
		name: "kilo", title: "Kilo Code CLI", env: "KILO", config: ".config/kilo/kilo.json",
		data:     ".local/share/kilo/auth.json",
		install:  "install it with `npm install -g @kilocode/cli` (or the native package @kilocode/cli-linux-x64, …)",
		verified: [2]string{"7.7.2", "7.7.9"}, // e2e TestLiveAgents on 7.7.2, 7.7.7, 7.7.9, 2026-11-25
		packages: []string{"@kilocode/cli"},   // and its native builds (@kilocode/cli-linux-x64)
	}))
}

// openCodeSpec is what differs between opencode and its fork.
type openCodeSpec struct {
	name, title, env, config, data, install string
	verified                                [2]string
	packages                                []string
}

func openCodeFamily(s openCodeSpec) *Provider {
	return &Provider{
		Name:    s.name,
		Title:   s.title,
		Bin:     s.name,
		Profile: s.name,
		Install: s.install,
		Tools:   []string{"Bash", "Read", "Write", "Edit", "Glob", "Grep", "LS", "WebFetch", "TodoWrite", "Task"},
		Credentials: Credentials{
			// Provider keys it reads from the environment, its login store
			// and a config file (which may carry a provider's apiKey).
			Env:   []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "GEMINI_API_KEY", "OPENCODE_API_KEY"},
			Files: []string{s.data, s.config},
			Fix:   "run `" + s.name + " auth login`, or set your model provider's API key (e.g. ANTHROPIC_API_KEY)",
			Login: "run `" + s.name + " auth login` in a terminal",
		},
		Structured: []Mode{
			{Name: ModeACP, Since: "0.1.0", Format: "acp", Resumes: true, Command: openCodeACP(s.name, s.env),
				AutoName: s.env + "_PERMISSION " + openCodePermission(true), InputOmitsCache: true},
			// `run` without a terminal rejects every permission it would
			// ask: only auto and deny mode can use it.
			{Name: ModeJSON, Since: "0.1.0", Format: "opencode-json", Resumes: true, Command: openCodeRun(s.env),
				AutoName: s.env + "_PERMISSION " + openCodePermission(true), CannotAsk: true},
		},
		MapTool: openCodeTool,
		APIBaseCheck: func(model string) error {
			if _, _, ok := splitModel(model); !ok {
				return errors.New("--api-base with " + s.name + " needs --model PROVIDER/MODEL: the endpoint is set on that provider")
			}
			return nil
		},
		Verified: s.verified,
		// The release is read from the package (no process runs), and
		// what yume-cli reads of --help is the same in every release.
		Packages: s.packages, KnownHelp: openCodeKnownHelp,
		// Its TUI keeps its transcript in a database, read from the TUI's own
		// HTTP server (opencode_server.go; its CLI when the server does
		// not answer, opencode_transcript.go): the transcript gives each call exactly,
		// its whole output, the calls run without asking (auto mode is
		// its own allow-all), the turn's end and the session id to
		// continue; the screen says when it asks. (Wider than 120 columns
		// it adds a sidebar beside the chat, so the terminal keeps
		// yume-cli's default width.)
		TUI: &TUI{Args: openCodeTUI(s.name, s.env), Env: openCodeTUIEnv(s.name, s.env), Transcript: openCodeTranscript(s.name, s.env),
			LogEndsTurns: true, PromptTyped: openCodeTyped, ModeName: func(l Launch) string {
				return s.env + "_PERMISSION " + openCodePermission(l.Mode == permission.Auto)
			}},
	}
}

// openCodeTUI is the TUI's command line: the session to continue (an
// id the program picked, "ses_…"), the model, the prompt as the value of
// --prompt (submitted at start). With --session the TUI ignores --prompt
// (1.18.34, Kilo 7.7.9): the prompt is typed into its input box
// (openCodeTyped). A TUI that is started (l.Started set) gets a free
// loopback port for its server, from which its transcript is read
// (openCodeTranscript); without --port its server takes a random one.
func openCodeTUI(name, prefix string) func(Launch) ([]string, error) {
	return func(l Launch) ([]string, error) {
		var args []string
		if !l.Started.IsZero() {
			if port := openCodePort(name, prefix, l); port != 0 {
				args = append(args, "--port", strconv.Itoa(port), "--hostname", "127.0.0.1")
			}
		}
		if l.Resume {
			if !openCodeSession.MatchString(l.Session) {
				return nil, fmt.Errorf("%s not started: %q is not a %s session id (like ses_3f2a…)", name, l.Session, name)
			}
			args = append(args, "--session", l.Session)
		}
		args = appendFlag(args, "--model", l.Model)
		if l.Prompt != "" && !l.Resume {
			args = append(args, "--prompt="+l.Prompt)
		}
		return args, nil
	}
}

// openCodeTyped: a resumed session's prompt is typed, not given.
func openCodeTyped(l Launch) bool { return l.Resume }

// openCodeSession is the shape of a session id the TUI is given: a word
// (no path, no pattern, no option).
var openCodeSession = lazyre.New(`^[A-Za-z0-9_][A-Za-z0-9_-]*$`)

// openCodeTUIEnv makes the TUI ask before every shell command and edit,
// or (auto mode) run them all, sets the model and endpoint as the ACP
// mode does, and the password of its server (openCodePort).
func openCodeTUIEnv(name, prefix string) func(Launch) []string {
	return func(l Launch) []string {
		env := []string{prefix + "_PERMISSION=" + openCodePermission(l.Mode == permission.Auto)}
		if a := openCodePortOf(name, l); a.pass != "" {
			env = append(env, prefix+"_SERVER_USERNAME="+name, prefix+"_SERVER_PASSWORD="+a.pass)
		}
		if cfg := openCodeConfig(l.Model, l.APIBase); cfg != "" {
			env = append(env, prefix+"_CONFIG_CONTENT="+cfg)
		}
		return env
	}
}

// openCodeACP is `NAME acp` with the permission, model and endpoint set
// in the environment (`NAME acp` has no flags for them).
func openCodeACP(name, prefix string) func(Request) Invocation {
	return func(r Request) Invocation {
		env := []string{prefix + "_PERMISSION=" + openCodePermission(r.Auto)}
		if cfg := openCodeConfig(r.Model, r.APIBase); cfg != "" {
			env = append(env, prefix+"_CONFIG_CONTENT="+cfg)
		}
		return Invocation{Args: append([]string{"acp"}, openCodeLogs(r.Help)...), Env: env, KeepStdin: true}
	}
}

// openCodeKnownHelp is `NAME --help`'s lines on the flags the command lines
// use, as opencode 1.18.34 and Kilo 7.7.9 print them (Provider.KnownHelp):
// with the release read from the package, a first run probes nothing.
const openCodeKnownHelp = `      --print-logs    print logs to stderr                                                 [boolean]
      --log-level     log level                 [string] [choices: "DEBUG", "INFO", "WARN", "ERROR"]
`

// openCodeLogs has the program print its log on stderr, where yume-cli
// reads a failed model request ("stream error … error.error=…"): it
// retries a 429 or 500 for minutes with no word in its stream. Every
// release of both has the flags (warnings and errors only); their --help
// goes to stderr, where the probe does not read it, so they are not
// looked for there.
func openCodeLogs(string) []string { return []string{"--print-logs", "--log-level", "WARN"} }

// openCodeRun is `NAME run --format json`, the prompt on stdin (as an
// argument opencode would quote it), the session continued by --session.
func openCodeRun(prefix string) func(Request) Invocation {
	return func(r Request) Invocation {
		env := []string{prefix + "_PERMISSION=" + openCodePermission(r.Auto)}
		if cfg := openCodeConfig(r.Model, r.APIBase); cfg != "" {
			env = append(env, prefix+"_CONFIG_CONTENT="+cfg)
		}
		args := appendFlag(append([]string{"run", "--format", "json"}, openCodeLogs(r.Help)...), "--session", r.Resume)
		return Invocation{Args: args, Env: env, Stdin: r.Prompt}
	}
}

// openCodeTool maps an opencode (or Kilo) tool call to Claude's.
func openCodeTool(name string, a map[string]any) (string, map[string]any) {
	switch name {
	case "bash":
		return "Bash", pick(a, "command", "description", "timeout")
	case "read":
		return "Read", renamed(pick(a, "filePath", "offset", "limit"), "filePath", "file_path")
	case "write":
		return "Write", renamed(pick(a, "filePath", "content"), "filePath", "file_path")
	case "edit":
		in := renamed(pick(a, "filePath", "oldString", "newString", "replaceAll"), "filePath", "file_path")
		return "Edit", renamed(renamed(renamed(in, "oldString", "old_string"), "newString", "new_string"), "replaceAll", "replace_all")
	case "glob":
		return "Glob", pick(a, "pattern", "path")
	case "grep":
		return "Grep", renamed(pick(a, "pattern", "path", "include"), "include", "glob")
	case "list":
		return "LS", pick(a, "path")
	case "webfetch":
		return "WebFetch", pick(a, "url", "prompt")
	case "todowrite":
		return "TodoWrite", map[string]any{"todos": Todos(a["todos"], "content")}
	case "task":
		return "Task", pick(a, "description", "prompt", "subagent_type")
	}
	return name, a
}

// openCodePermission is the permission setting for yume-cli's mode: every
// shell command and edit asked about, or all of them allowed.
func openCodePermission(auto bool) string {
	v := "ask"
	if auto {
		v = "allow"
	}
	b, _ := json.Marshal(map[string]string{"bash": v, "edit": v})
	return string(b)
}

// openCodeConfig is the config content that selects model and points
// its provider at apiBase; "" when neither is set.
func openCodeConfig(model, apiBase string) string {
	cfg := map[string]any{}
	if model != "" {
		cfg["model"] = model
	}
	if provider, _, ok := splitModel(model); ok && apiBase != "" {
		cfg["provider"] = map[string]any{provider: map[string]any{"options": map[string]any{"baseURL": apiBase}}}
	}
	if len(cfg) == 0 {
		return ""
	}
	b, _ := json.Marshal(cfg)
	return string(b)
}

// splitModel splits opencode's "provider/model" (the model part may hold
// more slashes: "openrouter/anthropic/claude-sonnet-4").
func splitModel(model string) (provider, name string, ok bool) {
	provider, name, ok = strings.Cut(model, "/")
	return provider, name, ok && provider != "" && name != ""
}
