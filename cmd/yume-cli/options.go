package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/background"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/settings"
)

// StartOptions holds everything the start command (and the bare root
// command, which is what Yume's spawner calls) was asked to do.
type StartOptions struct {
	IO *IOStreams

	Provider       string
	Model          string
	Cwd            string
	Resume         string
	HistoryFile    string
	APIBase        string
	Prompt         string
	OutputFormat   string
	Verbose        bool
	PermissionMode string
	Mode           string
	Protocol       string
	SessionID      string
	RulesFile      string
	DangerFile     string // --dangerous-rules: adds to or overrides the dangerous set
	dangers        *permission.Dangers
	// From the settings file (settings.go): the file, the settings in
	// force with where each came from, who answers for nobody, and
	// whether --permission-mode was given (no_channel: auto yields to it).
	settings  *settings.Settings
	rows      []settingRow
	noChannel permission.Fallback
	// trustFolders answers an agent's "trust this folder?" (settings).
	trustFolders string
	modeGiven    bool
	RecordFile   string
	RecordRaw    bool // keep secrets in the --record cast
	Trace        bool
	TraceFile    string
	Bin          string
	binFrom      string // where Bin was given: "--bin", the settings file's line
	Cols, Rows   int
	IdleTimeout  time.Duration
	TurnTimeout  time.Duration
	ToolTimeout  time.Duration
	Command      []string // after "--"

	colsSet bool // --cols was given: a provider's own width does not apply

	// Yume's background agents (background.go): the agent's role, the
	// AgentOutput file, progress lines on stderr, the branch to work on.
	AgentType  string
	OutputFile string
	Async      bool
	GitBranch  string
	// autoGuard says when auto mode keeps the guard's list (auto_guard:
	// on, always, off; see autoGuardHolds): the CLI then runs in its
	// asking mode and yume-cli approves all but what the guard flags.
	autoGuard string
	// driven is the provider as this run drives it (driven.go); nil
	// until the run starts: the registry's descriptor.
	driven *providers.Provider
	// newer are the flags of a newer Yume this yume-cli ignored.
	newer []string
	// recorder keeps the AgentOutput and says progress (nil: neither).
	recorder *background.Recorder
	// outputDone: --output-file was written.
	outputDone bool
	// started is when the run started (the AgentOutput's duration).
	started time.Time
}

// provider is the descriptor of --provider, which validate checked: as
// the run drives it once it started.
func (o *StartOptions) provider() *providers.Provider {
	if o.driven != nil {
		return o.driven
	}
	p, _ := providers.Lookup(o.Provider)
	return p
}

// Enumerated flag values; the first of each is the default.
var (
	outputFormats = []string{"stream-json"}
	modes         = []string{"auto", "pty", "json", "acp"}
	protocols     = []string{"claude", "flat"}
)

// usageError is a mistake in how yume-cli was called: exit code 2.
type usageError struct {
	msg  string
	help string // the command whose --help to point at ("" = yume-cli)
}

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{msg: fmt.Sprintf(format, a...)} }

func oneOf(flag, v string, allowed []string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return usagef("invalid value %q for --%s: use one of %s", v, flag, strings.Join(allowed, ", "))
}

// providerEnv is what the provider's program gets on top of yume-cli's
// environment from the options: its API endpoint (--api-base).
func (o *StartOptions) providerEnv() []string {
	// No program yume-cli drives updates itself under it (providers.NoSelfUpdate).
	env := providers.NoSelfUpdate(os.Getenv)
	if o.APIBase == "" || o.provider().BaseURLEnv == "" {
		return env // none, or it goes into the provider's own config
	}
	return append(env, o.provider().BaseURLEnv+"="+o.APIBase)
}

