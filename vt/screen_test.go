package vt

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var screenUpdate = flag.Bool("screen.update", false, "rewrite the golden screen dumps in testdata/screen")

// fedScreen is a cols x rows screen fed each write in turn.
func fedScreen(cols, rows int, writes ...string) *Screen {
	s := NewScreen(cols, rows)
	for _, w := range writes {
		s.Write([]byte(w))
	}
	return s
}

// screenDump is the golden form of a screen: its text, then the cursor
// and the modes a rule would look at.
func screenDump(s *Screen) string {
	row, col, vis := s.Cursor()
	return fmt.Sprintf("%s\n-- cursor %d,%d visible=%v alt=%v retired=%d\n",
		s.String(), row, col, vis, s.AltScreen(), s.Retired())
}

// checkScreenGolden compares got with testdata/screen/name.txt.
func checkScreenGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "screen", name+".txt")
	if *screenUpdate {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run Screen ./vt/ -screen.update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("screen differs from %s:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// TestScreenGolden feeds recorded-looking output and compares the screen
// with a golden dump.
func TestScreenGolden(t *testing.T) {
	tests := []struct {
		name       string
		cols, rows int
		input      string
	}{
		{"wide", 12, 6, goldenWide},
		{"ink-frame", 40, 10, goldenInkFrame},
		{"codex-inline", 30, 8, goldenCodexInline},
		{"dec-graphics", 12, 4, "\x1b(0lqqqqk\r\nx\x1b(B ok \x1b(0x\r\nmqqqqj\x1b(B done"},
		{"alt-restore", 20, 5, goldenAltRestore},
		{"scroll-region", 10, 6, goldenScrollRegion},
		{"graphemes", 16, 5, goldenGraphemes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkScreenGolden(t, tt.name, screenDump(fedScreen(tt.cols, tt.rows, tt.input)))
		})
	}
}

const (
	// CJK and emoji take two columns; 界 does not fit in the last column
	// of row 1 and wraps whole; overwriting half of 中 blanks the other half.
	goldenWide = "中文 ok 😀x\r\nabcdefghijk界\r\n\x1b[4;1H中中\x1b[4;2HZ\x1b[5;1H全角ＡＢ"

	// An Ink-style frame: synchronized, drawn, then redrawn in place by
	// erasing lines upwards (log-update) with a second version.
	goldenInkFrame = "\x1b[?2026h\x1b[?25l" +
		"\x1b[38;5;174m╭──────────────────────────────────────╮\x1b[39m\r\n" +
		"\x1b[38;5;174m│\x1b[39m \x1b[1mBash command\x1b[22m                         \x1b[38;5;174m│\x1b[39m\r\n" +
		"\x1b[38;5;174m│\x1b[39m   npm test                           \x1b[38;5;174m│\x1b[39m\r\n" +
		"\x1b[38;5;174m╰──────────────────────────────────────╯\x1b[39m\r\n" +
		"\x1b[?2026l" +
		"\x1b[?2026h\x1b[2K\x1b[1A\x1b[2K\x1b[1A\x1b[2K\x1b[1A\x1b[2K\x1b[1A\x1b[2K\x1b[G" +
		"\x1b[38;5;174m╭──────────────────────────────────────╮\x1b[39m\r\n" +
		"\x1b[38;5;174m│\x1b[39m Do you want to proceed?              \x1b[38;5;174m│\x1b[39m\r\n" +
		"\x1b[38;5;174m│\x1b[39m \x1b[36m❯\x1b[39m \x1b[36m1. Yes\x1b[39m                             \x1b[38;5;174m│\x1b[39m\r\n" +
		"\x1b[38;5;174m│\x1b[39m   2. No, and tell Claude what to do  \x1b[38;5;174m│\x1b[39m\r\n" +
		"\x1b[38;5;174m╰──────────────────────────────────────╯\x1b[39m\r\n" +
		"\x1b]0;✳ Claude Code\a\x1b[?2026l"

	// Codex's inline viewport: history is pushed above the 3-row composer
	// by scrolling a region that ends just above it.
	goldenCodexInline = "\x1b[6;1H› \x1b[2mAsk Codex to do anything\x1b[22m\r\n\r\n  ⏎ send" +
		"\x1b[1;5r\x1b[5;1H" +
		"\r\n• line one\r\n• line two\r\n• line three\r\n• line four\r\n• line five\r\n• line six" +
		"\x1b[r\x1b[6;3H"

	goldenAltRestore = "$ vim notes.txt\r\n" +
		"\x1b[?1049h\x1b[22;0;0t\x1b[H\x1b[2J\x1b[1;1Hhello from vim\x1b[5;1H\x1b[7m-- INSERT --\x1b[27m" +
		"\x1b[?1049l\x1b[23;0;0t$ "

	// A region over rows 2-5: two LFs at its bottom scroll it, an RI at
	// its top scrolls it back; rows 1 and 6 never move.
	goldenScrollRegion = "top\x1b[6;1Hbottom\x1b[2;5r\x1b[2;1Ha\r\nb\r\nc\r\nd\r\ne\r\nf" +
		"\x1b[2;1H\x1bMnew"

	// Combining accent, ZWJ family, flag, skin tone, VS16 widening ⚠.
	goldenGraphemes = "cafe\u0301!\r\n[👨\u200d👩\u200d👧]\r\n[🇺🇸]\r\n[👍🏽]\r\n[⚠\ufe0f]x"
)

// TestScreenCursorMoves checks cursor movement through the spacing it
// leaves between characters and where the cursor ends up.
func TestScreenCursorMoves(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		want     string
		row, col int
	}{
		{"CUF gap", "a\x1b[5Cb", "a     b", 0, 7},
		{"CUF default 1", "a\x1b[Cb", "a b", 0, 3},
		{"CUF zero is one", "a\x1b[0Cb", "a b", 0, 3},
		{"CUF clamps", "a\x1b[999Cb", "a                  b", 0, 19},
		{"CUB", "abcdef\x1b[3DX", "abcXef", 0, 4},
		{"CUP", "\x1b[2;4Hx", "\n   x", 1, 4},
		{"HVP", "\x1b[2;4fx", "\n   x", 1, 4},
		{"CUP defaults home", "abc\x1b[Hx", "xbc", 0, 1},
		{"CUP clamps", "\x1b[99;99Hx", "\n\n\n\n                   x", 4, 19},
		{"CHA", "abcdef\x1b[3GX", "abXdef", 0, 3},
		{"HPA", "abcdef\x1b[2`X", "aXcdef", 0, 2},
		{"VPA keeps column", "ab\x1b[3dX", "ab\n\n  X", 2, 3},
		{"CUU CUD", "\x1b[3;3Hx\x1b[2Ay\x1b[1Bz", "   y\n    z\n  x", 1, 5},
		{"CNL CPL", "ab\x1b[2Ec\x1b[1Fd", "ab\nd\nc", 1, 1},
		{"CR", "abc\rX", "Xbc", 0, 1},
		{"BS", "abc\b\bX", "aXc", 0, 2},
		{"BS at column 0", "\bX", "X", 0, 1},
		{"HT", "a\tb\tc", "a       b       c", 0, 17},
		{"HT at end stops at last column", "\x1b[19Ga\tb", "                  ab", 0, 19},
		{"HTS and TBC", "\x1b[3g\x1b[4G\x1bH\r\tx\tY", "   x               Y", 0, 19},
		{"CHT CBT", "\x1b[2Ix\x1b[2Zy", "        y       x", 0, 9},
		{"LF keeps column", "ab\ncd", "ab\n  cd", 1, 4},
		{"DECSC DECRC", "ab\x1b7\x1b[3;5Hx\x1b8c", "abc\n\n    x", 0, 3},
		{"SCOSC SCORC", "ab\x1b[s\x1b[3;5Hx\x1b[uc", "abc\n\n    x", 0, 3},
		{"origin mode", "\x1b[2;4r\x1b[?6h\x1b[1;1Hx\x1b[9;1Hy", "\nx\n\ny", 3, 1},
		{"origin mode off homes", "\x1b[2;4r\x1b[?6h\x1b[?6lx", "x", 0, 1},
		{"REP", "ab\x1b[3bc", "abbbbc", 0, 6},
		{"DEL ignored", "a\x7fb", "ab", 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fedScreen(20, 5, tt.input)
			if got := s.String(); got != tt.want {
				t.Errorf("screen = %q, want %q", got, tt.want)
			}
			if row, col, _ := s.Cursor(); row != tt.row || col != tt.col {
				t.Errorf("cursor = %d,%d, want %d,%d", row, col, tt.row, tt.col)
			}
		})
	}
}

