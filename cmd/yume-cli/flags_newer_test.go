package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/internal/gobuild"
	"github.com/yume-cli/yume-cli/run"
)

// newerFlags: a newer Yume's unknown flag is taken out with its value and
// said; one that limits the run, or an unknown letter, is a usage error;
// known flags, the command after --, and other subcommands' flags are
// left as they are.
func TestNewerFlags(t *testing.T) {
	for _, tc := range []struct {
		name          string
		args          []string
		kept, ignored []string
		err           string
	}{
		{"none", []string{"--provider", "claude", "-p", "hi", "--verbose"}, []string{"--provider", "claude", "-p", "hi", "--verbose"}, nil, ""},
		{"a value", []string{"--provider", "claude", "--theme", "dark", "--prompt", "hi"}, []string{"--provider", "claude", "--prompt", "hi"}, []string{"--theme dark"}, ""},
		{"inline value", []string{"--ui-hint=compact", "--provider", "claude"}, []string{"--provider", "claude"}, []string{"--ui-hint=compact"}, ""},
		{"a switch", []string{"--quiet-progress", "--async"}, []string{"--async"}, []string{"--quiet-progress"}, ""},
		{"a known flag's value that looks unknown", []string{"--prompt", "--theme", "--model", "m"}, []string{"--prompt", "--theme", "--model", "m"}, nil, ""},
		{"start", []string{"start", "--label", "x", "--provider", "claude"}, []string{"start", "--provider", "claude"}, []string{"--label x"}, ""},
		{"after --", []string{"--provider", "generic", "--", "prog", "--anything", "-x"}, []string{"--provider", "generic", "--", "prog", "--anything", "-x"}, nil, ""},
		{"another subcommand", []string{"sessions", "list", "--json"}, []string{"sessions", "list", "--json"}, nil, ""},
		{"shorthand group", []string{"-vp", "hi", "-P", "claude"}, []string{"-vp", "hi", "-P", "claude"}, nil, ""},
		{"limits the run", []string{"--provider", "claude", "--max-turns", "5"}, nil, nil, `unknown flag: --max-turns: this yume-cli `},
		{"limits what runs", []string{"--disallowed-tools=Bash"}, nil, nil, `a flag about "allow"`},
		{"a typo of a permission flag", []string{"--permision-mode", "deny"}, nil, nil, `unknown flag: --permision-mode (did you mean --permission-mode?)`},
		{"a typo of a harmless flag", []string{"--promt", "hi"}, nil, nil, `unknown flag: --promt (did you mean --prompt?)`},
		{"a place", []string{"--worktree-dir", "/x"}, nil, nil, `unknown flag: --worktree-dir`},
		{"an unknown letter", []string{"-y"}, nil, nil, `unknown shorthand flag: 'y' in -y`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, _ := newRootCmd(&run.IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, nil)
			kept, ignored, err := newerFlags(root, tc.args)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(kept, tc.kept) || !reflect.DeepEqual(ignored, tc.ignored) {
				t.Errorf("kept %q ignored %q (%v), want %q %q", kept, ignored, err, tc.kept, tc.ignored)
			}
		})
	}
}

// Through Main: the ignored flag is said on stderr, and the run goes on.
func TestNewerFlagIgnoredRuns(t *testing.T) {
	code, stdout, stderr := runMain(t, "", "--cwd", t.TempDir(), "--output-format", "stream-json", "--new-ui-thing", "on", "--", "true")
	if code != 0 || !strings.Contains(stderr, "yume-cli: ignored --new-ui-thing on: this yume-cli") ||
		!strings.Contains(stdout, `"subtype":"notice","message":"yume-cli: ignored --new-ui-thing on`) {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
}

// Only an ignored flag, as a process: the run goes on with no argument
// (cobra is given none, not nil, which it takes for "read os.Args
// again", and then failed on the flag it was told to ignore) and says
// what it lacks. In-process, cobra does not read a test binary's os.Args.
func TestNewerFlagAlone(t *testing.T) {
	bin, err := gobuild.Command(t.TempDir(), "cmd/yume-cli", false)
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "--new-ui-thing")
	cmd.Stderr = &stderr
	err = cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 2 || strings.Contains(stderr.String(), "unknown flag") || !strings.Contains(stderr.String(), "no provider") {
		t.Errorf("exit %d (%v), stderr %s", code, err, stderr.String())
	}
}

// The README's list of the stems that keep an unknown flag an error is
// the code's: each stem is named there, or holds one named there
// (disallow holds allow), so the README never promises less than the code
// refuses, nor more.
func TestNewerFlagStemsInREADME(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, para, ok := strings.Cut(string(b), "**Flags of a newer Yume.**")
	if !ok {
		t.Fatal("README.md has no paragraph on the flags of a newer Yume")
	}
	_, para, _ = strings.Cut(para, "it holds")
	para, _, _ = strings.Cut(para, ": ignoring")
	var named []string
	for i, part := range strings.Split(para, "`") {
		if i%2 == 1 {
			named = append(named, part)
		}
	}
	for _, stem := range harmfulStems {
		if !slices.ContainsFunc(named, func(n string) bool { return strings.Contains(stem, n) }) {
			t.Errorf("the README does not name the stem %q (or one it holds)", stem)
		}
	}
	for _, n := range named {
		if !slices.Contains(harmfulStems, n) {
			t.Errorf("the README names %q, which the code does not refuse", n)
		}
	}
}
