package providers

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSupports(t *testing.T) {
	cases := []struct {
		provider, version, mode string
		want                    bool
	}{
		{"copilot", "GitHub Copilot CLI 1.0.102.", "json", true},
		{"copilot", "0.0.421", "json", false},
		{"copilot", "0.0.400", "acp", true},
		{"copilot", "0.0.396", "acp", false},
		{"gemini", "0.61.0", "acp", true},
		{"gemini", "0.10.0", "json", false},
		{"claude", "2.1.197 (Claude Code)", "json", true},
		{"claude", "2.1.197", "acp", false},
		{"codex", "codex-cli 0.169.0", "json", true},
		{"codex", "0.169.0", "acp", false},
		{"codex", "", "json", true}, // unknown version: assume current
		{"aider", "1.0.0", "json", false},
		{"gemini", "0.61.0", "pty", false},
	}
	for _, c := range cases {
		p, _ := Lookup(c.provider)
		if got := slices.Contains(p.Modes(c.version), c.mode); got != c.want {
			t.Errorf("Supports(%q, %q, %q) = %v, want %v", c.provider, c.version, c.mode, got, c.want)
		}
	}
	if p, _ := Lookup("gemini"); strings.Join(p.Modes("0.61.0"), ",") != "acp,json" {
		t.Errorf("Modes(gemini) = %v", p.Modes("0.61.0"))
	}
}

// fakeBin writes an executable script printing out for --version.
func fakeBin(t *testing.T, dir, name, out string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\necho '"+out+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDetectVersion(t *testing.T) {
	dir := t.TempDir()
	good := fakeBin(t, dir, "good", "GitHub Copilot CLI 1.0.102.")
	bad := fakeBin(t, dir, "bad", "no numbers here")
	if v, err := DetectVersion(context.Background(), good); err != nil || v != "1.0.102" {
		t.Errorf("DetectVersion(good) = %q, %v", v, err)
	}
	// Cached: the answer stays while the file is unchanged.
	if v, err := DetectVersion(context.Background(), good); err != nil || v != "1.0.102" {
		t.Errorf("cached DetectVersion(good) = %q, %v", v, err)
	}
	if _, err := DetectVersion(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "no version number") {
		t.Errorf("DetectVersion(bad) err = %v", err)
	}
	if _, err := DetectVersion(context.Background(), filepath.Join(dir, "missing")); err == nil {
		t.Error("DetectVersion(missing) succeeded")
	}
	// A program that refuses --version is quoted, not only its status.
	refuses := filepath.Join(dir, "refuses")
	if err := os.WriteFile(refuses, []byte("#!/bin/sh\necho \"error: unknown option '$1'\" >&2\nexit 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := DetectVersion(context.Background(), refuses)
	if err == nil || !strings.Contains(err.Error(), "exit status 2") || !strings.Contains(err.Error(), `"error: unknown option '--version'"`) {
		t.Errorf("DetectVersion(refuses) err = %v; want the exit status and the program's own words", err)
	}
}

func TestDoctor(t *testing.T) {
	bin, home := t.TempDir(), t.TempDir()
	fakeBin(t, bin, "gemini", "0.61.0")
	fakeBin(t, bin, "codex", "codex-cli 0.169.0")
	fakeBin(t, bin, "copilot", "GitHub Copilot CLI 0.0.100")
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".codex", "auth.json"), []byte(`{"OPENAI_API_KEY":"sk-secret"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	// A config file without a logged-in user is not a credential.
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(`{"theme":"dark"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GEMINI_API_KEY": "AIza-secret"}
	env["PATH"] = bin
	s := Search{Getenv: func(k string) string { return env[k] }, Home: home, GOOS: "linux", Root: t.TempDir()}
	got := map[string]Status{}
	for _, st := range doctor(context.Background(), s, DoctorSetup{}) {
		got[st.Name] = st
	}
	cases := []struct {
		name, modes, cred string
		installed         bool
		fix               string
	}{
		{"claude", "", "", false, "npm install -g @anthropic-ai/claude-code"},
		{"codex", "json,pty", "~/.codex/auth.json", true, ""},
		{"copilot", "pty", "", true, "update it"},
		{"gemini", "acp,json,pty", "env GEMINI_API_KEY", true, ""},
	}
	for _, c := range cases {
		st := got[c.name]
		if st.Installed != c.installed || strings.Join(st.Modes, ",") != c.modes || st.CredentialSource != c.cred {
			t.Errorf("%s: %+v", c.name, st)
		}
		fix := strings.Join(st.Fix, "; ")
		if c.fix == "" && fix != "" || !strings.Contains(fix, c.fix) {
			t.Errorf("%s: fix %q, want %q", c.name, fix, c.fix)
		}
		for _, s := range append(st.Fix, st.Problems...) {
			if strings.Contains(s, "secret") {
				t.Errorf("%s: a secret leaked: %q", c.name, s)
			}
		}
	}
}

func TestVerifiedOn(t *testing.T) {
	p := &Provider{Verified: [2]string{"0.57.0", "0.61.0"}}
	for _, c := range []struct {
		v    string
		want bool
	}{
		{"0.57.0", true}, {"0.59.3", true}, {"0.61.0", true}, {"0.56.9", false}, {"0.62.0", false},
		{"1.0.0", false}, {"0.61.0-preview.1", true}, {"", true},
	} {
		if got := p.VerifiedOn(c.v); got != c.want {
			t.Errorf("VerifiedOn(%q) = %v, want %v", c.v, got, c.want)
		}
	}
	if !(&Provider{}).VerifiedOn("9.9.9") {
		t.Error("a provider with no recorded range warns")
	}
}

// TestDoctorWarnsOutsideVerified: an installed release older or newer
// than the verified range is a problem doctor names, with what to do.
func TestDoctorWarnsOutsideVerified(t *testing.T) {
	bin, home := t.TempDir(), t.TempDir()
	fakeBin(t, bin, "gemini", "99.0.0")
	s := Search{Getenv: func(k string) string { return map[string]string{"PATH": bin}[k] }, Home: home, GOOS: "linux", Root: t.TempDir()}
	for _, st := range doctor(context.Background(), s, DoctorSetup{}) {
		if st.Name != "gemini" {
			continue
		}
		if p := strings.Join(st.Problems, "; "); !strings.Contains(p, "99.0.0 is outside the releases yume-cli was verified on") {
			t.Errorf("problems %q", p)
		}
		if f := strings.Join(st.Fix, "; "); !strings.Contains(f, "make drift") {
			t.Errorf("fix %q", f)
		}
	}
}
