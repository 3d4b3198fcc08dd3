package vt

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// screenRun is everything a screen produced from some input: the dump,
// the replies it sent, its title and the lines it retired.
type screenRun struct {
	dump, replies, title, retired string
	styles                        []Style
}

// runChunks feeds input to a fresh 40x8 screen in the given chunks.
func runChunks(chunks [][]byte) screenRun {
	s := NewScreen(40, 8)
	var replies, retired bytes.Buffer
	s.SetReplyWriter(&replies)
	s.OnRetire(func(line string, _ bool) { fmt.Fprintf(&retired, "%q ", line) })
	for _, c := range chunks {
		s.Write(c)
	}
	run := screenRun{dump: screenDump(s), replies: replies.String(), title: s.Title(), retired: retired.String()}
	for r := range s.Rows() {
		for c := range s.Cols() {
			run.styles = append(run.styles, s.Style(r, c))
		}
	}
	return run
}

func (a screenRun) diff(b screenRun) string {
	switch {
	case a.dump != b.dump:
		return fmt.Sprintf("screen:\n%s\nvs\n%s", a.dump, b.dump)
	case a.replies != b.replies:
		return fmt.Sprintf("replies %q vs %q", a.replies, b.replies)
	case a.title != b.title:
		return fmt.Sprintf("title %q vs %q", a.title, b.title)
	case a.retired != b.retired:
		return fmt.Sprintf("retired %s vs %s", a.retired, b.retired)
	}
	for i := range a.styles {
		if a.styles[i] != b.styles[i] {
			return fmt.Sprintf("style of cell %d: %+v vs %+v", i, a.styles[i], b.styles[i])
		}
	}
	return ""
}

// splitFrame looks like a recorded session: every kind of sequence the
// parser knows, coloured text, wide and combining characters, queries,
// strings with both terminators, and enough lines to scroll.
var splitFrame = []byte("\x1b[?1049l\x1b[?2004h\x1b[?1004h\x1b[>1u\x1b]0;title\x07" +
	"\x1b[1;32m✓\x1b[0m build \x1b[38;2;255;128;0mok\x1b[m 中文 café\u0301 🇺🇸\r\n" +
	"\x1b]8;id=1;https://example.com\x1b\\link\x1b]8;;\x1b\\ \x1b[38:2::1:2:3mrgb\x1b[39m\r\n" +
	"\x1bP+q544e\x1b\\\x1b_Gf=100;AAAA\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\\x1b(0lqk\x1b(B\r\n" +
	"\x1b[6n\x1b[c\x1b[>c\x1b]11;?\x1b\\\x1b]10;?\x07\x1b[?u\x1b[?2026$p\x1b[>0q\x1b[5n\r\n" +
	"\x1b[2;20r\x1b[3;1H\x1b[2L\x1b[1Minserted\x1b[r\x1b[8;1H" +
	"line 1\r\nline 2\r\nline 3\r\n\x1b[7mline 4\x1b[27m\r\n\x1b[3Aup\x1b[K\x1b[2Ddn\x1b[3P\x1b[2@" +
	"\x1b[?25l\x1b[?1h\x1b=\x1b]7501;state=idle\x1b\\\x1b[?2026h\x1b[H\x1b[2J\x1b[?2026l" +
	"after clear ⚠\ufe0f \xff\xc3( \xe2\x82 tail\r\n")

