package vt

import "testing"

// TestScreenModes checks the mode flags View exposes.
func TestScreenModes(t *testing.T) {
	tests := []struct {
		name               string
		input              string
		appCursor, visible bool
		sync, alt          bool
		title              string
	}{
		{"defaults", "", false, true, false, false, ""},
		{"DECCKM set", "\x1b[?1h", true, true, false, false, ""},
		{"DECCKM reset", "\x1b[?1h\x1b[?1l", false, true, false, false, ""},
		{"DECCKM with other modes", "\x1b[?1;25l\x1b[?25;1h", true, true, false, false, ""},
		{"DECTCEM hide", "\x1b[?25l", false, false, false, false, ""},
		{"BSU", "\x1b[?2026h", false, true, true, false, ""},
		{"BSU ESU", "\x1b[?2026h\x1b[?2026l", false, true, false, false, ""},
		{"legacy DCS sync", "\x1bP=1s\x1b\\", false, true, true, false, ""},
		{"legacy DCS sync end", "\x1bP=1s\x1b\\\x1bP=2s\x1b\\", false, true, false, false, ""},
		{"alt 1049", "\x1b[?1049h", false, true, false, true, ""},
		{"alt 47", "\x1b[?47h", false, true, false, true, ""},
		{"alt 1047 leave", "\x1b[?1047h\x1b[?1047l", false, true, false, false, ""},
		{"title OSC 0", "\x1b]0;a title\x07", false, true, false, false, "a title"},
		{"title OSC 2 ST", "\x1b]0;old\x07\x1b]2;new\x1b\\", false, true, false, false, "new"},
		{"icon name leaves title", "\x1b]2;t\x07\x1b]1;icon\x07", false, true, false, false, "t"},
		{"RIS resets modes", "\x1b[?1h\x1b[?25l\x1b[?1049h\x1bc", false, true, false, false, ""},
		{"DECSTR resets modes", "\x1b[?1h\x1b[?25l\x1b[!p", false, true, false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fedScreen(10, 3, tt.input)
			_, _, vis := s.Cursor()
			if s.AppCursor() != tt.appCursor || vis != tt.visible || s.Synchronized() != tt.sync || s.AltScreen() != tt.alt {
				t.Errorf("appCursor=%v visible=%v sync=%v alt=%v, want %v %v %v %v",
					s.AppCursor(), vis, s.Synchronized(), s.AltScreen(), tt.appCursor, tt.visible, tt.sync, tt.alt)
			}
			if s.Title() != tt.title {
				t.Errorf("Title = %q, want %q", s.Title(), tt.title)
			}
		})
	}
}

// TestScreenAltScreen checks that the main screen survives a trip to the
// alternate one, with its cursor where each mode says.
func TestScreenAltScreen(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		want     string
		row, col int
	}{
		{"1049 restores screen and cursor", "main\r\nxy\x1b[?1049hALT\r\nstuff\x1b[?1049l!", "main\nxy!", 1, 3},
		{"1049 clears the alt screen on entry", "\x1b[?1049hold\x1b[?1049l\x1b[?1049h\x1b[3;1Hnew", "\n\nnew", 2, 3},
		{"47 keeps the cursor where alt left it", "main\x1b[?47h\x1b[2;2Halt\x1b[?47l!", "main\n    !", 1, 5},
		{"47 keeps alt content", "\x1b[?47hkept\x1b[?47l\x1b[?47h", "kept", 0, 4},
		{"1047 clears alt on leave", "\x1b[?1047hgone\x1b[?1047l\x1b[?47h", "", 0, 4},
		{"1048 saves the cursor", "ab\x1b[?1048h\x1b[3;3H\x1b[?1048lc", "abc", 0, 3},
		{"leave without enter is harmless", "main\x1b[?1049l", "main", 0, 4},
		{"enter twice keeps the first save", "m\x1b[?1049h\x1b[3;3H\x1b[?1049h\x1b[?1049lx", "mx", 0, 2},
		{"alt ED 2 leaves main alone", "main\x1b[?1049h\x1b[2J\x1b[?1049l", "main", 0, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fedScreen(10, 3, tt.input)
			if got := s.String(); got != tt.want {
				t.Errorf("screen = %q, want %q", got, tt.want)
			}
			if row, col, _ := s.Cursor(); row != tt.row || col != tt.col {
				t.Errorf("cursor = %d,%d, want %d,%d", row, col, tt.row, tt.col)
			}
		})
	}
}