// TestScreenErase covers line and display clearing and the insert/delete
// operations, on a 6x4 screen pre-filled with a recognisable pattern.
func TestScreenErase(t *testing.T) {
	const fill = "abcdef\r\nghijkl\r\nmnopqr\r\nstuvwx"
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{"EL 0", "\x1b[2;3H\x1b[K", "abcdef\ngh\nmnopqr\nstuvwx"},
		{"EL 1", "\x1b[2;3H\x1b[1K", "abcdef\n   jkl\nmnopqr\nstuvwx"},
		{"EL 2", "\x1b[2;3H\x1b[2K", "abcdef\n\nmnopqr\nstuvwx"},
		{"ED 0", "\x1b[2;3H\x1b[J", "abcdef\ngh"},
		{"ED 1", "\x1b[2;3H\x1b[1J", "\n   jkl\nmnopqr\nstuvwx"},
		{"ED 2", "\x1b[2;3H\x1b[2J", ""},
		{"ED 3 keeps the visible screen", "\x1b[3J", fill[:6] + "\nghijkl\nmnopqr\nstuvwx"},
		{"ECH", "\x1b[2;2H\x1b[3X", "abcdef\ng   kl\nmnopqr\nstuvwx"},
		{"ICH", "\x1b[2;2H\x1b[2@", "abcdef\ng  hij\nmnopqr\nstuvwx"},
		{"DCH", "\x1b[2;2H\x1b[2P", "abcdef\ngjkl\nmnopqr\nstuvwx"},
		{"IL", "\x1b[2;4H\x1b[L", "abcdef\n\nghijkl\nmnopqr"},
		{"DL", "\x1b[2;4H\x1b[2M", "abcdef\nstuvwx"},
		{"DECSTBM 0 bottom means last row", "\x1b[2;0r\x1b[4;1H\n", "abcdef\nmnopqr\nstuvwx"},
		{"IL in region", "\x1b[1;3r\x1b[2;1H\x1b[L", "abcdef\n\nghijkl\nstuvwx"},
		{"IL outside region ignored", "\x1b[1;2r\x1b[4;1H\x1b[L", "abcdef\nghijkl\nmnopqr\nstuvwx"},
		{"SU", "\x1b[2S", "mnopqr\nstuvwx"},
		{"SD", "\x1b[T", "\nabcdef\nghijkl\nmnopqr"},
		{"SU in region", "\x1b[2;3r\x1b[S", "abcdef\nmnopqr\n\nstuvwx"},
		{"DECALN", "\x1b#8", "EEEEEE\nEEEEEE\nEEEEEE\nEEEEEE"},
		{"erase splits wide char", "\x1b[1;1H中文\x1b[1;2H\x1b[K", "\nghijkl\nmnopqr\nstuvwx"},
		{"ICH pushes wide char off", "\x1b[3;1H中文字\x1b[3;1H\x1b[@", "abcdef\nghijkl\n 中文\nstuvwx"},
		{"DCH removes half a wide char", "\x1b[3;1H中文字\x1b[3;2H\x1b[P", "abcdef\nghijkl\n 文字\nstuvwx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fedScreen(6, 4, fill, tt.input)
			if got := s.String(); got != tt.want {
				t.Errorf("screen = %q, want %q", got, tt.want)
			}
			checkScreenInvariants(t, s)
		})
	}
}

