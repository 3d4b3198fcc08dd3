package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConventions: usage errors exit 2 on every command and point at its
// --help; values are said in words, not a Go parser's; the name probably
// meant is offered; a session's errors reach stdout as stream-json.
func TestConventions(t *testing.T) {
	home := t.TempDir()
	t.Setenv("YUME_HOME", home)
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  []string
		noErr    []string
		stream   bool // the error is on stdout as a result too
	}{
		{"a missing argument", []string{"replay"}, 2, []string{"replay: accepts 1 arg(s), received 0 (usage: yume-cli replay FILE [flags])", "Run 'yume-cli replay --help'"}, nil, false},
		{"too few files", []string{"rules", "check"}, 2, []string{"usage: yume-cli rules check FILE…"}, nil, false},
		{"a subcommand misspelt", []string{"sesions"}, 2, []string{`did you mean the subcommand "sessions"?`}, nil, true},
		{"a group's subcommand misspelt", []string{"rules", "tset"}, 2, []string{`rules has no subcommand "tset": did you mean "test"?`}, nil, false},
		{"a provider in capitals", []string{"-P", "Claude", "--", "true"}, 2, []string{`unknown provider "Claude": did you mean "claude"?`}, nil, true},
		{"a provider misspelt", []string{"--provider", "gemeni", "-p", "hi"}, 2, []string{`did you mean "gemini"?`}, nil, true},
		{"a number", []string{"--cols", "abc", "--", "true"}, 2, []string{`invalid value "abc" for --cols: give a whole number`}, []string{"strconv", "ParseInt"}, true},
		{"a duration", []string{"--idle-timeout", "5x", "--", "true"}, 2, []string{"give a duration such as 90s"}, []string{"time: "}, true},
		{"a switch", []string{"--verbose=maybe", "--", "true"}, 2, []string{"give true or false"}, []string{"strconv"}, true},
		{"a rule file that is not there", []string{"rules", "check", filepath.Join(home, "nope.yaml")}, 1, []string{"nope.yaml: cannot read it (no such file or directory): give the path of a rule file"}, []string{"open "}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, "", tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, stderr)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			for _, w := range tt.noErr {
				if strings.Contains(stderr, w) {
					t.Errorf("stderr has %q:\n%s", w, stderr)
				}
			}
			if got := strings.Contains(stdout, `"type":"result"`); got != tt.stream {
				t.Errorf("a result on stdout: %v, want %v:\n%s", got, tt.stream, stdout)
			}
			if tt.stream {
				streamTypes(t, stdout)
			}
		})
	}
}

// TestErrorsInTheFormatInForce: a malformed settings file fails a run
// with no --output-format as it fails one that spells out the default:
// the error is on stdout as stream-json.
func TestErrorsInTheFormatInForce(t *testing.T) {
	home := t.TempDir()
	t.Setenv("YUME_HOME", home)
	if err := os.WriteFile(filepath.Join(home, "settings.yaml"), []byte("bad: [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--", "true"}, {"--output-format", "stream-json", "--", "true"}} {
		code, stdout, _ := runMain(t, "", args...)
		if code == 0 || !strings.Contains(stdout, `settings.yaml:1:1: not valid YAML`) {
			t.Errorf("%v: exit %d, stdout:\n%s", args, code, stdout)
		}
		streamTypes(t, stdout)
	}
}

// TestCompletionValues: the shell completes providers, modes, permission
// modes and stored session ids.
func TestCompletionValues(t *testing.T) {
	home := t.TempDir()
	t.Setenv("YUME_HOME", home)
	code, stdout, stderr := runMain(t, "", "--session-id", "sess-completeme", "--", "true")
	if code != 0 {
		t.Fatalf("storing a session: exit %d: %s", code, stderr)
	}
	_ = stdout
	tests := []struct {
		args []string
		want []string
		not  []string
	}{
		{[]string{"--provider", ""}, []string{"claude", "gemini", "generic"}, nil},
		{[]string{"--provider", "co"}, []string{"codex", "copilot"}, []string{"claude"}},
		{[]string{"--mode", ""}, []string{"auto", "pty", "json", "acp"}, nil},
		{[]string{"--permission-mode", ""}, []string{"default", "interactive", "auto", "deny"}, nil},
		{[]string{"--resume", ""}, []string{"sess-completeme"}, nil},
		{[]string{"sessions", "show", ""}, []string{"sess-completeme"}, nil},
		{[]string{"replay", "x.cast", "--allow", ""}, []string{"unrecognised", "keys", "golden"}, nil},
		{[]string{"rules", "test", "--provider", "ge"}, []string{"gemini", "generic"}, nil},
	}
	for _, tt := range tests {
		code, out, errOut := runMain(t, "", append([]string{"__complete"}, tt.args...)...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", tt.args, code, errOut)
		}
		lines := strings.Split(out, "\n")
		has := func(v string) bool {
			for _, l := range lines {
				if l == v {
					return true
				}
			}
			return false
		}
		for _, w := range tt.want {
			if !has(w) {
				t.Errorf("%v: completion lacks %q:\n%s", tt.args, w, out)
			}
		}
		for _, w := range tt.not {
			if has(w) {
				t.Errorf("%v: completion offers %q:\n%s", tt.args, w, out)
			}
		}
	}
}
