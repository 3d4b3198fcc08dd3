//go:build unix

package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
)

// TestPickModeWhenTheGuardAnswers: Codex's JSON mode never asks (it
// rejects a call outside its sandbox), so when the guard answers for
// nobody, auto mode runs its TUI, which asks; with someone to ask, in
// auto mode, or with another no_channel, and for a CLI whose best mode
// asks, auto keeps the structured mode.
func TestPickModeWhenTheGuardAnswers(t *testing.T) {
	t.Setenv("YUME_HOME", t.TempDir()) // the probe cache of its own
	dir := t.TempDir()
	for name, version := range map[string]string{"codex": "codex-cli 0.171.0", "gemini": "0.61.0"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\necho '"+version+"'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	null := IOStreams{In: strings.NewReader(""), InIsNull: true}
	for _, c := range []struct {
		name, provider, perm string
		io                   IOStreams
		fb                   permission.Fallback
		want                 string
	}{
		{"codex, stdin /dev/null", "codex", "default", null, permission.FallbackGuard, "pty"},
		{"codex, no stdin", "codex", "default", IOStreams{}, permission.FallbackGuard, "pty"},
		{"codex, a pipe: someone may answer", "codex", "default", IOStreams{In: strings.NewReader("")}, permission.FallbackGuard, "auto"},
		{"codex, auto mode", "codex", "auto", null, permission.FallbackGuard, "auto"},
		{"codex, no_channel deny", "codex", "default", null, permission.FallbackDeny, "auto"},
		{"gemini asks over ACP", "gemini", "default", null, permission.FallbackGuard, "auto"},
	} {
		t.Run(c.name, func(t *testing.T) {
			io := c.io
			o := &Config{IO: &io, Provider: prov(t, c.provider), Mode: "auto", Permission: permission.Mode(c.perm), NoChannel: c.fb,
				Bin: filepath.Join(dir, c.provider), Prompt: "hi"}
			if got, why := pickMode(context.Background(), o); got != c.want {
				t.Errorf("mode %s (%s), want %s", got, why, c.want)
			}
		})
	}
}

// TestPickModeGuessesFirst: a release never probed that the guess puts in
// its TUI starts without waiting for its probe; once the run has asked it,
// the next run knows the release.
func TestPickModeGuessesFirst(t *testing.T) {
	t.Setenv("YUME_HOME", t.TempDir())
	bin := filepath.Join(t.TempDir(), "codex")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho 'codex-cli 0.171.0'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	io := IOStreams{In: strings.NewReader(""), InIsNull: true}
	o := &Config{IO: &io, Provider: prov(t, "codex"), Mode: "auto", Permission: permission.Default, NoChannel: permission.FallbackGuard, Bin: bin, Prompt: "hi"}
	if got, why := pickMode(context.Background(), o); got != "pty" || !strings.Contains(why, "guessed") {
		t.Errorf("first run: mode %s (%s); want pty, guessed", got, why)
	}
	if _, err := providers.ProbeLater(context.Background(), bin).Wait(context.Background()); err != nil { // as the PTY run asks it
		t.Fatal(err)
	}
	if got, why := pickMode(context.Background(), o); got != "pty" || strings.Contains(why, "guessed") || !strings.Contains(why, "0.171.0") {
		t.Errorf("next run: mode %s (%s); want pty, from its version", got, why)
	}
}
