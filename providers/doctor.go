package providers

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Status is what doctor knows about one provider CLI. It never holds a
// secret: credentials are reported by where they were found.
type Status struct {
	Name      string `json:"name"`
	Installed bool   `json:"installed"`
	Path      string `json:"path,omitempty"`
	Version   string `json:"version,omitempty"`
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
// is installed, its version and modes, whether credentials appear
// configured, and what to run to fix what is missing. It runs each CLI's
// --version and reads no secret.
func Doctor(ctx context.Context) []Status { return DoctorWith(ctx, nil) }

// Setup is what a run of a provider sees beyond yume-cli's own
// environment (the settings file's): the program to run ("" = its own
// name, in PATH) and how a variable is read (nil = os.Getenv).
type Setup func(provider string) (bin string, getenv func(string) string)

// DoctorWith is Doctor for runs set up by setup (nil: none).
func DoctorWith(ctx context.Context, setup Setup) []Status {
	home, _ := os.UserHomeDir()
	return doctor(ctx, os.Getenv, home, exec.LookPath, setup)
}

func doctor(ctx context.Context, getenv func(string) string, home string, lookPath func(string) (string, error), setup Setup) []Status {
	var out []Status
	for _, p := range All() {
		if p.Bin == "" {
			continue // generic: the user names the program
		}
		bin, env := "", getenv
		if setup != nil {
			var g func(string) string
			if bin, g = setup(p.Name); g != nil {
				env = g
			}
		}
		out = append(out, p.status(ctx, env, home, lookPath, bin))
	}
	return out
}

func (p *Provider) status(ctx context.Context, getenv func(string) string, home string, lookPath func(string) (string, error), bin string) Status {
	st := Status{Name: p.Name, Modes: []string{}}
	path, err := lookPath(p.Program(bin))
	if err != nil && bin != "" {
		st.Problems = append(st.Problems, bin+" (its bin in the settings file) is not there or not executable")
		st.Fix = append(st.Fix, "correct providers."+p.Name+".bin, or "+p.InstallHint())
	} else if err != nil {
		st.Problems = append(st.Problems, p.Bin+" is not in PATH")
		st.Fix = append(st.Fix, p.InstallHint())
	} else {
		st.Installed, st.Path = true, path
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