// TestScreenWrap covers auto-wrap and its pending state at the last column.
func TestScreenWrap(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		want     string
		row, col int
	}{
		{"pending at last column", "abcde", "abcde", 0, 4},
		{"next char wraps", "abcdef", "abcde\nf", 1, 1},
		{"CR cancels the wrap", "abcde\rX", "Xbcde", 0, 1},
		{"LF after full line", "abcde\r\nf", "abcde\nf", 1, 1},
		{"wide char at last column wraps whole", "abcd中", "abcd\n中", 1, 2},
		{"wide char exactly fills", "abc中", "abc中", 0, 4},
		{"DECAWM off overwrites last column", "\x1b[?7labcdefg", "abcdg", 0, 4},
		{"DECAWM off wide char at edge", "\x1b[?7labcd中", "abc中", 0, 4},
		{"ASCII over the first half of a wide char", "中\rX", "X", 0, 1},
		{"ASCII over the second half of a wide char", "中\x1b[2GX", " X", 0, 2},
		{"ASCII over both halves", "a中b\x1b[2GXY", "aXYb", 0, 3},
		{"wide over wide, shifted", "中文\x1b[2G字", " 字", 0, 3},
		{"wrap scrolls at bottom", "abcdefghijklmnopq", "fghij\nklmno\npq", 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fedScreen(5, 3, tt.input)
			if got := s.String(); got != tt.want {
				t.Errorf("screen = %q, want %q", got, tt.want)
			}
			if row, col, _ := s.Cursor(); row != tt.row || col != tt.col {
				t.Errorf("cursor = %d,%d, want %d,%d", row, col, tt.row, tt.col)
			}
			checkScreenInvariants(t, s)
		})
	}
}

