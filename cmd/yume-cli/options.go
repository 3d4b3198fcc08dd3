package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/run"
)

// StartOptions are the start command's flags (and the bare root
// command's, which is what Yume's spawner calls): validate checks them
// and types them into the run.Config they embed, which run.Start owns.
type StartOptions struct {
	run.Config

	// As given, before validate types them into the Config.
	ProviderName   string // --provider
	PermissionMode string // --permission-mode
	ProtocolName   string // --protocol-version
	OutputFormat   string
	DangerFile     string // --dangerous-rules: adds to or overrides the dangerous set
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

// validate checks what can be checked without starting anything.
func (o *StartOptions) validate() error {
	checks := []struct {
		flag, v string
		allowed []string
	}{
		{"output-format", o.OutputFormat, outputFormats},
		{"permission-mode", o.PermissionMode, permission.Names()},
		{"mode", o.Mode, modes},
		{"protocol-version", o.ProtocolName, protocols},
	}
	for _, c := range checks {
		if err := oneOf(c.flag, c.v, c.allowed); err != nil {
			return err
		}
	}
	if o.ProviderName == "" {
		if len(o.Command) == 0 {
			return usagef("no provider: pass --provider NAME (one of %s), or -- CMD ARGS… for any program", strings.Join(providers.Names(), ", "))
		}
		o.ProviderName = providers.Generic
	}
	p, err := lookupProvider(o.ProviderName)
	if err != nil {
		return err
	}
	o.Provider = p
	o.Permission = permission.Mode(o.PermissionMode) // one of permission.Names(), checked above
	o.Protocol, _ = emit.ParseProtocol(o.ProtocolName)
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
	if o.AgentType != "" {
		name, ok := run.AgentTypeOf(o.AgentType)
		if !ok {
			return usagef("invalid value %q for --agent-type: use one of %s (yume-%s and the like too)", o.AgentType, strings.Join(run.AgentTypes(), ", "), run.AgentTypes()[0])
		}
		o.AgentType = name
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
	o.Dangers = permission.DefaultDangers()
	if o.Settings != nil {
		o.Dangers = o.Dangers.With(o.Settings.Rules()).Excepting(o.Settings.Exceptions())
	}
	o.Dangers = o.Dangers.In(cwd)
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
	o.Dangers = o.Dangers.With(extra)
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
