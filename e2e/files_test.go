package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// writeCall is the model's request to create name with content, with the
// CLI's own file tool (the GPT models of Codex and Copilot write files
// with an apply_patch patch).
func writeCall(provider, ws, name, content string) fakemodel.ToolCall {
	patch := "*** Begin Patch\n*** Add File: " + name + "\n+" + strings.ReplaceAll(strings.TrimSuffix(content, "\n"), "\n", "\n+") + "\n*** End Patch\n"
	switch provider {
	case "claude":
		return fakemodel.ToolCall{Name: "Write", Args: map[string]string{"file_path": filepath.Join(ws, name), "content": content}}
	case "gemini", "qwen":
		return fakemodel.ToolCall{Name: "write_file", Args: map[string]string{"file_path": filepath.Join(ws, name), "content": content}}
	case "opencode", "kilo":
		return fakemodel.ToolCall{Name: "write", Args: map[string]string{"filePath": filepath.Join(ws, name), "content": content}}
	}
	return fakemodel.ToolCall{Name: "apply_patch", Custom: patch}
}

// TestLiveFileWrite: every CLI asks before writing a file; the question is
// a Write tool_use with the file and its content, an approval writes it
// and a denial does not.
func TestLiveFileWrite(t *testing.T) {
	live(t)
	for pi, provider := range providers {
		for ai, approve := range []bool{true, false} {
			t.Run(provider+map[bool]string{true: "/approve", false: "/deny"}[approve], func(t *testing.T) {
				cell(t, pi, len(providers), ai, 2)
				cliPath(t, provider)
				fileWriteCase(t, newHome(t, provider), approve)
			})
		}
	}
}

// TestLiveFileWriteOldest: the same on the oldest release of each CLI in
// the drift matrix (.e2e/oldest/bin, from make e2e-deps), whose file
// dialogs differ (Claude Code 2.1.197 asks "Do you want to create NAME?"
// and logs the call only once it ran).
func TestLiveFileWriteOldest(t *testing.T) {
	live(t)
	bin, err := filepath.Abs(filepath.Join(binDir(t), "..", "oldest", "bin"))
	if err != nil {
		t.Fatal(err)
	}
	for pi, provider := range providers {
		for ai, approve := range []bool{true, false} {
			t.Run(provider+map[bool]string{true: "/approve", false: "/deny"}[approve], func(t *testing.T) {
				cell(t, pi, len(providers), 1-ai, 2) // the other half of TestLiveFileWrite's
				if _, err := os.Stat(filepath.Join(bin, provider)); err != nil {
					t.Skipf("no oldest %s in %s: run make e2e-deps", provider, bin)
				}
				fileWriteCase(t, newHomeIn(t, provider, bin), approve)
			})
		}
	}
}

// fileWriteCase asks the CLI in h to write a file and checks the question
// and what the answer did.
func fileWriteCase(t *testing.T, h *home, approve bool) {
	const name, content = "notes.md", "# Notes\n\nalpha\nbeta\n"
	provider, ws := h.provider, h.sb.Workspace
	script := fakemodel.Script{Replies: []fakemodel.Reply{{Text: "Writing notes.", ToolCalls: []fakemodel.ToolCall{writeCall(provider, ws, name, content)}}, {Text: "Written."}}}
	r := h.run(t, script, gui{answer: func(int) bool { return approve }}, "--mode", "pty", "--prompt", "write the notes")
	var w *use
	for i := range r.uses {
		if r.uses[i].Name == "Write" {
			w = &r.uses[i]
		}
		if c, ok := r.uses[i].Input["command"].(string); ok && strings.Contains(c, "--") && strings.Contains(c, "write the notes") {
			t.Errorf("a tool_use carries the CLI's own command line: %q", c)
		}
	}
	if w == nil {
		t.Fatalf("no Write tool_use: %+v", r.uses)
	}
	// Gemini's log holds the call only once it ran: its question is read
	// from the screen, which previews the lines, not the bytes (the last
	// newline).
	got, _ := w.Input["content"].(string)
	if fp, _ := w.Input["file_path"].(string); filepath.Base(fp) != name || strings.TrimSpace(got) != strings.TrimSpace(content) ||
		provider != "gemini" && got != content {
		t.Errorf("Write input = %v, want %s with %q", w.Input, name, content)
	}
	written, err := os.ReadFile(filepath.Join(ws, name))
	res := r.results[w.ID]
	if approve {
		if err != nil || string(written) != content || res.IsError {
			t.Errorf("approved: file %q, %v; result %+v", written, err, res)
		}
	} else if err == nil || !res.IsError {
		t.Errorf("denied: the file exists (%v) or the result is not an error: %+v", err == nil, res)
	}
}
