package heuristics

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDialogEnd: each TUI profile finds the end of its dialogs on the
// captured screens (the last row its dialog_end reads, by its text), and
// finds none on the same screen cut under the answer row (a frame drawn
// in pieces, as Gemini CLI writes its dialogs) or missing its last row.
func TestDialogEnd(t *testing.T) {
	for _, c := range []struct{ profile, screen, end string }{
		{"claude", "claude-dialog", " Esc to cancel"},
		{"claude", "claude-heredoc-dialog", " Esc to cancel"},
		{"claude", "claude-wrapped-dialog", " Esc to cancel"},
		{"codex", "codex-dialog", "  Press enter to confirm or esc to cancel"},
		{"codex", "codex-heredoc-dialog", "  Press enter to confirm or esc to cancel"},
		{"codex", "codex-wrapped-dialog", "  Press enter to confirm or esc to cancel"},
		{"copilot", "copilot-dialog", "╰─"},
		{"gemini", "gemini-dialog", "╰─"},
		{"opencode", "opencode-dialog", "  ┃   Allow once   Allow always   Reject"},
		{"opencode", "opencode-edit", "  ┃   Allow once   Allow always   Reject"},
		{"kilo", "kilo-dialog", "  ┃   Allow once   Allow always   Reject"},
		{"qwen", "qwen-dialog", "     4. No, suggest changes (esc)"},
	} {
		t.Run(c.screen, func(t *testing.T) {
			p, err := LoadProfile(c.profile)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join("testdata", "tui", c.screen+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			v := screenOf(120, 40, string(data))
			d := NewEngine(p).Asking(v)
			if d == nil {
				t.Fatal("no question on the screen")
			}
			row, ok := p.DialogEnd(v, d)
			if !ok || !strings.HasPrefix(v.Line(row), c.end) {
				t.Fatalf("DialogEnd = row %d %q, %v; want the row starting %q", row, v.Line(row), ok, c.end)
			}
			answer := d.Rows[len(d.Rows)-1]
			cuts := map[string][]string{
				"cut under the answer row": lines[:answer+1],
				"without its last row":     append(append([]string(nil), lines[:row]...), lines[row+1:]...),
			}
			if row == answer { // the end shares the answer's row (opencode): half of it drawn
				cuts["cut under the answer row"] = append(append([]string(nil), lines[:answer]...), lines[answer][:len(lines[answer])/2])
			}
			for what, cut := range cuts {
				cv := newFakeView(120, 40, cut...)
				if cd := NewEngine(p).Asking(cv); cd != nil {
					if r, ok := p.DialogEnd(cv, cd); ok {
						t.Errorf("%s: DialogEnd = row %d %q, want none", what, r, cv.Line(r))
					}
				}
			}
		})
	}
}
