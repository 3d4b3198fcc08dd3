package heuristics

import (
	"strings"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
	"github.com/yume-cli/yume-cli/vt"
)

// A TUI that takes its prompt only in its input box shows the box empty
// and waiting: a marker row near the bottom ("❯ ", "> ", "›", a "●" inside
// the box's frame) with nothing typed after it: no text, a drawn cursor
// (a block glyph, a reverse-video cell), or a placeholder drawn faint
// ("Ask anything..." in grey). Text in the row's own colour is something
// typed, or a transcript row ("❯ make the file"), not an empty box.

// readyGlyphs open an input box's row; "●" only inside a frame (outside
// one it is a transcript's bullet).
const readyGlyphs = "❯›>●"

// drawnCursors are the glyphs TUIs draw as their cursor.
const drawnCursors = "▋█▌▍▎▏▊▉"

// ReadyBox reports an empty input box waiting for text among the last
// rows of v, and its row.
func ReadyBox(v View) (int, bool) {
	for r := v.Rows() - 1; r >= 0; r-- {
		line := strings.ReplaceAll(v.Line(r), "\u00a0", " ") // Claude Code pads its box with no-break spaces
		t, framed := stripBorders(line)
		lead := strings.TrimLeft(t, " ")
		if lead == "" && framed && r > 0 && r+1 < v.Rows() && isEdge(v.Line(r-1)) && isEdge(v.Line(r+1)) {
			return r, true // a one-row box with nothing in it (Copilot CLI's ┃ between its edges)
		}
		g, size := utf8.DecodeRuneInString(lead)
		if size == 0 || !strings.ContainsRune(readyGlyphs, g) || g == '●' && !framed {
			continue
		}
		if len(lead) > size && lead[size] != ' ' {
			continue // ">>>", "›foo": not a marker and its gap
		}
		rest := strings.TrimLeft(lead[size:], " ")
		if rest == "" {
			return r, true
		}
		col := displayCol(line, rest)
		first, _ := utf8.DecodeRuneInString(rest)
		if strings.ContainsRune(drawnCursors, first) || placeholder(v.Style(r, col)) {
			return r, true
		}
	}
	return -1, false
}

// displayCol is the cell where part (found in line) starts.
func displayCol(line, part string) int {
	col := 0
	for _, r := range line[:max(strings.Index(line, part), 0)] {
		col += displaywidth.Rune(r)
	}
	return col
}

// placeholder reports a style TUIs draw a placeholder or a drawn cursor
// in: faint, italic, a grey, or reverse video.
func placeholder(s vt.Style) bool {
	return s.Dim || s.Italic || s.Reverse || grey(s.FG)
}

// grey reports a grey foreground: bright black, a 256-colour grey, or an
// RGB colour with equal-ish parts short of white.
func grey(c vt.Color) bool {
	switch {
	case c == 0:
		return false
	case c&(1<<24) != 0:
		r, g, b := int(c>>16&0xff), int(c>>8&0xff), int(c&0xff)
		hi, lo := max(r, g, b), min(r, g, b)
		return hi-lo <= 24 && hi >= 60 && hi <= 200
	}
	i := int(c) - 1 // palette index
	switch {
	case i == 8:
		return true
	case i >= 232 && i <= 250:
		return true
	case i == 59 || i == 102 || i == 145:
		return true // the 6x6x6 cube's greys
	}
	return false
}
