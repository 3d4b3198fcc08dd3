//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kballard/go-shellquote"

	"github.com/yume-cli/yume-cli/providers"
)

// usageOf is a yargs usage text of n options, as Gemini CLI and Qwen Code
// print it after their complaint: longer than the terminal is high.
func usageOf(name string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: %s [options] [command]\n\n%s - Launch an interactive CLI\n\nOptions:\n", name, name)
	for i := range n {
		fmt.Fprintf(&b, "      --option-%02d               an option of %s  [boolean]\n", i, name)
	}
	b.WriteString("  -h, --help                      Show help  [boolean]\n")
	return b.String()
}

// opencodeUsage is what opencode and Kilo print for a flag they do not
// take: their usage alone, no complaint.
func opencodeUsage(name string) string {
	return fmt.Sprintf(`Commands:
  %[1]s acp                 start ACP (Agent Client Protocol) server
  %[1]s run [message..]     run %[1]s with a message

Options:
  -h, --help          show help                                                            [boolean]
  -v, --version       show version number                                                  [boolean]
      --print-logs    print logs to stderr                                                 [boolean]
  -m, --model         model to use in the format of provider/model                          [string]
      --replay-limit  cap visible mini replay to the newest N messages                      [number]
`, name)
}

// TestStartFailsInItsWords: a CLI that rejects its command line (a
// release that dropped a flag) prints its complaint in its own style and
// exits 2 before it does anything. In every mode of every provider the
// turn ends with an error result, and a system error Yume shows, that
// names the exit status, quotes the complaint (from the screen in the PTY,
// from stderr in the structured modes; a complaint above a usage longer
// than the screen too) and says what to do: not the login note, which
// does not fit. A release whose --help differs from the flags guessed for
// it is started again with its own; when that start fails too, its words
// are the ones quoted, never the first attempt's.
func TestStartFailsInItsWords(t *testing.T) {
	cases := []struct {
		provider string
		modes    []string
		bin      string // the program's name
		words    string // what it prints on stderr before it exits 2
		quote    string // the line the error must quote
		// old: the program is an older release (Claude Code 2.1.197),
		// whose --help gives "default" and "acceptEdits" where the guess
		// says "manual" or "auto": it rejects the guess (a first attempt
		// the turn never sees), and fails again with its own flags.
		old bool
	}{
		{"claude", []string{"pty", "json"}, "claude", "error: unknown option '--foo'\n", "error: unknown option '--foo'", false},
		{provider: "claude", modes: []string{"pty"}, bin: "claude", words: "error: unknown option '--foo'\n", quote: "error: unknown option '--foo'", old: true},
		{"codex", []string{"pty", "json"}, "codex", "\x1b[1;31merror:\x1b[0m unexpected argument '\x1b[33m--foo\x1b[0m' found\n\n  tip: to pass '--foo' as a value, use '-- --foo'\n\n" +
			"Usage: codex [OPTIONS] [PROMPT]\n       codex [OPTIONS] <COMMAND> [ARGS]\n\nFor more information, try '--help'.\n", "error: unexpected argument '--foo' found", false},
		{"copilot", []string{"pty", "json", "acp"}, "copilot", "error: unexpected argument '--foo' found\n\nUsage: copilot [OPTIONS] [COMMAND]\n\nFor more information, try '--help'.\n",
			"error: unexpected argument '--foo' found", false},
		{"gemini", []string{"pty", "json", "acp"}, "gemini", "Unknown arguments: foo, foo\n" + usageOf("gemini", 50), "Unknown arguments: foo, foo", false},
		{"gh-copilot", []string{"pty"}, "gh", "unknown flag: --foo\n\nUsage:  gh copilot suggest [flags]\n\nFlags:\n  -t, --target target   Target for suggestion\n", "unknown flag: --foo", false},
		{"aider", []string{"pty"}, "aider", "usage: aider [-h] [--model MODEL] [--yes-always] [FILE ...]\naider: error: unrecognized arguments: --foo\n", "aider: error: unrecognized arguments: --foo", false},
		{"opencode", []string{"pty", "json", "acp"}, "opencode", opencodeUsage("opencode"), "--replay-limit  cap visible mini replay", false},
		{"kilo", []string{"pty", "json", "acp"}, "kilo", opencodeUsage("kilo"), "--replay-limit  cap visible mini replay", false},
		{"qwen", []string{"pty", "json", "acp"}, "qwen", "Unknown arguments: foo, foo\n" + usageOf("qwen", 50), "Unknown arguments: foo, foo", false},
		{"acp", []string{"acp"}, "my-agent", "error: unknown option '--foo'\n", "error: unknown option '--foo'", false},
		{"generic", []string{"pty"}, "tool", "tool: unrecognized option '--foo'\nTry 'tool --help' for more information.\n", "tool: unrecognized option '--foo'", false},
	}
	var named []string
	for i := range cases {
		named = append(named, cases[i].provider)
	}
	for _, p := range providers.All() {
		if !slices.Contains(named, p.Name) {
			t.Errorf("provider %s has no case", p.Name)
		}
	}
	for _, c := range cases {
		p, _ := providers.Lookup(c.provider)
		if p == nil || c.old {
			continue
		}
		modes := p.Modes("")
		if p.Profile != "" {
			modes = append(modes, "pty")
		}
		if slices.Sort(modes); !slices.Equal(modes, slices.Sorted(slices.Values(c.modes))) {
			t.Errorf("provider %s has the modes %v; its case tries %v", c.provider, modes, c.modes)
		}
	}
	for _, c := range cases {
		p, ok := providers.Lookup(c.provider)
		if !ok {
			t.Fatalf("no provider %s", c.provider)
		}
		for _, mode := range c.modes {
			name := c.provider + "/" + mode
			if c.old {
				name += "/started again"
			}
			t.Run(name, func(t *testing.T) {
				home := t.TempDir()
				t.Setenv("HOME", home) // a first run: no login, no probe cached
				t.Setenv("YUME_HOME", filepath.Join(home, ".yume"))
				t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
				for _, k := range p.Credentials.Env {
					t.Setenv(k, "")
				}
				cwd := t.TempDir()
				bin := failingCLI(t, c.bin, p, c.words, c.old)
				args := []string{"--provider", c.provider, "--mode", mode, "--cwd", cwd, "--prompt", "make the file",
					"--permission-mode", "auto", "--output-format", "stream-json", "--verbose"}
				switch {
				case c.provider == "acp" || c.provider == "generic":
					args = append(args, "--", bin, "--stdio")
				default:
					args = append(args, "--bin", bin)
				}
				code, stdout, stderr := runMain(t, "", args...)
				_ = streamTypes(t, stdout) // conformance
				if code != 1 {
					t.Errorf("exit %d, want 1\n%s\n%s", code, stdout, stderr)
				}
				var result, sysErr string
				for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
					var e struct {
						Type, Subtype, Message, Result string
						IsError                        bool `json:"is_error"`
					}
					if err := json.Unmarshal([]byte(line), &e); err != nil {
						t.Fatalf("stdout line is not JSON: %q", line)
					}
					switch {
					case e.Type == "result" && e.IsError:
						result = e.Result
					case e.Type == "system" && e.Subtype == "error":
						sysErr += e.Message + "\n"
					}
				}
				t.Logf("%s --mode %s:\n%s", c.provider, mode, result)
				name := c.bin
				if mode != "pty" && c.provider != "acp" {
					name = c.provider // the structured modes name the provider
				}
				for _, want := range []string{name + " exited with status 2", c.quote, "rejected its command line", "`yume-cli doctor`"} {
					if !strings.Contains(result, want) {
						t.Errorf("the error result lacks %q:\n%s\nstdout:\n%s\nstderr:\n%s", want, result, stdout, stderr)
					}
					if !strings.Contains(sysErr, want) {
						t.Errorf("no system error says %q:\n%s", want, sysErr)
					}
				}
				if strings.Contains(result, "no credentials found") || strings.Contains(result, "\x1b") {
					t.Errorf("the error says the login note, or an escape sequence, for a rejected flag:\n%q", result)
				}
				if c.old && (strings.Contains(stdout, "argument 'manual' is invalid") || !strings.Contains(stderr, "started again with its own")) {
					t.Errorf("the program was not started again, or the first attempt's words reached the turn:\n%s\n%s", stdout, stderr)
				}
			})
		}
	}
}

