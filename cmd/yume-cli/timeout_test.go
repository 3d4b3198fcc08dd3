//go:build unix

package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestToolTimeout: a command still running after --tool-timeout is
// interrupted with Ctrl-C; its tool_result keeps the output so far and
// says why it is cut, and the turn goes on to the program's next question.
func TestToolTimeout(t *testing.T) {
	bin := buildCLI(t)
	script := `printf 'Run this command? (y/n) '; read a; echo started; trap 'echo interrupted' INT; sleep 30 & wait
printf 'Run another? (y/n) '; read b; echo second done`
	cmd := exec.Command(bin, "--permission-mode", "auto", "--tool-timeout", "300ms", "--cwd", t.TempDir(), "--", "sh", "-c", script)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("yume-cli: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %v: the command was not interrupted", took)
	}
	out := stdout.String()
	types := streamTypes(t, out)
	if got := strings.Join(types, ","); strings.Count(got, "assistant") != 2 || strings.Count(got, "result") != 1 {
		t.Errorf("want two tool_uses and one result, got %s", got)
	}
	for _, want := range []string{`started\n[the command ran longer than --tool-timeout 300ms; yume-cli interrupted it with Ctrl-C]","is_error":true`, `second done`} {
		if !strings.Contains(out, want) {
			t.Errorf("stream lacks %s:\n%s", want, out)
		}
	}
}
