//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSelfUpdateReported: a program that updates itself with no switch to
// turn it off ("npm update -g …" at start, as Cline and Continue's cn do)
// is reported as a system error Yume shows, while the turn is open; the
// switches of the agents that have one are in the program's environment.
func TestSelfUpdateReported(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	fake := filepath.Join(dir, "bin")
	if err := os.MkdirAll(fake, 0o755); err != nil {
		t.Fatal(err)
	}
	// A stand-in for npm: it only waits, as a slow install does.
	if err := os.WriteFile(filepath.Join(fake, "npm"), []byte("#!/bin/sh\nsleep 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := `npm update -g some-agent & printf '%s\n' "$CLINE_NO_AUTO_UPDATE" > env.txt; sleep 2; printf 'Keep going? (y/n) '; read a`
	cmd := exec.Command(bin, "--permission-mode", "auto", "--cwd", dir, "--", "sh", "-c", script)
	cmd.Env = append(os.Environ(), "PATH="+fake+":"+os.Getenv("PATH"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("yume-cli: %v\n%s\n%s", err, out, stderr.String())
	}
	if !strings.Contains(string(out), `"subtype":"error","message":"yume-cli: the program started a self-update (`) ||
		!strings.Contains(string(out), "npm update -g some-agent") {
		t.Errorf("no report of the self-update in the stream:\n%s", out)
	}
	if env, _ := os.ReadFile(filepath.Join(dir, "env.txt")); strings.TrimSpace(string(env)) != "1" {
		t.Errorf("CLINE_NO_AUTO_UPDATE in the program's environment = %q, want 1", env)
	}
}
