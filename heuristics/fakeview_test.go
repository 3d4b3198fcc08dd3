package heuristics

import (
	"strings"

	"github.com/clipperhouse/displaywidth"
	"github.com/yume-cli/yume-cli/vt"
)

// fakeView is a View built from text rows, for rule tests that need no
// terminal emulator. Rows past the given ones are blank.
type fakeView struct {
	cols, rows int
	lines      []string
	curRow     int
	curCol     int
	hidden     bool
	styles     map[[2]int]vt.Style // per cell; missing cells are plain
	rowStyles  map[int]vt.Style    // whole-row styles, below per-cell ones
	retired    uint64
	appCursor  bool
	back       []string
}

// newFakeView lays out lines on a cols x rows screen with the cursor at the
// end of the last non-blank line, as a program waiting at a prompt leaves it.
func newFakeView(cols, rows int, lines ...string) *fakeView {
	v := &fakeView{cols: cols, rows: rows, lines: lines}
	for r := len(lines) - 1; r >= 0; r-- {
		if lines[r] != "" {
			v.curRow, v.curCol = r, displaywidth.String(lines[r])
			break
		}
	}
	return v
}

// screenOf splits a multi-line literal into rows.
func screenOf(cols, rows int, text string) *fakeView {
	return newFakeView(cols, rows, strings.Split(strings.TrimSuffix(text, "\n"), "\n")...)
}

func (v *fakeView) at(row, col int) *fakeView { v.curRow, v.curCol = row, col; return v }

func (v *fakeView) Cols() int { return v.cols }
func (v *fakeView) Rows() int { return v.rows }
func (v *fakeView) Line(r int) string {
	if r < 0 || r >= len(v.lines) {
		return ""
	}
	return strings.TrimRight(v.lines[r], " ")
}
func (v *fakeView) Cursor() (int, int, bool) { return v.curRow, v.curCol, !v.hidden }
func (v *fakeView) Style(r, c int) vt.Style {
	if s, ok := v.styles[[2]int{r, c}]; ok {
		return s
	}
	return v.rowStyles[r]
}
func (v *fakeView) AltScreen() bool { return false }
func (v *fakeView) Retired() uint64 { return v.retired }
func (v *fakeView) AppCursor() bool { return v.appCursor }
func (v *fakeView) Scrollback(n int) []string {
	if n > len(v.back) {
		n = len(v.back)
	}
	return v.back[len(v.back)-n:]
}

// styleRow gives every cell of row r style s.
func (v *fakeView) styleRow(r int, s vt.Style) *fakeView {
	if v.rowStyles == nil {
		v.rowStyles = map[int]vt.Style{}
	}
	v.rowStyles[r] = s
	return v
}

// scroll moves the top n rows into scrollback, as output past the bottom does.
func (v *fakeView) scroll(n int, newLines ...string) {
	v.back = append(v.back, v.lines[:n]...)
	v.lines = append(v.lines[n:], newLines...)
	v.retired += uint64(n)
}

// genView adds a change counter, as Screen has, so the engine can skip an
// unchanged screen.
type genView struct {
	*fakeView
	gen uint64
}

func (g *genView) Generation() uint64 { return g.gen }