// TestScreenSplitEscapes feeds splitFrame whole, byte by byte, cut in two
// at every offset and in random chunkings: the result must never depend
// on where reads split the stream.
func TestScreenSplitEscapes(t *testing.T) {
	whole := runChunks([][]byte{splitFrame})
	if whole.replies == "" || whole.title == "" || whole.retired == "" {
		t.Fatalf("frame exercised too little: %+v", whole)
	}
	var bytewise [][]byte
	for i := range splitFrame {
		bytewise = append(bytewise, splitFrame[i:i+1])
	}
	if d := runChunks(bytewise).diff(whole); d != "" {
		t.Fatalf("byte by byte differs from whole: %s", d)
	}
	for cut := 1; cut < len(splitFrame); cut++ {
		if d := runChunks([][]byte{splitFrame[:cut], splitFrame[cut:]}).diff(whole); d != "" {
			t.Fatalf("cut at %d (%q|%q) differs: %s", cut, splitFrame[max(cut-8, 0):cut], splitFrame[cut:min(cut+8, len(splitFrame))], d)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for try := range 200 {
		var chunks [][]byte
		for rest := splitFrame; len(rest) > 0; {
			n := min(1+rng.IntN(12), len(rest))
			chunks, rest = append(chunks, rest[:n]), rest[n:]
		}
		if d := runChunks(chunks).diff(whole); d != "" {
			t.Fatalf("random chunking %d differs: %s", try, d)
		}
	}
}

// TestScreenSplitUTF8 cuts each multi-byte character at every offset.
func TestScreenSplitUTF8(t *testing.T) {
	tests := []struct{ in, want string }{
		{"é", "é"},
		{"中", "中"},
		{"😀", "😀"},
		{"a€b", "a€b"},
		{"e\u0301", "e\u0301"},
		{"x\u200d", "x\u200d"},
	}
	for _, tt := range tests {
		for cut := 0; cut <= len(tt.in); cut++ {
			s := fedScreen(10, 2, tt.in[:cut], tt.in[cut:])
			if got := s.Line(0); got != tt.want {
				t.Errorf("%q cut at %d: Line = %q, want %q", tt.in, cut, got, tt.want)
			}
		}
		// One byte per write, with an escape sequence straight after.
		s := NewScreen(10, 2)
		for i := range len(tt.in) {
			s.Write([]byte{tt.in[i]})
		}
		s.Write([]byte("\x1b[1mZ"))
		if got := s.Line(0); got != tt.want+"Z" {
			t.Errorf("%q byte by byte: Line = %q, want %q", tt.in, got, tt.want+"Z")
		}
	}
}

// TestScreenInvalidUTF8 checks that bad bytes show as U+FFFD and never eat
// the good bytes after them, however the writes are split.
func TestScreenInvalidUTF8(t *testing.T) {
	tests := []struct{ in, want string }{
		{"\xff", "\ufffd"},
		{"a\xc3Ab", "a\ufffdAb"},
		{"\xe2\x82x", "\ufffd\ufffdx"},
		{"\xe2\x82\x1b[1mx", "\ufffd\ufffdx"},
		{"\xe0\x80\x80", "\ufffd\ufffd\ufffd"},
		{"\xed\xa0\x80", "\ufffd\ufffd\ufffd"}, // a UTF-16 surrogate
		{"\x9b31mred", "\ufffd31mred"},         // a C1 CSI byte is not a control in UTF-8
		{"\xc3\xa9\xa9", "é\ufffd"},
		{"\x1b[1\xc3\xa9x", "éx"}, // a non-ASCII byte ends the sequence
	}
	for _, tt := range tests {
		for cut := 0; cut <= len(tt.in); cut++ {
			s := fedScreen(20, 2, tt.in[:cut], tt.in[cut:])
			if got := s.Line(0); got != tt.want {
				t.Errorf("%q cut at %d: Line = %q, want %q", tt.in, cut, got, tt.want)
			}
		}
	}
}

// TestScreenIgnoredSequences checks that sequences with no visible effect
// are consumed whole: none of their bytes may show as text.
func TestScreenIgnoredSequences(t *testing.T) {
	tests := []struct{ name, in string }{
		{"bracketed paste", "\x1b[?2004h\x1b[?2004l"},
		{"mouse modes", "\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1006h\x1b[?1015h"},
		{"focus", "\x1b[?1004h"},
		{"kitty keyboard", "\x1b[>1u\x1b[>31u\x1b[=5;1u\x1b[<u\x1b[<2u"},
		{"modifyOtherKeys", "\x1b[>4;2m"},
		{"cursor style", "\x1b[2 q\x1b[ q"},
		{"title BEL", "\x1b]0;hello\x07\x1b]2;world\x07"},
		{"title ST", "\x1b]2;world\x1b\\"},
		{"hyperlink", "\x1b]8;;http://x\x1b\\\x1b]8;;\x1b\\"},
		{"OSC 52 clipboard", "\x1b]52;c;aGVsbG8=\x07"},
		{"OSC 133 prompt marks", "\x1b]133;A\x07\x1b]133;B\x07"},
		{"charsets", "\x1b(B\x1b)0\x1b*A\x1b+B\x1b%G"},
		{"keypad", "\x1b=\x1b>"},
		{"DCS", "\x1bPq#0;2;0;0;0#0~~@@vv\x1b\\"},
		{"malformed DCS header", "\x1bP1<2$qfoo\x1b\\\x1bP$1q\x1b\\"},
		{"APC kitty graphics", "\x1b_Ga=T,f=100;iVBORw0KGgo=\x1b\\"},
		{"PM SOS", "\x1b^private\x1b\\\x1bXstart of string\x1b\\"},
		{"XTWINOPS", "\x1b[22;0;0t\x1b[23;0;0t\x1b[8;24;80t"},
		{"unknown CSI", "\x1b[?1;2;3z\x1b[>5T\x1b[1$}"},
		{"lone ST", "\x1b\\"},
		{"CAN aborts", "\x1b[12\x18"},
		{"SUB aborts OSC", "\x1b]0;x\x1a"},
		{"huge OSC", "\x1b]52;c;" + string(bytes.Repeat([]byte("A"), 20000)) + "\x07"},
		{"huge params", "\x1b[" + string(bytes.Repeat([]byte("1;"), 100)) + "m"},
		{"huge number", "\x1b[99999999999999999999C"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fedScreen(30, 3, "a", tt.in, "b")
			if got := s.Line(0); got != "ab" && tt.name != "huge number" {
				t.Errorf("Line = %q, want %q", got, "ab")
			}
			if got := s.Line(1); got != "" {
				t.Errorf("Line(1) = %q, want empty", got)
			}
		})
	}
}
