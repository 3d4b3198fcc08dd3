package vt

import (
	"io"
	"testing"
)

// FuzzScreen feeds arbitrary bytes, cut into arbitrary writes with resizes
// between them: the screen must never panic, its cursor and grid must stay
// consistent, and feeding the same bytes whole must give the same screen.
func FuzzScreen(f *testing.F) {
	for _, seed := range []string{
		"hello\r\nworld",
		"\x1b[1;31mred\x1b[0m \x1b[38;2;1;2;3mrgb\x1b[m",
		"中文😀\u0301\u200d👩🇺🇸⚠\ufe0f\xff\xc3",
		"\x1b[2;3r\x1b[5S\x1b[3T\x1bM\x1bD\x1bE\x1b[L\x1b[M\x1b[@\x1b[P\x1b[X",
		"\x1b[?1049h\x1b[?47l\x1b[?1047h\x1b[?1048l\x1b[?6h\x1b[?7l\x1b[4h",
		"\x1b]0;t\x07\x1b]10;?\x1b\\\x1bP+q\x1b\\\x1b_x\x1b\\\x1b[6n\x1b[?2026$p",
		"\x1b(0lqk\x0e\x0f\x1b#8\x1bc\x1b[!p\x1b[3g\x1bH\x1b[5b\t\x1b[9Z",
		string(splitFrame),
	} {
		f.Add(uint8(20), uint8(5), uint8(7), []byte(seed))
	}
	f.Fuzz(func(t *testing.T, cols, rows, cut uint8, data []byte) {
		c, r := int(cols%150)+1, int(rows%60)+1
		s := NewScreen(c, r)
		s.SetReplyWriter(io.Discard)
		s.SetScrollbackLimit(16)
		s.OnRetire(func(string, bool) {})
		whole := NewScreen(c, r)
		whole.Write(data)

		step := int(cut%32) + 1
		for off := 0; off < len(data); off += step {
			s.Write(data[off:min(off+step, len(data))])
			checkScreenInvariants(t, s)
		}
		if got, want := screenDump(s), screenDump(whole); got != want {
			t.Fatalf("chunks of %d differ from whole:\n%s\nvs\n%s", step, got, want)
		}
		for row := range s.Rows() {
			_ = s.Line(row)
		}
		s.Resize(int(cut%40)+1, int(cols%20)+1)
		checkScreenInvariants(t, s)
		s.Write(data)
		checkScreenInvariants(t, s)
		_ = s.String()
		_ = s.Scrollback(100)
	})
}
