package providers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Status is what doctor knows about one provider CLI. It never holds a
// secret: credentials are reported by where they were found.
type Status struct {
	Name      string `json:"name"`
	Installed bool   `json:"installed"`
	Path      string `json:"path,omitempty"`
	// Found says how the program was found ("PATH", "nvm v22.11.0",
	// "Homebrew", "--bin"), and Interpreter the folder of the node a
	// script found outside PATH runs with.
	Found       string `json:"found,omitempty"`
	Interpreter string `json:"interpreter,omitempty"`
	// FromYume is how a run Yume starts from the Dock or Finder (launchd's
	// PATH, the settings file's variables and nothing else) finds it; ""
	// when it does not (said in Problems) or was not asked.
	FromYume string `json:"from_yume,omitempty"`
	Version  string `json:"version,omitempty"`
	// Modes are the modes this version supports, best first ("acp",
	// "json", then "pty", which every installed CLI has).
	Modes []string `json:"modes"`
	// Credentials is true when an API key, token or login file is present
	// (presence only: nothing is checked over the network).
	Credentials      bool   `json:"credentials"`
	CredentialSource string `json:"credential_source,omitempty"`
	// Problems and Fix say what is wrong and what to run about it.
	Problems []string `json:"problems,omitempty"`
	Fix      []string `json:"fix,omitempty"`
}

// Doctor reports, for every provider with a program of its own, whether it
// is installed, where it was found and how, its version and modes, whether
// credentials appear configured, and what to run to fix what is missing.
// It runs each CLI's --version and reads no secret.
func Doctor(ctx context.Context) []Status { return DoctorWith(ctx, DoctorSetup{}) }

// DoctorSetup is what a run of a provider sees beyond yume-cli's own
// environment: the settings file's.
type DoctorSetup struct {
	// Run is the program given for provider ("" = its own name) and
	// where it was given, and how a run reads a variable (nil: getenv);
	// nil: none given.
	Run func(provider string) (bin, from string, getenv func(string) string)
	// Yume is how a run Yume starts from the Dock or Finder reads a
	// variable (launchd's PATH, the settings file's variables); nil: not
	// checked.
	Yume func(provider string) func(string) string
	// Settings is the settings file, named in what to fix.
	Settings string
}

// DoctorWith is Doctor for runs set up as setup says.
func DoctorWith(ctx context.Context, setup DoctorSetup) []Status {
	home, _ := os.UserHomeDir()
	return doctor(ctx, Search{Getenv: os.Getenv, Home: home, Settings: setup.Settings, GOOS: runtime.GOOS}, setup)
}

func doctor(ctx context.Context, s Search, setup DoctorSetup) []Status {
	var out []Status
	for _, p := range All() {
		if p.Bin == "" {
			continue // generic: the user names the program
		}
		run, bin, from := s, "", ""
		if setup.Run != nil {
			var g func(string) string
			if bin, from, g = setup.Run(p.Name); g != nil {
				run.Getenv = g
			}
		}
		st := p.status(ctx, run, bin, from)
		if setup.Yume != nil {
			yume := s
			yume.Getenv = setup.Yume(p.Name)
			p.fromYume(&st, yume, bin, from)
		}
		out = append(out, st)
	}
	return out
}

// fromYume adds what a run Yume starts would miss: the program (found
// here only through this terminal's PATH or variables), or a key only a
// shell profile exports.
func (p *Provider) fromYume(st *Status, yume Search, bin, from string) {
	prog, err := yume.Locate(p, bin, from)
	var nf *NotInstalledError
	switch {
	case err == nil:
		st.FromYume = prog.How
	case !st.Installed:
	case errors.As(err, &nf):
		st.Problems = append(st.Problems, "Yume started from the Dock or Finder would not find it (with launchd's PATH, "+yume.Getenv("PATH")+")")
		st.Fix = append(st.Fix, "set providers."+p.Name+".bin to "+st.Path+" in "+orWord(yume.Settings, "the settings file"))
	default:
		st.Problems = append(st.Problems, "started by Yume from the Dock or Finder: "+err.Error())
		st.Fix = append(st.Fix, "add the folder that holds its interpreter under path: in "+orWord(yume.Settings, "the settings file"))
	}
	if e, ok := p.KeyInProfile(yume.Getenv, yume.Home); ok {
		st.Problems = append(st.Problems, fmt.Sprintf("when Yume starts it, %s is unset: only %s (line %d) exports it, and an app started from the Dock or Finder never reads a shell profile", e.Name, e.File, e.Line))
		st.Fix = append(st.Fix, p.profileKeyFix(e, yume.Settings))
	}
}

