//go:build linux && (amd64 || arm64)

package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestQuestionWithoutARule: a program blocked reading its terminal at a
// question no rule knows is found (Linux: /proc), the GUI hears the
// question with its context at once, and in interactive mode a user frame
// answers it.
func TestQuestionWithoutARule(t *testing.T) {
	bin := buildCLI(t)
	// --record wraps the terminal: the question must still be found
	// through it (it was not, once).
	for _, tc := range []struct {
		name  string
		flags func(dir string) []string
	}{
		{"plain", func(string) []string { return nil }},
		{"recorded", func(dir string) []string { return []string{"--record", filepath.Join(dir, "session.cast")} }},
	} {
		t.Run(tc.name, func(t *testing.T) { questionWithoutARule(t, bin, tc.flags) })
	}
}

func questionWithoutARule(t *testing.T, bin string, flags func(dir string) []string) {
	script := `echo "Three colours are available."; printf 'Favourite colour: '; read c; echo "$c" > chosen.txt`
	dir := t.TempDir()
	args := append([]string{"--permission-mode", "interactive", "--cwd", dir}, flags(t.TempDir())...)
	cmd := exec.Command(bin, append(args, "--", "sh", "-c", script)...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var out strings.Builder
	timeout := time.After(10 * time.Second)
	start := time.Now()
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				if b, _ := os.ReadFile(filepath.Join(dir, "chosen.txt")); string(b) != "blue\n" {
					t.Errorf("the program read %q:\n%s\n%s", b, out.String(), stderr.String())
				}
				if n := strings.Count(out.String(), "waits for input"); n != 1 {
					t.Errorf("%d notices, want 1", n)
				}
				return
			}
			out.WriteString(l + "\n")
			if strings.Contains(l, "waits for input that no rule") {
				if took := time.Since(start); took > 3*time.Second {
					t.Errorf("the question was found after %v", took)
				}
				for _, want := range []string{`Favourite colour:`, `Three colours are available.`} {
					if !strings.Contains(l, want) {
						t.Errorf("notice lacks %q: %s", want, l)
					}
				}
				_, _ = io.WriteString(stdin, `{"type":"user","content":"blue"}`+"\n")
				_ = stdin.Close()
			}
		case <-timeout:
			t.Fatalf("no end after 10s:\n%s\n%s", out.String(), stderr.String())
		}
	}
}

// TestNoQuestionWhileRunning: a question-shaped line printed by a program
// that goes on computing is not a question (Linux: the program is on a
// CPU); the real one, printed when it waits for the answer, is.
func TestNoQuestionWhileRunning(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is needed for a CPU-bound program")
	}
	bin := buildCLI(t)
	script := `import time, sys
sys.stdout.write("Is the mirror fast? (y/n) "); sys.stdout.flush()
end = time.time() + 0.6
while time.time() < end:
    pass
sys.stdout.write("\nit is.\nProceed? (y/n) "); sys.stdout.flush()
open("answer", "w").write(sys.stdin.readline())
`
	dir := t.TempDir()
	cmd := exec.Command(bin, "--permission-mode", "auto", "--cwd", dir, "--", "python3", "-c", script)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("yume-cli: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	if n := strings.Count(out, `"type":"tool_use"`); n != 1 || !strings.Contains(out, `Proceed? (y/n)`) {
		t.Errorf("%d tool_uses, want one for Proceed?:\n%s", n, out)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "answer")); string(b) != "y\n" {
		t.Errorf("the program read %q", b)
	}
}

// TestQuestionWithoutARuleNobodyAnswers: a program blocked at a question
// no rule knows, when no GUI can answer (stdin ended before, or while it
// waits), ends its turn at once with the question in the error, instead
// of waiting for the turn timeout; the program gets no key.
func TestQuestionWithoutARuleNobodyAnswers(t *testing.T) {
	bin := buildCLI(t)
	script := `echo "Three colours are available."; printf 'Favourite colour: '; read a; echo "$a" > answered.txt`
	for _, closeAfterNotice := range []bool{false, true} {
		name := map[bool]string{false: "stdin ended before", true: "stdin ends while it waits"}[closeAfterNotice]
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(bin, "--cwd", dir, "--turn-timeout", "60s", "--", "sh", "-c", script)
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
			if !closeAfterNotice {
				_ = stdin.Close()
			}
			start := time.Now()
			var out strings.Builder
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				l := sc.Text()
				out.WriteString(l + "\n")
				if closeAfterNotice && strings.Contains(l, "waits for input that no rule") {
					_ = stdin.Close() // the GUI goes away with the question open
				}
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("the turn ended after %v; the turn timeout is 60s", took)
			}
			got := out.String()
			for _, want := range []string{`"is_error":true`, `no GUI can answer`, `Favourite colour:`, `Three colours are available.`} {
				if !strings.Contains(got, want) {
					t.Errorf("output lacks %q:\n%s", want, got)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "answered.txt")); err == nil {
				t.Errorf("the program got an answer nobody gave:\n%s", got)
			}
		})
	}
}
