package heuristics

import "testing"

func TestCodexScreens(t *testing.T) {
	runTUICases(t, "codex", []tuiCase{
		{"codex-starting", nil},
		// A model-migration notice: answered by yume-cli, no tool_use.
		{"codex-migration", []tuiDet{{"model-migration", nil}}},
		// "• Running cmd" above the dialog is not a result; the reason is
		// the description.
		{"codex-dialog", []tuiDet{{"command-permission", map[string]string{
			"command": tuiCommand, "description": "Write made.txt outside the sandbox?",
			"prompt": "Would you like to run the following command?"}}}},
		{"codex-done", []tuiDet{
			{"command-output", map[string]string{"output": "wrote made.txt"}},
			{"turn-done", map[string]string{"text": "All done: made.txt holds two lines."}},
		}},
		{"codex-denied", []tuiDet{{"turn-interrupted", map[string]string{
			"text": "Conversation interrupted - use /feedback if something went wrong"}}}},
		// A two-paragraph answer is read whole, its indentation removed.
		{"codex-paragraphs", []tuiDet{
			{"command-output", map[string]string{"output": "wrote made.txt"}},
			{"turn-done", map[string]string{"text": "All done: made.txt holds two lines.\n\nIt has alpha and beta."}},
		}},
	})
}
