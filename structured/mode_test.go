package structured

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeBin writes an executable script printing out for --version.
func fakeBin(t *testing.T, dir, name, out string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\necho '"+out+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestChooseMode(t *testing.T) {
	dir := t.TempDir()
	gemini := fakeBin(t, dir, "gemini", "0.61.0")
	codex := fakeBin(t, dir, "codex", "codex-cli 0.169.0")
	old := fakeBin(t, dir, "copilot", "0.0.100")
	cases := []struct {
		name, path, mode string
		resume           bool
		want, wantErr    string
	}{
		{"gemini", gemini, "auto", false, "acp", ""},
		{"gemini", gemini, "", true, "json", ""},
		{"gemini", gemini, "acp", true, "acp", ""},
		{"codex", codex, "auto", false, "json", ""},
		{"codex", codex, "acp", false, "", "no ACP mode"},
		{"copilot", old, "auto", false, "", "no structured mode"},
		{"gemini", gemini, "pty", false, "", "unknown structured mode"},
	}
	for _, c := range cases {
		m, _, err := chooseMode(context.Background(), prov(c.name), c.path, c.mode, c.resume)
		if got := m.Name; got != c.want || (c.wantErr == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("chooseMode(%s, %q, resume=%v) = %q, %v; want %q, %q", c.name, c.mode, c.resume, m.Name, err, c.want, c.wantErr)
		}
	}
}
