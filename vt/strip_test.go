package vt

import "testing"

// TestStripQueryReplies: terminal answers go, keys stay.
func TestStripQueryReplies(t *testing.T) {
	cases := []struct{ in, want string }{
		{"y\r", "y\r"},
		{"\x1b[12;40R", ""},                                  // cursor position
		{"\x1b[?12;40R", ""},                                 // DECXCPR
		{"\x1b[0n", ""},                                      // status
		{"\x1b[?62;22c\x1b[>1;10;0c", ""},                    // DA1, DA2
		{"\x1b[?1u", ""},                                     // kitty keyboard flags
		{"\x1b[?2004;1$y", ""},                               // DECRPM
		{"\x1b[4;600;800t", ""},                              // window size in pixels
		{"\x1b]11;rgb:0000/0000/0000\x1b\\", ""},             // OSC 11, ST
		{"\x1b]10;rgb:ffff/ffff/ffff\x07", ""},               // OSC 10, BEL
		{"\x1bP>|xterm(1)\x1b\\", ""},                        // XTVERSION (DCS)
		{"\x1b[B\x1b[B\r", "\x1b[B\x1b[B\r"},                 // arrows and Enter are keys
		{"\x1b[1;5A\x1bOA", "\x1b[1;5A\x1bOA"},               // modified and application arrows
		{"a\x1b[12;40Rb\x1b]11;x\x07c", "abc"},               // replies amid keys
		{"\x1b[200~text\x1b[201~", "\x1b[200~text\x1b[201~"}, // a paste is typed
		{"\x1b", "\x1b"},                                     // a lone Esc
	}
	for _, c := range cases {
		if got := string(StripQueryReplies([]byte(c.in))); got != c.want {
			t.Errorf("StripQueryReplies(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
