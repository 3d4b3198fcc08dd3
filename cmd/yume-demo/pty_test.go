//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/internal/gobuild"
)

// demoBin is yume-demo built once for the whole test run by TestMain.
var demoBin string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "yume-demo-test-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "make a temp dir for the test binary: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if demoBin, err = gobuild.Command(dir, "cmd/yume-demo", false); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

// Keys as a terminal sends them.
const (
	keyUp    = "\x1b[A"
	keyDown  = "\x1b[B"
	keyEnter = "\r"
	keyCtrlC = "\x03"
)

// step is one exchange: wait for want, then type keys (if any). line marks
// a survey Input or Confirm, which reads a line after two cursor reports.
type step struct {
	want string
	keys string
	line bool
}

func TestDialogues(t *testing.T) {
	menuShown := "? Select an option  [Use arrows to move, type to filter]\n> Copy command to clipboard\n  Explain command\n  Execute command\n  Revise command\n  Rate response\n  Exit\n"
	confirm := "? Are you sure you want to execute the suggested command? (Y/n) "
	tests := []struct {
		name     string
		args     []string
		steps    []step
		exit     int
		notInOut string // must never be printed (a command that must not run)
	}{{
		name: "approve runs the command and exits with its status",
		args: []string{"suggest", "-t", "shell", "--suggest", "echo ran-$((6*7)); exit 3", "say hi"},
		steps: []step{
			{want: "Suggestion:\n\n  echo ran-$((6*7)); exit 3\n\n" + menuShown, keys: keyDown + keyDown + keyEnter},
			{want: "? Select an option\n> Execute command\n\n" + confirm, keys: "y" + keyEnter, line: true},
			{want: "? Are you sure you want to execute the suggested command?\n> Yes\n\n"},
			{want: "ran-42"},
		},
		exit: 3,
	}, {
		name: "exit quits quietly without running anything",
		args: []string{"suggest", "-t", "shell", "--suggest", "echo must-not-run-$((1+1))", "x"},
		steps: []step{
			{want: menuShown, keys: keyUp + keyEnter}, // Up from the first option wraps to Exit.
			{want: "? Select an option\n> Exit\n"},
		},
		exit:     0,
		notInOut: "must-not-run-2",
	}, {
		name: "explain then execute",
		args: []string{"suggest", "-t", "shell", "hello"},
		steps: []step{
			{want: "  echo \"Hello from yume-demo\"\n\n" + menuShown, keys: keyDown + keyEnter},
			{want: "Explanation:\n\n  • echo writes its arguments to standard output.\n    • \"Hello from yume-demo\" is the text to print.\n\n"},
			{want: menuShown, keys: keyDown + keyDown + keyEnter},
			{want: confirm, keys: keyEnter, line: true}, // Enter takes the default, Yes.
			{want: "Hello from yume-demo"},
		},
		exit: 0,
	}, {
		name: "revise then execute runs the revised command",
		args: []string{"suggest", "-t", "shell", "--suggest", `printf 'b\na\n'`, "letters"},
		steps: []step{
			{want: menuShown, keys: keyDown + keyDown + keyDown + keyEnter},
			{want: "? How should this be revised?\n> ", keys: "sorted please" + keyEnter, line: true},
			{want: "Suggestion:\n\n  printf 'b\\na\\n' | sort\n\n" + menuShown, keys: "exec" + keyEnter},
			{want: confirm, keys: "yes" + keyEnter, line: true},
			{want: "a\nb\n"},
		},
		exit: 0,
	}, {
		name: "ctrl-c at the menu exits 130",
		args: []string{"suggest", "-t", "git", "undo"},
		steps: []step{
			{want: "  git reset --soft HEAD~1\n\n" + menuShown, keys: keyCtrlC},
		},
		exit:     130,
		notInOut: "goroutine",
	}, {
		name: "denied confirmation returns to the menu",
		args: []string{"suggest", "-t", "shell", "--suggest", "echo must-not-run-$((2+2))", "x"},
		steps: []step{
			{want: menuShown, keys: keyDown + keyDown + keyEnter},
			{want: confirm, keys: "n" + keyEnter, line: true},
			{want: "> No\n\n" + menuShown, keys: keyUp + keyEnter},
		},
		exit:     0,
		notInOut: "must-not-run-4",
	}, {
		name: "asks kind and prompt when not given",
		args: []string{},
		steps: []step{
			{want: "\nWelcome to GitHub Copilot in the CLI!\nversion 1.1.1 (2025-06-17)\n\nI'm powered by AI"},
			{want: "? What kind of command can I help you with?  [Use arrows to move, type to filter]\n> generic shell command\n  gh command\n  git command\n", keys: keyEnter},
			{want: "? What kind of command can I help you with?\n> generic shell command\n\n"},
			{want: "? What would you like the shell command to do?\n> ", keys: "list files" + keyEnter, line: true},
			{want: "Suggestion:\n\n  ls -la\n\n" + menuShown, keys: keyEnter},
			{want: "Command copied to clipboard!\n\n" + menuShown, keys: "rate" + keyEnter},
			{want: "? Rate this response  [Use arrows to move, type to filter]\n> Good\n  Bad\n", keys: keyEnter},
			{want: "Thanks for the feedback!\n\n" + menuShown, keys: keyUp + keyEnter},
		},
		exit: 0,
	}, {
		name: "ctrl-c while typing the prompt exits 130",
		args: []string{"suggest", "-t", "gh"},
		steps: []step{
			{want: "? What would you like the gh command to do?\n> ", keys: "list pr" + keyCtrlC, line: true},
		},
		exit:     130,
		notInOut: "panic",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := startConsole(t, t.TempDir(), demoBin, tt.args...)
			play(c, tt.steps)
			if got := c.wait(); got != tt.exit {
				t.Errorf("exit status = %d, want %d; output:\n%s", got, tt.exit, c.output())
			}
			if tt.notInOut != "" && strings.Contains(c.output(), tt.notInOut) {
				t.Errorf("output contains %q, which must not appear:\n%s", tt.notInOut, c.output())
			}
		})
	}
}

// play runs a dialogue: each step's keys are typed only once the program
// reads keys, as a person (or yume-cli, after the screen settles) would.
func play(c *console, steps []step) {
	c.t.Helper()
	for _, s := range steps {
		c.expect(s.want)
		if s.keys != "" {
			c.waitReady(s.line)
			c.send(s.keys)
		}
	}
}

func TestShellOutWritesCommandInsteadOfRunning(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "cmd.sh")
	c := startConsole(t, dir, demoBin, "suggest", "-t", "shell", "-s", out, "--suggest", "touch must-not-exist", "x")
	play(c, []step{
		{want: "Rate response\n  Exit\n", keys: keyDown + keyDown + keyEnter},
		{want: "(Y/n) ", keys: "y" + keyEnter, line: true},
	})
	if got := c.wait(); got != 0 {
		t.Fatalf("exit status = %d, want 0; output:\n%s", got, c.output())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("--shell-out file: %v", err)
	}
	if string(got) != "touch must-not-exist" {
		t.Errorf("--shell-out file = %q, want the command", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "must-not-exist")); err == nil {
		t.Errorf("the command ran; with --shell-out it must only be written")
	}
}

func TestNoTerminalFailsWithAdvice(t *testing.T) {
	cmd := exec.Command(demoBin, "suggest", "-t", "shell", "hello")
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit = %v, want status 1; output:\n%s", err, out)
	}
	if !strings.Contains(string(out), "✗ Error: ") || !strings.Contains(string(out), "interactive terminal") {
		t.Errorf("output does not explain what to do:\n%s", out)
	}
}