// TestScreenLineText checks how Line renders what is in a row.
func TestScreenLineText(t *testing.T) {
	s := fedScreen(10, 3, "\x1b[1;3Hx   \x1b[2;1H中a\x1b[41m  \x1b[3;1H\x1b[1;31m   ")
	want := []string{"  x", "中a", ""}
	for r, w := range want {
		if got := s.Line(r); got != w {
			t.Errorf("Line(%d) = %q, want %q", r, got, w)
		}
	}
	if got := s.Line(-1) + s.Line(3); got != "" {
		t.Errorf("out of range lines = %q, want empty", got)
	}
	if got := strings.Join(s.Lines(), "|"); got != "  x|中a|" {
		t.Errorf("Lines = %q", got)
	}
}

// checkScreenInvariants fails t if the grid is inconsistent: rows of the
// wrong width, half a wide character, a cursor or region out of bounds.
func checkScreenInvariants(t testing.TB, s *Screen) {
	t.Helper()
	if s.cur.row < 0 || s.cur.row >= s.rows || s.cur.col < 0 || s.cur.col >= s.cols {
		t.Fatalf("cursor %d,%d outside %dx%d", s.cur.row, s.cur.col, s.cols, s.rows)
	}
	if s.top < 0 || s.bot >= s.rows || s.top >= s.bot && s.rows > 1 {
		t.Fatalf("scroll region %d..%d on %d rows", s.top, s.bot, s.rows)
	}
	for _, g := range []*screenGrid{s.main, s.alt} {
		if len(g.rows) != s.rows {
			t.Fatalf("grid has %d rows, want %d", len(g.rows), s.rows)
		}
		for r, row := range g.rows {
			if len(row.cells) != s.cols {
				t.Fatalf("row %d has %d cells, want %d", r, len(row.cells), s.cols)
			}
			for c := range row.cells[row.used:] {
				if row.cells[row.used+c] != (screenCell{}) {
					t.Fatalf("row %d col %d: written cell past used=%d", r, row.used+c, row.used)
				}
			}
			for c := range row.cells {
				wide := row.cells[c].flags&cellWide != 0
				nextCont := c+1 < s.cols && row.cells[c+1].flags&cellCont != 0
				if wide != nextCont {
					t.Fatalf("row %d col %d: wide=%v but next continuation=%v", r, c, wide, nextCont)
				}
				if row.cells[c].flags&cellCont != 0 && (c == 0 || row.cells[c-1].flags&cellWide == 0) {
					t.Fatalf("row %d col %d: continuation without a wide character", r, c)
				}
				if row.cells[c].flags&cellCluster != 0 && int(row.cells[c].ch) >= len(row.clusters) {
					t.Fatalf("row %d col %d: cluster index out of range", r, c)
				}
			}
		}
	}
}
