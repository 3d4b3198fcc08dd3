package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kballard/go-shellquote"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// unknownFlag is a flag no CLI takes.
const unknownFlag = "--yume-no-such-flag"

// complaintRe is a line in which a CLI says what it did not take.
var complaintRe = regexp.MustCompile(`(?i)\b(unknown|unexpected|unrecogni[sz]ed|invalid)\b|^\W{0,3}error\b`)

// optionRe is a usage text's line listing an option.
var optionRe = regexp.MustCompile(`^\s+(-\w,?\s+)?--?\w`)

// escRe is a terminal escape sequence.
var escRe = regexp.MustCompile(`\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07]*\x07|.)`)

// TestLiveStartFailsInItsWords gives each real CLI a flag it does not
// know, as a release that dropped a flag yume-cli gives it would be: in
// every mode it has, by a --bin that adds the flag to the command line
// yume-cli makes (its --version and --help pass through), and as any
// program (`--provider acp|generic -- CLI --flag`). The turn must end with
// exit 1 and an error result that quotes the CLI's own complaint (what it
// prints when run again by hand with that command line: its line that
// says what it did not take, else its last line, the usage opencode and
// Kilo print), names its exit status, and says it rejected its command
// line.
func TestLiveStartFailsInItsWords(t *testing.T) {
	live(t)
	cases := []struct {
		name, sandbox, provider, program string
		modes                            []string
		command                          bool // run as `-- CLI --flag`
	}{
		{"claude", "claude", "claude", "claude", []string{"pty", "json"}, false},
		{"codex", "codex", "codex", "codex", []string{"pty", "json"}, false},
		{"copilot", "copilot", "copilot", "copilot", []string{"pty", "json", "acp"}, false},
		{"gemini", "gemini", "gemini", "gemini", []string{"pty", "json", "acp"}, false},
		{"opencode", "opencode", "opencode", "opencode", []string{"pty", "json", "acp"}, false},
		{"kilo", "kilo", "kilo", "kilo", []string{"pty", "json", "acp"}, false},
		{"qwen", "qwen", "qwen", "qwen", []string{"pty", "json", "acp"}, false},
		{"claude as any program", "claude", "generic", "claude", []string{"pty"}, true},
		{"cline as any program", "cline", "generic", "cline", []string{"pty"}, true},
		{"codex-acp as any ACP agent", "codex", "acp", "codex-acp", []string{"acp"}, true},
		{"opencode as any ACP agent", "opencode", "acp", "opencode", []string{"acp"}, true},
	}
	for ci, c := range cases {
		for mi, mode := range c.modes {
			t.Run(c.name+"/"+mode, func(t *testing.T) {
				cell(t, ci, len(cases), mi, len(c.modes)) // the short suite: each CLI in one of its modes
				real := cliPath(t, c.program)
				h := newHome(t, c.sandbox)
				h.provider = c.provider
				flags := []string{"--mode", mode, "--permission-mode", "auto", "--prompt", "make the file"}
				var argv []string // the command line the CLI was given
				argsFile := filepath.Join(t.TempDir(), "args")
				switch {
				case c.command && c.program == "opencode":
					argv = []string{real, "acp", unknownFlag}
					flags = append(append(flags, "--"), argv...)
				case c.command:
					argv = []string{real, unknownFlag}
					flags = append(append(flags, "--"), argv...)
				default:
					flags = append(flags, "--bin", withUnknownFlag(t, real, argsFile))
				}
				r := h.run(t, fakemodel.Script{}, gui{answer: func(int) bool { return false }}, flags...)
				if !c.command {
					b, err := os.ReadFile(argsFile)
					if err != nil {
						t.Fatalf("the CLI was never started with the flag: %v\n%s\n%s", err, r.raw, r.stderr)
					}
					args := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
					argv = append([]string{real, unknownFlag}, args...)
				}
				said, code := runByHand(t, h, argv)
				key := keyLine(said)
				if key == "" || code == 0 {
					t.Fatalf("%s said nothing, or exited 0 (%d), given %s: %q", c.program, code, unknownFlag, said)
				}
				res := r.final()
				if res == nil || res["is_error"] != true {
					t.Fatalf("result = %v, want an error", res)
				}
				msg := res.str("result")
				t.Logf("%s --mode %s (by hand: exit %d, %q):\n%s", c.provider, mode, code, key, msg)
				quote := key
				if len(quote) > 50 {
					quote = quote[:50] // a longer line may wrap on the screen
				}
				for _, want := range []string{quote, fmt.Sprintf("exited with status %d", code), "rejected its command line", "`yume-cli doctor`"} {
					if !strings.Contains(msg, want) {
						t.Errorf("the error result lacks %q:\n%s\nthe CLI by hand:\n%s", want, msg, said)
					}
				}
				if strings.Contains(msg, "\x1b") {
					t.Errorf("the error result holds an escape sequence: %q", msg)
				}
				if r.exit != 1 {
					t.Errorf("exit status %d, want 1", r.exit)
				}
				if r.took > 60*time.Second {
					t.Errorf("took %v", r.took)
				}
			})
		}
	}
}

// withUnknownFlag is a program that runs real, with unknownFlag first on
// the command line yume-cli gives it, which it writes to argsFile; its
// --version and --help are real's own.
func withUnknownFlag(t *testing.T, real, argsFile string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(real))
	script := fmt.Sprintf(`#!/bin/sh
case "$1" in --version|--help|-v|-h|-V) exec %[1]s "$@";; esac
printf '%%s\0' "$@" > %[2]s
exec %[1]s %[3]s "$@"
`, shellquote.Join(real), shellquote.Join(argsFile), unknownFlag)
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// runByHand runs argv in the sandbox as a person would, and returns what
// it printed (stdout and stderr) and its exit status.
func runByHand(t *testing.T, h *home, argv []string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = h.sb.Env, h.sb.Workspace
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &ee):
		return out.String(), ee.ExitCode()
	}
	t.Fatalf("running %s by hand: %v", argv[0], err)
	return "", 0
}

// keyLine is the line of what a CLI said that says what it did not
// take, else its last non-blank line; without escape sequences, blanks
// trimmed.
func keyLine(said string) string {
	var last string
	for _, l := range strings.Split(said, "\n") {
		l = strings.TrimSpace(escRe.ReplaceAllString(strings.TrimRight(l, "\r"), ""))
		if l == "" {
			continue
		}
		if complaintRe.MatchString(l) && !optionRe.MatchString(" "+l) {
			return l
		}
		last = l
	}
	return last
}
