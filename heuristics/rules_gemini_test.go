package heuristics

import "testing"

func TestGeminiScreens(t *testing.T) {
	runTUICases(t, "gemini", []tuiCase{
		{"gemini-starting", nil},
		// Tips and the idle input box before the prompt is sent.
		{"gemini-ready", nil},
		{"gemini-dialog", []tuiDet{{"shell-permission", map[string]string{
			"command": tuiCommand, "prompt": "Allow execution of [Shell]?"}}}},
		{"gemini-running", nil},
		{"gemini-done", []tuiDet{
			{"shell-output", map[string]string{"output": "wrote made.txt"}},
			{"turn-done", map[string]string{"text": "All done: made.txt holds two lines."}},
		}},
		{"gemini-denied", []tuiDet{{"turn-cancelled", map[string]string{"text": "Request cancelled."}}}},
		// A two-paragraph answer is read whole, its indentation removed.
		{"gemini-paragraphs", []tuiDet{
			{"shell-output", map[string]string{"output": "wrote made.txt"}},
			{"turn-done", map[string]string{"text": "All done: made.txt holds two lines.\n\nIt has alpha and beta."}},
		}},
	})
}