// TestScreenTextModes covers insert mode, newline mode and charsets.
func TestScreenTextModes(t *testing.T) {
	tests := []struct{ name, input, want string }{
		{"IRM inserts", "abc\r\x1b[4hxy\x1b[4lz", "xyzbc"},
		{"IRM pushes text off the edge", "abcdefghij\r\x1b[4hXY", "XYabcdefgh"},
		{"LNM makes LF a newline", "\x1b[20ha\nb", "a\nb"},
		{"DEC graphics via G1 and SO", "\x1b)0a\x0eqqq\x0fb", "a───b"},
		{"DEC graphics ends with ESC ( B", "\x1b(0x\x1b(Bx", "│x"},
		{"UK charset prints ASCII", "\x1b(Aabc", "abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fedScreen(10, 3, tt.input).String(); got != tt.want {
				t.Errorf("screen = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestScreenStyles checks SGR through View.Style.
func TestScreenStyles(t *testing.T) {
	rgb := func(r, g, b uint32) Color { return Color(1<<24 | r<<16 | g<<8 | b) }
	tests := []struct {
		name, sgr string
		want      Style
	}{
		{"default", "", Style{}},
		{"bold", "1", Style{Bold: true}},
		{"dim italic underline reverse", "2;3;4;7", Style{Dim: true, Italic: true, Underline: true, Reverse: true}},
		{"22 clears bold and dim", "1;2;22", Style{}},
		{"23 24 27", "3;4;7;23;24;27", Style{}},
		{"reset", "1;31;0", Style{}},
		{"basic colours", "31;42", Style{FG: 2, BG: 3}},
		{"bright colours", "91;107", Style{FG: 10, BG: 16}},
		{"default colours", "31;42;39;49", Style{}},
		{"256 colours", "38;5;208;48;5;0", Style{FG: 209, BG: 1}},
		{"truecolour", "38;2;1;2;3", Style{FG: rgb(1, 2, 3)}},
		{"truecolour colon with colour space", "38:2::10:20:30", Style{FG: rgb(10, 20, 30)}},
		{"truecolour colon without colour space", "48:2:10:20:30", Style{BG: rgb(10, 20, 30)}},
		{"256 colours colon", "38:5:99", Style{FG: 100}},
		{"truecolour clamps", "38;2;300;0;0", Style{FG: rgb(255, 0, 0)}},
		{"colour then attribute", "38;5;1;1", Style{FG: 2, Bold: true}},
		{"truecolour then attribute", "38;2;1;2;3;4", Style{FG: rgb(1, 2, 3), Underline: true}},
		{"curly underline", "4:3", Style{Underline: true}},
		{"underline off by sub-parameter", "4;4:0", Style{}},
		{"underline colour is skipped", "58;2;1;2;3;1", Style{Bold: true}},
		{"underline colour colon", "58:5:1;3", Style{Italic: true}},
		{"truncated extended colour", "31;38;5", Style{FG: 2}},
		{"empty params reset", ";", Style{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fedScreen(10, 2, "\x1b[1;33;44m\x1b[0m\x1b["+tt.sgr+"mX中")
			if got := s.Style(0, 0); got != tt.want {
				t.Errorf("Style = %+v, want %+v", got, tt.want)
			}
			if got := s.Style(0, 2); got != tt.want {
				t.Errorf("wide char Style = %+v, want %+v", got, tt.want)
			}
		})
	}
	s := fedScreen(10, 2, "\x1b[41m\x1b[K")
	if got := s.Style(0, 5); got != (Style{BG: 2}) {
		t.Errorf("erased cell Style = %+v, want the erase background", got)
	}
	if got := s.Style(5, 0); got != (Style{}) {
		t.Errorf("out of range Style = %+v, want zero", got)
	}
}