// failingCLI writes a program called name that answers --version with
// p's newest verified release and --help with the help p's flags are read
// from, and otherwise prints words on stderr and exits 2, as a release
// that does not take a flag it was given does. An old one is p's oldest
// verified release, whose --help offers "default" and "acceptEdits" where
// the newest's offers "manual" and "auto"; given either, it says it is
// invalid and exits 1.
func failingCLI(t *testing.T, name string, p *providers.Provider, words string, old bool) string {
	t.Helper()
	dir := t.TempDir()
	version := p.Verified[1]
	if version == "" {
		version = "1.0.0"
	}
	help := p.KnownHelp
	if help == "" {
		help = "  -h, --help  show help\n"
	}
	first := ""
	if old {
		version = p.Verified[0]
		help = `  --permission-mode <mode>   Permission mode to use for the session (choices: "acceptEdits", "bypassPermissions", "default", "plan")
  --session-id <uuid>        Use a specific session ID for the conversation (must be a valid UUID)
`
		first = `case " $* " in *' manual '*|*' auto '*) echo "error: option '--permission-mode <mode>' argument 'manual' is invalid. Allowed choices are acceptEdits, bypassPermissions, default, plan." >&2; exit 1;; esac
`
	}
	for file, body := range map[string]string{"help.txt": help, "words.txt": words} {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, name)
	script := fmt.Sprintf(`#!/bin/sh
case "$1" in
--version|-v|-V|version) echo %s; exit 0;;
--help|-h|help) cat %s; exit 0;;
esac
%scat %s >&2
exit 2
`, shellquote.Join(name+" "+version), shellquote.Join(filepath.Join(dir, "help.txt")), first, shellquote.Join(filepath.Join(dir, "words.txt")))
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}
