package heuristics

import "testing"

func TestClaudeScreens(t *testing.T) {
	runTUICases(t, "claude", []tuiCase{
		{"claude-ready", nil},
		// A spinner and "esc to interrupt" while the model works.
		{"claude-working", nil},
		// The description row under the command is not part of it.
		{"claude-dialog", []tuiDet{{"bash-permission", map[string]string{
			"command": tuiCommand, "description": "Write made.txt", "prompt": "Do you want to proceed?"}}}},
		// "⎿  Running…" is a placeholder, not output.
		{"claude-output", nil},
		{"claude-done", []tuiDet{
			{"bash-output", map[string]string{"output": "wrote made.txt"}},
			{"turn-done", map[string]string{"text": "All done: made.txt holds two lines."}},
		}},
		{"claude-denied", []tuiDet{
			{"bash-output", map[string]string{"output": "Interrupted · What should Claude do instead?"}},
			{"turn-denied", map[string]string{"text": "Interrupted · What should Claude do instead?"}},
		}},
		// A two-paragraph answer is read whole, its indentation removed.
		{"claude-paragraphs", []tuiDet{
			{"bash-output", map[string]string{"output": "wrote made.txt"}},
			{"turn-done", map[string]string{"text": "All done: made.txt holds two lines.\n\nIt has alpha and beta."}},
		}},
	})
}
