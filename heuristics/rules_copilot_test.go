package heuristics

import "testing"

// The Copilot CLI command the fake model asked for in the captures.
const tuiCommand = `printf 'alpha\nbeta\n' > made.txt && echo wrote made.txt`

func TestCopilotScreens(t *testing.T) {
	runTUICases(t, "copilot", []tuiCase{
		// Startup: tips, a model warning and a spinner are not questions.
		{"copilot-loading", nil},
		{"copilot-dialog", []tuiDet{{"shell-permission", map[string]string{
			"command": tuiCommand, "description": "Write made.txt", "prompt": "Do you want to run this command?"}}}},
		// The output is folded ("1 line…"): Ctrl-O, answered by yume-cli.
		{"copilot-folded", []tuiDet{{"unfold-output", nil}}},
		// Unfolded while the model still works: the output, not the end.
		{"copilot-unfolded", []tuiDet{{"shell-output", map[string]string{"output": "wrote made.txt"}}}},
		{"copilot-done", []tuiDet{
			{"shell-output", map[string]string{"output": "wrote made.txt"}},
			{"turn-done", map[string]string{"text": "All done: made.txt holds two lines."}},
		}},
		{"copilot-cancelling", nil},
		{"copilot-denied", []tuiDet{{"turn-done", map[string]string{"text": "Operation cancelled by user"}}}},
		// A two-paragraph answer is read whole, its indentation removed.
		{"copilot-paragraphs", []tuiDet{
			{"shell-output", map[string]string{"output": "wrote made.txt"}},
			{"turn-done", map[string]string{"text": "All done: made.txt holds two lines.\n\nIt has alpha and beta."}},
		}},
	})
}
