package ptyhost

import "testing"

// TestPasteText: a typed prompt is text only; its line breaks survive only
// inside a bracketed paste.
func TestPasteText(t *testing.T) {
	for _, c := range []struct {
		text      string
		bracketed bool
		want      string
	}{
		{"fix it", false, "fix it"},
		{"one\ntwo\r\nthree", false, "one two  three"},
		{"one\ntwo\r\nthree\rfour", true, "\x1b[200~one\ntwo\nthree\nfour\x1b[201~"},
		{"end\x1b[201~then\x03 keys", true, "\x1b[200~end[201~then keys\x1b[201~"},
		{"日本語 🙂", true, "\x1b[200~日本語 🙂\x1b[201~"},
	} {
		if got := string(pasteText(c.text, c.bracketed)); got != c.want {
			t.Errorf("pasteText(%q, %v) = %q, want %q", c.text, c.bracketed, got, c.want)
		}
	}
}

func TestPromptRecognised(t *testing.T) {
	for _, c := range []struct {
		recorded, prompt string
		want             bool
	}{
		{"which word did I ask you to remember?", "which word did I ask you to remember?", true},
		{"**which** word did I\nask you to remember? @notes.md (attached)", "which word did I ask you to remember?", true},
		{"remember the word kiwi", "which word did I ask you to remember?", false},
		{"anything", "", false},
	} {
		if got := isPromptOf(c.recorded, c.prompt); got != c.want {
			t.Errorf("isPromptOf(%q, %q) = %v", c.recorded, c.prompt, got)
		}
	}
}
