// Package heuristics decides what a terminal screen means: declarative rule
// profiles (embedded YAML, --rules), the matching engine, and the keys that
// answer. It reads the screen through View, which the terminal emulator in
// vt implements. It is pure: no processes, no clock reads; time
// is passed in.
package heuristics

import "github.com/yume-cli/yume-cli/vt"

// The emulator's screen is what the driver hands the engine.
var _ View = (*vt.Screen)(nil)

// View is the read-only face of a screen that rules look at. Screen
// implements it; tests may use a fake.
type View interface {
	// Size of the visible grid.
	Cols() int
	Rows() int
	// Line is visible row r (0-based) as text: trailing blanks trimmed, a
	// wide character once, cursor-movement gaps as spaces.
	Line(r int) string
	// Cursor is where the cursor is (0-based row, col) and whether it is shown.
	Cursor() (row, col int, visible bool)
	// Style is the style of the cell at (r, c); it finds the highlighted
	// option of a menu (reverse video, a distinct colour, bold).
	Style(r, c int) vt.Style
	// AltScreen reports whether the alternate screen is active.
	AltScreen() bool
	// Retired counts every line that ever left the visible main screen, so
	// Retired()+r is an absolute line number for row r that survives scrolling.
	Retired() uint64
	// AppCursor reports DECCKM (ESC[?1h): arrow keys must be sent as ESC O x.
	AppCursor() bool
	// Scrollback is the last n lines that left the visible screen (scrolled
	// off the top or cleared), oldest first; fewer if fewer are kept.
	Scrollback(n int) []string
}
