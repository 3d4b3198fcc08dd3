package providers

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A key a person exports in a shell profile reaches a CLI started from a
// terminal, never one an app started from the Dock or Finder starts (its
// environment is launchd's). yume-cli says so, and where to put the key
// instead, rather than letting the CLI fail on a missing login.

// Export is a variable a shell profile exports: its name and where. Its
// value is never read into it.
type Export struct {
	Name string
	File string // as a person writes it: ~/.zshrc
	Line int
}

// profileFiles are the shell startup files people export variables in,
// relative to HOME (fish's conf.d is read too).
var profileFiles = []string{".zshenv", ".zprofile", ".zshrc", ".zlogin", ".bash_profile", ".bash_login", ".profile", ".bashrc",
	".config/fish/config.fish"}

// ShellExports lists where the shell profiles under home export any of
// names, in profileFiles' order.
func ShellExports(home string, names []string) []Export {
	if home == "" || len(names) == 0 {
		return nil
	}
	files := slices.Clone(profileFiles)
	if more, _ := filepath.Glob(filepath.Join(home, ".config", "fish", "conf.d", "*.fish")); len(more) > 0 {
		for _, m := range more {
			if rel, err := filepath.Rel(home, m); err == nil {
				files = append(files, filepath.ToSlash(rel))
			}
		}
	}
	var out []Export
	for _, f := range files {
		for _, e := range fileExports(filepath.Join(home, filepath.FromSlash(f)), names) {
			e.File = "~/" + f
			out = append(out, e)
		}
	}
	return out
}

func fileExports(path string, names []string) []Export {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []Export
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		for _, name := range exportedOn(sc.Text()) {
			if slices.Contains(names, name) {
				out = append(out, Export{Name: name, Line: n})
			}
		}
	}
	return out
}

// exportedOn lists the variables a shell line exports: `export A=1 B`,
// `declare -x A=1`, `typeset -gx A`, fish's `set -gx A value`; in any of
// the commands of the line (cut at ; && || |), after a leading `then`,
// `do` or `{`. A comment is no export.
func exportedOn(line string) []string {
	line = strings.TrimSpace(line)
	if line == "" || line[0] == '#' {
		return nil
	}
	if i := strings.Index(line, " #"); i >= 0 {
		line = line[:i] // a comment after the command
	}
	var out []string
	for _, cmd := range strings.FieldsFunc(line, func(r rune) bool { return r == ';' || r == '&' || r == '|' }) {
		f := strings.Fields(cmd)
		for len(f) > 0 && slices.Contains([]string{"then", "do", "else", "{", "(", "!"}, f[0]) {
			f = f[1:]
		}
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "export":
			out = append(out, assigned(f[1:])...)
		case "declare", "typeset":
			if hasShortFlag(f[1:], 'x') {
				out = append(out, assigned(f[1:])...)
			}
		case "set": // fish: set [-g|-U] -x NAME VALUE…
			if !hasShortFlag(f[1:], 'x') && !slices.Contains(f[1:], "--export") {
				continue
			}
			for _, w := range f[1:] {
				if !strings.HasPrefix(w, "-") {
					out = append(out, w)
					break
				}
			}
		}
	}
	return out
}

// assigned are the names of `NAME=value` and `NAME` words, options left out.
func assigned(words []string) []string {
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, "-") {
			continue
		}
		name, _, _ := strings.Cut(w, "=")
		if varNameRE(name) {
			out = append(out, name)
		}
	}
	return out
}

func varNameRE(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func hasShortFlag(words []string, flag rune) bool {
	for _, w := range words {
		if strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.ContainsRune(w[1:], flag) {
			return true
		}
	}
	return false
}

// KeyInProfile is the shell profile export that holds p's only
// credentials: yume-cli's check finds none where the CLI looks (getenv is
// the environment it runs with, the settings file's included), and a
// profile exports one of the variables p reads. ok is false otherwise.
func (p *Provider) KeyInProfile(getenv func(string) string, home string) (e Export, ok bool) {
	c := p.Credentials
	if c.Fix == "" || len(c.Env) == 0 || c.find(getenv, home) != "" {
		return Export{}, false
	}
	ex := ShellExports(home, c.Env)
	if len(ex) == 0 {
		return Export{}, false
	}
	return ex[0], true
}

// ProfileKeyError says that p's key lives only in a shell profile, where
// a CLI Yume starts never sees it, and where to put it instead: the
// settings file's env, the CLI's own settings or .env file, or its login.
func (p *Provider) ProfileKeyError(e Export, settingsFile string) error {
	return fmt.Errorf("%s finds no credentials when Yume starts it: %s is exported in %s (line %d), and an app started from the Dock or Finder never reads a shell profile. %s",
		p.Name, e.Name, e.File, e.Line, p.profileKeyFix(e, settingsFile))
}

// profileKeyFix says where to put a key a shell profile exports so that
// p finds it when Yume starts it: each place is one KeyInProfile (through
// find) looks in.
func (p *Provider) profileKeyFix(e Export, settingsFile string) string {
	c := p.Credentials
	settingsFile = orWord(settingsFile, "~/.yume/settings.yaml")
	var b strings.Builder
	fmt.Fprintf(&b, "Put it where %s finds it: under providers.%s.env in %s (%s: your key)", p.Name, p.Name, settingsFile, e.Name)
	switch {
	case len(c.EnvFiles) > 0:
		fmt.Fprintf(&b, ", or as %s=… in %s, which %s reads", e.Name, tilde(c.EnvFiles[0]), p.Name)
	case c.SettingsEnv != "":
		fmt.Fprintf(&b, `, or under "env" in %s ("%s": "…"), which %s reads`, tilde(c.SettingsEnv), e.Name, p.Name)
	}
	if c.Login != "" {
		fmt.Fprintf(&b, "; or log %s in for good: %s", p.Name, strings.ReplaceAll(c.Login, "{var}", e.Name))
	} else {
		fmt.Fprintf(&b, "; or: %s", c.Fix)
	}
	b.WriteString(".")
	return b.String()
}

func tilde(rel string) string {
	if filepath.IsAbs(rel) {
		return rel
	}
	return "~/" + rel
}