// validate checks what can be checked without starting anything.
func (o *StartOptions) validate() error {
	checks := []struct {
		flag, v string
		allowed []string
	}{
		{"output-format", o.OutputFormat, outputFormats},
		{"permission-mode", o.PermissionMode, permission.Names()},
		{"mode", o.Mode, modes},
		{"protocol-version", o.Protocol, protocols},
	}
	for _, c := range checks {
		if err := oneOf(c.flag, c.v, c.allowed); err != nil {
			return err
		}
	}
	if o.Provider == "" {
		if len(o.Command) == 0 {
			return usagef("no provider: pass --provider NAME (one of %s), or -- CMD ARGS… for any program", strings.Join(providers.Names(), ", "))
		}
		o.Provider = providers.Generic
	}
	p, err := lookupProvider(o.Provider)
	if err != nil {
		return err
	}
	if (o.Mode == providers.ModeJSON || o.Mode == providers.ModeACP) && len(p.Structured) == 0 {
		return usagef("--mode %s works with %s; %s runs in a PTY (--mode pty or auto)", o.Mode, strings.Join(providers.WithStructured(), ", "), p.Name)
	}
	if p.Bin == "" && len(o.Command) == 0 {
		return usagef("--provider %s needs the program to run: yume-cli --provider %s -- CMD ARGS…", p.Name, p.Name)
	}
	if o.Mode == "pty" && p.Profile == "" {
		return usagef("%s has no PTY mode: use --mode %s", p.Name, strings.Join(p.Modes(""), " or --mode "))
	}
	if o.Cols < 20 || o.Cols > 1000 || o.Rows < 5 || o.Rows > 1000 {
		return usagef("window size %dx%d is out of range: --cols 20..1000, --rows 5..1000", o.Cols, o.Rows)
	}
	if o.APIBase != "" {
		if u, err := url.Parse(o.APIBase); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return usagef("--api-base %q is not an http(s) URL: pass the endpoint's base URL, e.g. https://proxy.example/v1", o.APIBase)
		}
		if p.BaseURLEnv == "" && p.APIBaseCheck == nil {
			return usagef("--api-base: %s has no setting for its API endpoint; drop the flag", p.Name)
		}
		if p.APIBaseCheck != nil {
			if err := p.APIBaseCheck(o.Model); err != nil {
				return usagef("%v", err)
			}
		}
	}
	if err := o.checkAgentType(); err != nil {
		return err
	}
	if o.Cwd == "" {
		o.Cwd = "."
	}
	if st, err := os.Stat(o.Cwd); err != nil || !st.IsDir() {
		return usagef("--cwd %s is not a directory: pass an existing project directory", o.Cwd)
	}
	return o.loadDangers()
}

// loadDangers builds the session's dangerous-command set: the embedded
// one, the settings file's rules and exceptions, --dangerous-rules on
// top, judging paths against --cwd.
func (o *StartOptions) loadDangers() error {
	cwd, err := filepath.Abs(o.Cwd)
	if err != nil {
		return usagef("--cwd %s: %v", o.Cwd, err)
	}
	o.dangers = permission.DefaultDangers()
	if o.settings != nil {
		o.dangers = o.dangers.With(o.settings.Rules()).Excepting(o.settings.Exceptions())
	}
	o.dangers = o.dangers.In(cwd)
	if o.DangerFile == "" {
		return nil
	}
	data, err := os.ReadFile(o.DangerFile)
	if err != nil {
		return usagef("--dangerous-rules: %v", err)
	}
	extra, err := permission.ParseDangers(o.DangerFile, data)
	if err != nil {
		return usagef("--dangerous-rules: %v", err)
	}
	o.dangers = o.dangers.With(extra)
	return nil
}

// lookupProvider finds a provider by name or alias, or says which exist.
func lookupProvider(name string) (*providers.Provider, error) {
	p, ok := providers.Lookup(name)
	if !ok {
		if guess := didYouMean(name, providers.Names()); guess != "" {
			return nil, usagef("unknown provider %q: did you mean %q? (the providers: %s)", name, guess, strings.Join(providers.Names(), ", "))
		}
		return nil, usagef("unknown provider %q: use one of %s", name, strings.Join(providers.Names(), ", "))
	}
	return p, nil
}
