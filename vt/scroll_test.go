package vt

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// retiredBy feeds input to a cols x rows screen and returns what OnRetire
// saw, the screen, and Retired.
func retiredBy(cols, rows int, input ...string) ([]string, *Screen) {
	s := NewScreen(cols, rows)
	var got []string
	s.OnRetire(func(line string, _ bool) { got = append(got, line) })
	for _, in := range input {
		s.Write([]byte(in))
	}
	return got, s
}

// TestScreenRetire covers which lines leave the main screen, in what order.
func TestScreenRetire(t *testing.T) {
	tests := []struct {
		name    string
		input   []string
		retired []string
		screen  string
	}{
		{"nothing scrolled", []string{"a\r\nb\r\nc"}, nil, "a\nb\nc"},
		{"LF at bottom", []string{"1\r\n2\r\n3\r\n4\r\n5"}, []string{"1", "2"}, "3\n4\n5"},
		{"wrapped lines retire per row", []string{"abcdefgh\r\n\r\n\r\n"}, []string{"abcde", "fgh"}, ""},
		{"SU", []string{"1\r\n2\r\n3\x1b[2S"}, []string{"1", "2"}, "3"},
		{"region from the top row retires", []string{"1\r\n2\r\n3\x1b[1;2r\x1b[2;1H\n\n"}, []string{"1", "2"}, "\n\n3"},
		{"region below the top does not", []string{"1\r\n2\r\n3\x1b[2;3r\x1b[3;1H\n\n"}, nil, "1"},
		{"RI and SD never retire", []string{"1\r\n2\r\n3\x1b[H\x1bM\x1b[T"}, nil, "\n\n1"},
		{"DL does not retire", []string{"1\r\n2\r\n3\x1b[H\x1b[2M"}, nil, "3"},
		{"ED 2 retires down to the last non-blank row", []string{"1\r\n\r\n3\x1b[2J"}, []string{"1", "", "3"}, ""},
		{"ED 2 skips trailing blank rows", []string{"1\r\n\x1b[2J"}, []string{"1"}, ""},
		{"ED 2 on a blank screen", []string{"\x1b[2J\x1b[3J"}, nil, ""},
		{"clear then output", []string{"old\x1b[H\x1b[2J\x1b[3Jnew"}, []string{"old"}, "new"},
		{"ED 0 from home does not", []string{"1\r\n2\x1b[H\x1b[J"}, nil, ""},
		{"RIS retires", []string{"1\r\n2\x1bc"}, []string{"1", "2"}, ""},
		{"alt screen scrolling does not", []string{"main\x1b[?1049h1\r\n2\r\n3\r\n4\x1b[2J\x1b[?1049l"}, nil, "main"},
		{"wide and styled text", []string{"\x1b[31m中\x1b[0m x\r\n\r\n\r\n"}, []string{"中 x"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, s := retiredBy(5, 3, tt.input...)
			if !reflect.DeepEqual(got, tt.retired) {
				t.Errorf("retired %q, want %q", got, tt.retired)
			}
			if s.Retired() != uint64(len(tt.retired)) {
				t.Errorf("Retired() = %d, want %d", s.Retired(), len(tt.retired))
			}
			if scr := s.String(); scr != tt.screen {
				t.Errorf("screen = %q, want %q", scr, tt.screen)
			}
		})
	}
}

// TestScreenRetiredNumbering checks that Retired()+row names a line for
// good: the same text keeps its number as the screen scrolls.
func TestScreenRetiredNumbering(t *testing.T) {
	s := NewScreen(10, 4)
	for i := range 10 {
		fmt.Fprintf(s, "line %d\r\n", i)
	}
	// Line i is absolute line i; the cursor sits on the empty row after 9.
	for r := range s.Rows() - 1 {
		abs := s.Retired() + uint64(r)
		if want := fmt.Sprintf("line %d", abs); s.Line(r) != want {
			t.Errorf("row %d (absolute %d) = %q, want %q", r, abs, s.Line(r), want)
		}
	}
}

// TestScreenScrollback checks the bounded ring behind View.Scrollback.
func TestScreenScrollback(t *testing.T) {
	s := NewScreen(10, 2)
	s.SetScrollbackLimit(3)
	for i := range 6 {
		fmt.Fprintf(s, "%d\r\n", i)
	}
	// Lines 0-4 left the screen; the ring keeps the newest three.
	if got := s.Scrollback(10); !reflect.DeepEqual(got, []string{"2", "3", "4"}) {
		t.Errorf("Scrollback(10) = %q", got)
	}
	if got := s.Scrollback(2); !reflect.DeepEqual(got, []string{"3", "4"}) {
		t.Errorf("Scrollback(2) = %q", got)
	}
	if got := s.Scrollback(0); len(got) != 0 {
		t.Errorf("Scrollback(0) = %q", got)
	}
	s.SetScrollbackLimit(2) // shrinking keeps the newest
	if got := s.Scrollback(10); !reflect.DeepEqual(got, []string{"3", "4"}) {
		t.Errorf("after shrink Scrollback = %q", got)
	}
	s.SetScrollbackLimit(5) // growing keeps what there is
	fmt.Fprintf(s, "6\r\n")
	if got := s.Scrollback(10); !reflect.DeepEqual(got, []string{"3", "4", "5"}) {
		t.Errorf("after grow Scrollback = %q", got)
	}
	s.SetScrollbackLimit(0)
	fmt.Fprintf(s, "7\r\n")
	if got := s.Scrollback(10); len(got) != 0 || s.Retired() != 7 {
		t.Errorf("limit 0: Scrollback = %q, Retired = %d; want none and 7", got, s.Retired())
	}
}

// TestScreenRetireMemory feeds many megabytes of output and checks that
// every line arrives once, in order, while the ring stays bounded.
func TestScreenRetireMemory(t *testing.T) {
	s := NewScreen(80, 24)
	next, bad := 0, ""
	s.OnRetire(func(line string, _ bool) {
		if want := strings.TrimSpace(fmt.Sprintf("output line %d %s", next, strings.Repeat("x", next%50))); line != want && bad == "" {
			bad = fmt.Sprintf("line %d = %q, want %q", next, line, want)
		}
		next++
	})
	const total = 100000
	for i := range total {
		fmt.Fprintf(s, "\x1b[32moutput line %d\x1b[0m %s\r\n", i, strings.Repeat("x", i%50))
	}
	if bad != "" {
		t.Fatal(bad)
	}
	if want := total - 23; next != want || s.Retired() != uint64(want) {
		t.Errorf("retired %d lines (Retired %d), want %d", next, s.Retired(), want)
	}
	if n := len(s.Scrollback(1 << 30)); n != screenDefaultScrollback {
		t.Errorf("ring holds %d lines, want %d", n, screenDefaultScrollback)
	}
}
