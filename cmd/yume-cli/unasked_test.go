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
	script := `echo "Three colours are available."; printf 'Favourite colour: '; read c; echo "$c" > chosen.txt`
	dir := t.TempDir()
	cmd := exec.Command(bin, "--permission-mode", "interactive", "--cwd", dir, "--", "sh", "-c", script)
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