func (p *Provider) status(ctx context.Context, s Search, bin, from string) Status {
	st := Status{Name: p.Name, Modes: []string{}}
	getenv, home := s.Getenv, s.Home
	prog, err := s.Locate(p, bin, from)
	var nf *NotInstalledError
	switch {
	case errors.As(err, &nf) && nf.Given != "":
		st.Problems = append(st.Problems, nf.Name+" ("+nf.Given+") is not there or not executable")
		st.Fix = append(st.Fix, "correct it, or "+p.InstallHint())
	case errors.As(err, &nf):
		st.Problems = append(st.Problems, p.Bin+" is not installed where yume-cli looks (PATH, npm's global folder, nvm, fnm, Volta, asdf, Homebrew, ~/.local/bin, bun, pnpm, cargo, go)")
		st.Fix = append(st.Fix, p.InstallHint())
	case err != nil: // found, but its interpreter is not
		st.Installed, st.Path, st.Found = true, prog.Path, prog.How
		st.Problems = append(st.Problems, err.Error())
		st.Fix = append(st.Fix, "install Node.js, or add the folder that holds node under path: in the settings file")
	default:
		st.Installed, st.Path, st.Found, st.Interpreter = true, prog.Path, prog.How, prog.InterpreterDir
		path := prog.Path
		if prog.InterpreterDir != "" {
			defer withPATH(prog.InterpreterDir)()
		}
		st.Modes = []string{"pty"}
		if len(p.Structured) > 0 {
			v, err := DetectVersion(ctx, path)
			if err != nil {
				st.Problems = append(st.Problems, err.Error())
				st.Fix = append(st.Fix, "reinstall it: "+p.InstallHint())
			}
			st.Version = v
			if !p.VerifiedOn(v) {
				st.Problems = append(st.Problems, fmt.Sprintf("version %s is outside the releases yume-cli was verified on (%s to %s): its screens or flags may have changed", v, p.Verified[0], p.Verified[1]))
				st.Fix = append(st.Fix, "check it with `make drift` (DRIFT_CLIS="+p.Name+"), or install a verified release")
			}
			st.Modes = p.Modes(v)
			if p.Profile != "" || p.TUI != nil {
				st.Modes = append(st.Modes, "pty")
			}
			if len(p.Modes(v)) == 0 {
				st.Problems = append(st.Problems, "this version has no JSON or ACP mode; only the PTY mode works")
				st.Fix = append(st.Fix, "update it: "+p.InstallHint())
			}
		}
	}
	if p.Credentials.Fix == "" {
		return st // nothing to log in to, or nothing yume-cli can check
	}
	st.CredentialSource = p.Credentials.find(getenv, home)
	st.Credentials = st.CredentialSource != ""
	if !st.Credentials {
		st.Problems = append(st.Problems, "no credentials found ("+p.Credentials.where()+")")
		st.Fix = append(st.Fix, p.Credentials.Fix)
	}
	return st
}

// withPATH adds dir to this process's PATH until restore is called: the
// interpreter a program found outside PATH needs, for its --version.
// Doctor asks one program at a time.
func withPATH(dir string) (restore func()) {
	old, had := os.LookupEnv("PATH")
	_ = os.Setenv("PATH", strings.TrimPrefix(old+string(filepath.ListSeparator)+dir, string(filepath.ListSeparator))) // Best effort: the probe then says what it misses.
	return func() {
		if had {
			_ = os.Setenv("PATH", old) // Best effort, as above.
		} else {
			_ = os.Unsetenv("PATH")
		}
	}
}

// find says where credentials were found ("env GEMINI_API_KEY",
// "~/.codex/auth.json"), or "" when none were.
func (c Credentials) find(getenv func(string) string, home string) string {
	for _, k := range c.Env {
		if getenv(k) != "" {
			return "env " + k
		}
	}
	files := c.Files
	if c.HomeEnv != "" && getenv(c.HomeEnv) != "" && len(files) > 0 {
		files = append([]string{filepath.Join(getenv(c.HomeEnv), filepath.Base(files[0]))}, files...)
	}
	for _, f := range files {
		path := f
		if !filepath.IsAbs(f) {
			if home == "" {
				continue
			}
			path = filepath.Join(home, f)
		}
		if hasLogin(path, c.LoginKeys) {
			if filepath.IsAbs(f) {
				return f
			}
			return "~/" + f
		}
	}
	if home == "" {
		return ""
	}
	for _, f := range c.EnvFiles {
		if k := envFileSets(filepath.Join(home, f), c.Env); k != "" {
			return k + " in ~/" + f
		}
	}
	if c.SettingsEnv != "" {
		if k := settingsEnvSets(filepath.Join(home, c.SettingsEnv), c.Env); k != "" {
			return k + " in ~/" + c.SettingsEnv
		}
	}
	return ""
}

// envFileSets is the first of names a .env file sets to a value ("" when
// none); only names are reported.
func envFileSets(path string, names []string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimPrefix(strings.TrimSpace(line), "export ")
		k, v, ok := strings.Cut(line, "=")
		k, v = strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"'`)
		if ok && v != "" && slices.Contains(names, k) {
			return k
		}
	}
	return ""
}

// settingsEnvSets is the first of names a JSON settings file's "env"
// object sets ("" when none).
func settingsEnvSets(path string, names []string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var s struct {
		Env map[string]any `json:"env"`
	}
	if json.Unmarshal(b, &s) != nil {
		return ""
	}
	for _, k := range names {
		if v, ok := s.Env[k].(string); ok && v != "" {
			return k
		}
	}
	return ""
}

// hasLogin reports whether path exists and, for a .json config with
// loginKeys, has one of them set. Only key names are looked at.
func hasLogin(path string, loginKeys []string) bool {
	b, err := os.ReadFile(path)
	if err != nil || len(b) == 0 {
		return false
	}
	if filepath.Ext(path) != ".json" || len(loginKeys) == 0 || filepath.Base(path) == ".credentials.json" {
		return true
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(b, &top) != nil {
		return false
	}
	for _, k := range loginKeys {
		if v, ok := top[k]; ok && string(v) != "null" && string(v) != "[]" && string(v) != `""` {
			return true
		}
	}
	return false
}
