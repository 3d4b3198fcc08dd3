package vt

import (
	"reflect"
	"testing"
)

// TestScreenResize checks what survives a size change and where the
// cursor lands.
func TestScreenResize(t *testing.T) {
	const fill = "line0\r\nline1\r\nline2\r\nline3" // cursor ends on row 3 of 4
	tests := []struct {
		name       string
		input      string
		cols, rows int
		want       string
		row, col   int
		retired    []string
	}{
		{"grow pads", fill, 8, 6, "line0\nline1\nline2\nline3", 3, 5, nil},
		{"narrower truncates", fill, 3, 4, "lin\nlin\nlin\nlin", 3, 2, nil},
		{"shorter keeps the cursor row", fill, 6, 2, "line2\nline3", 1, 5, []string{"line0", "line1"}},
		{"shorter drops blank rows below first", "a\r\nb", 6, 2, "a\nb", 1, 1, nil},
		{"shorter with cursor at top", "line0\x1b[3;1Hbelow\x1b[H", 6, 1, "line0", 0, 0, nil},
		{"wide char cut at the edge", "ab中", 3, 4, "ab", 0, 2, nil},
		{"one by one", fill, 1, 1, "l", 0, 0, []string{"line0", "line1", "line2"}},
		{"zero is clamped to one", "x", 0, -3, "x", 0, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewScreen(6, 4)
			var retired []string
			s.OnRetire(func(l string, _ bool) { retired = append(retired, l) })
			s.Write([]byte(tt.input))
			gen := s.Generation()
			s.Resize(tt.cols, tt.rows)
			checkScreenInvariants(t, s)
			if got := s.String(); got != tt.want {
				t.Errorf("screen = %q, want %q", got, tt.want)
			}
			if row, col, _ := s.Cursor(); row != tt.row || col != tt.col {
				t.Errorf("cursor = %d,%d, want %d,%d", row, col, tt.row, tt.col)
			}
			if !reflect.DeepEqual(retired, tt.retired) {
				t.Errorf("retired %q, want %q", retired, tt.retired)
			}
			if s.Generation() == gen {
				t.Error("Generation did not change")
			}
			// The screen keeps working at the new size.
			s.Write([]byte("\x1b[999;999HZ"))
			if r, c, _ := s.Cursor(); r != max(tt.rows, 1)-1 || c != max(tt.cols, 1)-1 {
				t.Errorf("after resize CUP lands at %d,%d", r, c)
			}
		})
	}
}

// TestScreenResizeAlt checks that resizing in the alternate screen keeps
// the main screen for the way back.
func TestScreenResizeAlt(t *testing.T) {
	s := fedScreen(6, 4, "one\r\ntwo\x1b[?1049h\x1b[4;1Halt")
	s.Resize(4, 3)
	s.Write([]byte("\x1b[?1049l!"))
	if got, want := s.String(), "one\ntwo!"; got != want {
		t.Errorf("main after alt resize = %q, want %q", got, want)
	}
	if s.Retired() != 0 {
		t.Errorf("Retired = %d, want 0", s.Retired())
	}
	// Tab stops exist in columns that appeared.
	s.Resize(20, 3)
	s.Write([]byte("\r\x1b[2I*"))
	if got := s.Line(1); got != "two!            *" {
		t.Errorf("tab after widening: %q", got)
	}
}

// TestScreenGeneration checks that Generation moves exactly when what a
// rule could see changes.
func TestScreenGeneration(t *testing.T) {
	tests := []struct {
		name    string
		input   string
		changes bool
	}{
		{"print", "x", true},
		{"cursor move", "\x1b[2;2H", true},
		{"hide cursor", "\x1b[?25l", true},
		{"erase", "\x1b[2K", true},
		{"alt screen", "\x1b[?1049h", true},
		{"empty write", "", false},
		{"SGR only", "\x1b[1;31m", false},
		{"title only", "\x1b]0;t\x07", false},
		{"query only", "\x1b[6n\x1b[c", false},
		{"mouse mode", "\x1b[?1000h", false},
		{"sync markers", "\x1b[?2026h\x1b[?2026l", false},
		{"half a sequence", "\x1b[3", false},
		{"half a rune", "\xe4\xb8", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fedScreen(10, 3, "ab")
			gen := s.Generation()
			s.Write([]byte(tt.input))
			if changed := s.Generation() != gen; changed != tt.changes {
				t.Errorf("Generation changed = %v, want %v", changed, tt.changes)
			}
		})
	}
}
