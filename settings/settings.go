// Package settings reads yume-cli's settings file, $YUME_HOME/settings.yaml
// (YUME_HOME defaulting to ~/.yume, as for the session store). Yume starts
// yume-cli with no flag but the ones of its spawn line, and an app started
// from the Dock never sees a variable set in a shell profile: this file is
// how its user chooses what happens with no approval channel, adds guard
// rules and exceptions, and sets what a flag would (a provider's program,
// its environment, the timeouts). A flag wins over a variable, which wins
// over the file, which wins over the default; the caller (cmd/yume-cli)
// applies that order. Every value keeps the line it was read from, so what
// is in force can say where it came from.
package settings

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/yume-cli/yume-cli/permission"
)

// FileName is the settings file's name under YUME_HOME.
const FileName = "settings.yaml"

// DefaultPath is $YUME_HOME/settings.yaml, else ~/.yume/settings.yaml.
func DefaultPath() string {
	if h := os.Getenv("YUME_HOME"); h != "" {
		return filepath.Join(h, FileName)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(".yume", FileName)
	}
	return filepath.Join(home, ".yume", FileName)
}

// Settings is what the file says. A Value's Line is 0 when the file does
// not set it.
type Settings struct {
	// File is the file read; Found says whether it was there.
	File  string
	Found bool

	NoChannel Value
	// TrustFolders answers an agent's "trust this folder?" question: ask
	// (the GUI; with no channel the turn ends saying so), yes or no.
	TrustFolders                          Value
	IdleTimeout, TurnTimeout, ToolTimeout Value
	// Path lists directories put before PATH (for the provider CLIs and
	// the programs they start: node for a #!/usr/bin/env node script).
	Path []Value
	// Env is set for every provider CLI; Providers' own Env wins over it.
	Env       []Var
	Providers map[string]*Provider // by the provider's name
	// Block adds guard rules (or turns embedded ones off, by name);
	// Allow makes exceptions.
	Block []Rule
	Allow []Exception
}

// Value is one value with the line it was set on.
type Value struct {
	Text string
	Line int
}

// Set reports whether the file sets the value.
func (v Value) Set() bool { return v.Line > 0 }

// Var is an environment variable the file sets.
type Var struct {
	Name, Value string
	Line        int
}

// Provider is what the file says about one provider.
type Provider struct {
	Bin Value
	Env []Var
}

// Rule is a guard rule with its line.
type Rule struct {
	permission.DangerRule
	Line int
}

// Exception is a guard exception with its line.
type Exception struct {
	permission.Exception
	Line int
}

// Where names the place a line of the file is, for messages.
func (s *Settings) Where(line int) string { return s.File + ":" + strconv.Itoa(line) }

// Load reads the file at path; a missing file is no settings at all.
// A malformed one is an *Error naming each problem's line.
func Load(path string) (*Settings, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Settings{File: path, Providers: map[string]*Provider{}}, nil
	}
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Rules are the guard rules the file adds.
func (s *Settings) Rules() []permission.DangerRule {
	out := make([]permission.DangerRule, len(s.Block))
	for i, r := range s.Block {
		out[i] = r.DangerRule
	}
	return out
}

// Exceptions are the guard exceptions the file makes.
func (s *Settings) Exceptions() []permission.Exception {
	out := make([]permission.Exception, len(s.Allow))
	for i, a := range s.Allow {
		out[i] = a.Exception
	}
	return out
}

// Provider returns what the file says about provider name (never nil).
func (s *Settings) Provider(name string) *Provider {
	if p := s.Providers[name]; p != nil {
		return p
	}
	return &Provider{}
}
