package vt

import (
	"bytes"
	"testing"
)

// TestScreenReplies checks the exact answer to each terminal query.
func TestScreenReplies(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"DSR cursor position", "ab\r\ncd\x1b[6n", "\x1b[2;3R"},
		{"DSR cursor position at home", "\x1b[6n", "\x1b[1;1R"},
		{"DECXCPR", "ab\r\ncd\x1b[?6n", "\x1b[?2;3R"},
		{"DSR in origin mode", "\x1b[3;5r\x1b[?6h\x1b[2;4H\x1b[6n", "\x1b[2;4R"},
		{"DSR status", "\x1b[5n", "\x1b[0n"},
		{"primary DA", "\x1b[c", "\x1b[?62;22c"},
		{"primary DA 0", "\x1b[0c", "\x1b[?62;22c"},
		{"DECID", "\x1bZ", "\x1b[?62;22c"},
		{"secondary DA", "\x1b[>c", "\x1b[>1;10;0c"},
		{"secondary DA 0", "\x1b[>0c", "\x1b[>1;10;0c"},
		{"tertiary DA", "\x1b[=c", "\x1bP!|00000000\x1b\\"},
		{"OSC 10 BEL", "\x1b]10;?\x07", "\x1b]10;rgb:ffff/ffff/ffff\x07"},
		{"OSC 10 ST", "\x1b]10;?\x1b\\", "\x1b]10;rgb:ffff/ffff/ffff\x1b\\"},
		{"OSC 11 BEL", "\x1b]11;?\x07", "\x1b]11;rgb:0000/0000/0000\x07"},
		{"OSC 11 ST", "\x1b]11;?\x1b\\", "\x1b]11;rgb:0000/0000/0000\x1b\\"},
		{"OSC 10 and 11 at once", "\x1b]10;?;?\x07", "\x1b]10;rgb:ffff/ffff/ffff\x07\x1b]11;rgb:0000/0000/0000\x07"},
		{"OSC 12 cursor colour", "\x1b]12;?\x07", "\x1b]12;rgb:ffff/ffff/ffff\x07"},
		{"OSC 4 palette", "\x1b]4;1;?\x07", "\x1b]4;1;rgb:cdcd/0000/0000\x07"},
		{"OSC 4 cube and grey", "\x1b]4;196;?;232;?\x1b\\", "\x1b]4;196;rgb:ffff/0000/0000\x1b\\\x1b]4;232;rgb:0808/0808/0808\x1b\\"},
		{"kitty keyboard query", "\x1b[?u", "\x1b[?0u"},
		{"kitty keyboard query after push", "\x1b[>1u\x1b[?u", "\x1b[?0u"},
		{"DECRQM 2026 reset", "\x1b[?2026$p", "\x1b[?2026;2$y"},
		{"DECRQM 2026 set", "\x1b[?2026h\x1b[?2026$p", "\x1b[?2026;1$y"},
		{"DECRQM DECCKM", "\x1b[?1h\x1b[?1$p", "\x1b[?1;1$y"},
		{"DECRQM cursor shown", "\x1b[?25$p", "\x1b[?25;1$y"},
		{"DECRQM bracketed paste", "\x1b[?2004h\x1b[?2004$p", "\x1b[?2004;1$y"},
		{"DECRQM mouse off", "\x1b[?1006$p", "\x1b[?1006;2$y"},
		{"DECRQM alt screen", "\x1b[?1049h\x1b[?1049$p", "\x1b[?1049;1$y"},
		{"DECRQM unknown", "\x1b[?9999$p", "\x1b[?9999;0$y"},
		{"DECRQM ANSI insert", "\x1b[4$p", "\x1b[4;2$y"},
		{"DECRQM ANSI permanent", "\x1b[2$p", "\x1b[2;4$y"},
		{"XTVERSION", "\x1b[>0q", "\x1bP>|yume-cli\x1b\\"},
		{"XTVERSION no param", "\x1b[>q", "\x1bP>|yume-cli\x1b\\"},
		{"text area size", "\x1b[18t", "\x1b[8;5;20t"},
		{"screen size", "\x1b[19t", "\x1b[9;5;20t"},
		{"pixel size", "\x1b[14t", "\x1b[4;80;160t"},
		{"cell size", "\x1b[16t", "\x1b[6;16;8t"},
		{"colour scheme", "\x1b[?996n", "\x1b[?997;1n"},
		{"XTGETTCAP", "\x1bP+q544e\x1b\\", "\x1bP0+r\x1b\\"},
		{"DECRQSS", "\x1bP$qm\x1b\\", "\x1bP0$r\x1b\\"},
		{"malformed DCS is not a query", "\x1bP+qx\x1b\\\x1bP+1=q\x1b\\", "\x1bP0+r\x1b\\"},
		{"DA with a parameter is not a query", "\x1b[1c\x1b[>1c", ""},
		{"setting a colour is not a query", "\x1b]10;#ffffff\x07\x1b]11;rgb:0/0/0\x1b\\", ""},
		{"cursor style is not XTVERSION", "\x1b[2 q", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewScreen(20, 5)
			var got bytes.Buffer
			s.SetReplyWriter(&got)
			s.Write([]byte(tt.input))
			if got.String() != tt.want {
				t.Errorf("reply = %q, want %q", got.String(), tt.want)
			}
			// Without a reply writer the same input is dropped quietly.
			fedScreen(20, 5, tt.input)
		})
	}
}

// TestScreenOSC: titles are kept, other OSC strings (cwd, marks,
// notifications, unnumbered ones) are consumed without printing anything.
func TestScreenOSC(t *testing.T) {
	s := NewScreen(20, 5)
	s.Write([]byte("\x1b]0;one\x07"))
	if s.Title() != "one" {
		t.Errorf("title after OSC 0 = %q", s.Title())
	}
	s.Write([]byte("\x1b]2;two\x1b\\\x1b]7501;state=idle\x07\x1b]9;note\x07\x1b]L\x07\x1b]133\x07"))
	if s.Title() != "two" {
		t.Errorf("title after OSC 2 and others = %q, want two", s.Title())
	}
	if s.String() != "" {
		t.Errorf("OSC leaked text: %q", s.String())
	}
}

func TestScreenPaletteRGB(t *testing.T) {
	tests := []struct {
		i    int
		want uint32
	}{{0, 0x000000}, {9, 0xff0000}, {15, 0xffffff}, {16, 0x000000}, {21, 0x0000ff}, {208, 0xff8700}, {231, 0xffffff}, {232, 0x080808}, {255, 0xeeeeee}}
	for _, tt := range tests {
		if got := paletteRGB(tt.i); got != tt.want {
			t.Errorf("paletteRGB(%d) = %06x, want %06x", tt.i, got, tt.want)
		}
	}
}
