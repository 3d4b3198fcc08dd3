package driver

import "testing"

// TestDrawnAsWritten: a command read from a dialog goes to the GUI before
// the transcript has it only if no other text could have been drawn so.
func TestDrawnAsWritten(t *testing.T) {
	for _, c := range []struct {
		command string
		want    bool
	}{
		{"ls -la", true},
		{`printf '%s\n' "$HOME" | grep -c x # a note`, true},
		{"ls  -la", false},       // a tab may have been drawn as spaces
		{"echo 'a   b'", false},  // the same, or three spaces
		{"echo é", false},        // é may have been e and a combining accent
		{"echo 日本 🙂", false},     // wide characters: the same worry
		{"echo a\u200db", false}, // drawn "ab" by some TUIs
		{"echo a\tb", false},     // a screen never holds a tab; a command given one
		{" ls", true},            // one space, no run (the rule's group trims it)
	} {
		if got := drawnAsWritten(c.command); got != c.want {
			t.Errorf("drawnAsWritten(%q) = %v, want %v", c.command, got, c.want)
		}
	}
}
