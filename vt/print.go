package vt

import (
	"strings"

	"github.com/clipperhouse/displaywidth"
)

// printASCII prints the printable ASCII at the start of p (p[0] is
// printable) and returns how many bytes it consumed. It is the hot path:
// bytes are stored straight into the row's cells as they are scanned.
func (s *Screen) printASCII(p []byte) int {
	if s.insert || s.cur.charsets[s.cur.shift] == '0' {
		i := 0
		for ; i < len(p) && p[i] >= 0x20 && p[i] < 0x7f; i++ {
			s.printRune(rune(p[i]))
		}
		return i
	}
	s.dirty = true
	fg, bg, attr := s.cur.pen.fg, s.cur.pen.bg, s.cur.pen.attr
	i := 0
	for {
		if s.cur.wrapPending {
			s.wrap()
		}
		row, col := s.grid.rows[s.cur.row], s.cur.col
		row.unsplit(col, col) // the first cell may be half a wide character
		cells := row.cells[col:]
		k := 0
		for ; k < len(cells) && i < len(p); k, i = k+1, i+1 {
			b := p[i]
			if b < 0x20 || b >= 0x7f {
				break
			}
			// Whole-cell stores from registers: patching a template's
			// rune and copying it stalls on store forwarding.
			cells[k] = screenCell{ch: rune(b), fg: fg, bg: bg, attr: attr}
		}
		if end := col + k; end < len(row.cells) && row.cells[end].flags&cellCont != 0 {
			// The last byte overwrote the first half of a wide character.
			row.cells[end].ch, row.cells[end].flags = 0, 0
		}
		row.touch(col + k)
		s.lastRune = rune(p[i-1])
		more := i < len(p) && p[i] >= 0x20 && p[i] < 0x7f
		if col+k < s.cols {
			s.cur.col = col + k
			return i
		}
		s.cur.col = s.cols - 1
		if !s.autowrap {
			// Without auto-wrap the rest overwrites the last column.
			for ; more; more = i < len(p) && p[i] >= 0x20 && p[i] < 0x7f {
				cells[k-1].ch = rune(p[i])
				s.lastRune = rune(p[i])
				i++
			}
			return i
		}
		s.cur.wrapPending = true
		if !more {
			return i
		}
	}
}

// printRune prints one character of any width.
func (s *Screen) printRune(r rune) {
	if r < 0x80 && r >= 0x5f && s.cur.charsets[s.cur.shift] == '0' {
		r = decSpecial[r-0x5f]
	}
	w := 1
	if r >= 0x80 {
		w = displaywidth.Rune(r)
	}
	if w == 0 || s.joinsPrevious(r) {
		s.attach(r)
		return
	}
	s.dirty = true
	s.lastRune = r
	if w > 1 && s.cols < 2 {
		w = 1 // a one-column screen cannot hold a wide character
	}
	if s.cur.wrapPending {
		s.wrap()
	}
	if w == 2 && s.cur.col == s.cols-1 {
		if s.autowrap {
			// xterm leaves the last column empty and wraps the whole
			// character to the next line.
			s.grid.rows[s.cur.row].erase(s.cols-1, s.cols, s.cur.pen.blank())
			s.wrap()
		} else {
			s.cur.col = s.cols - 2
		}
	}
	row, col := s.grid.rows[s.cur.row], s.cur.col
	if s.insert {
		row.insertBlanks(col, w, s.cur.pen.blank())
	}
	row.unsplit(col, col+w)
	row.touch(col + w)
	row.cells[col] = s.cur.pen.cell(r)
	if w == 2 {
		row.cells[col].flags = cellWide
		row.cells[col+1] = s.cur.pen.cell(0)
		row.cells[col+1].flags = cellCont
	}
	s.advanceCol(w)
}

// advanceCol moves the cursor past w just-printed columns, entering the
// pending-wrap state at the right edge.
func (s *Screen) advanceCol(w int) {
	if s.cur.col+w < s.cols {
		s.cur.col += w
		return
	}
	s.cur.col = s.cols - 1
	s.cur.wrapPending = s.autowrap
}

// wrap moves to the start of the next line, scrolling at the bottom margin.
func (s *Screen) wrap() {
	s.grid.rows[s.cur.row].wrapped = true
	s.cur.wrapPending = false
	s.cur.col = 0
	s.index()
}

// prevCell is the column of the character just before the cursor: the one
// a combining mark belongs to. ok is false at the start of a line.
func (s *Screen) prevCell() (col int, ok bool) {
	col = s.cur.col - 1
	if s.cur.wrapPending {
		col = s.cur.col
	}
	row := s.grid.rows[s.cur.row]
	if col > 0 && row.cells[col].flags&cellCont != 0 {
		col--
	}
	return col, col >= 0 && (row.cells[col].ch != 0 || row.cells[col].flags&cellCluster != 0)
}

// joinsPrevious reports whether r continues the grapheme in the previous
// cell rather than starting a new one: the character after a zero-width
// joiner, a skin-tone modifier on an emoji, or the second regional
// indicator of a flag. Apps measure these sequences as one glyph, so a
// cell per rune would push the rest of the line out of place.
func (s *Screen) joinsPrevious(r rune) bool {
	col, ok := s.prevCell()
	if !ok {
		return false
	}
	row := s.grid.rows[s.cur.row]
	c := &row.cells[col]
	switch {
	case r >= 0x1f3fb && r <= 0x1f3ff: // emoji modifiers
		return c.flags&cellWide != 0
	case r >= 0x1f1e6 && r <= 0x1f1ff: // regional indicators pair up
		return c.flags&cellCluster == 0 && c.ch >= 0x1f1e6 && c.ch <= 0x1f1ff
	default:
		return c.flags&cellCluster != 0 && strings.HasSuffix(row.clusters[c.ch], "\u200d")
	}
}

// attach appends r to the grapheme in the previous cell. A variation
// selector 16 that turns a narrow symbol into an emoji widens the cell to
// two columns when the next column is free to take, as Ink and ratatui
// measure it.
func (s *Screen) attach(r rune) {
	col, ok := s.prevCell()
	if !ok {
		return // nothing to combine with: drop, as xterm does
	}
	s.dirty = true
	row := s.grid.rows[s.cur.row]
	g := row.text(col) + string(r)
	row.setCluster(col, g)
	if r != 0xfe0f || row.cells[col].flags&cellWide != 0 || s.cur.wrapPending {
		return
	}
	if col+1 >= s.cols || col+1 != s.cur.col || displaywidth.String(g) != 2 {
		return
	}
	row.unsplit(col+1, col+2)
	row.touch(col + 2)
	row.cells[col].flags |= cellWide
	cont := row.cells[col]
	cont.ch, cont.flags = 0, cellCont
	row.cells[col+1] = cont
	s.advanceCol(1)
}

// decSpecial maps 0x5f-0x7e to the DEC Special Graphics set (ESC ( 0),
// which ncurses and dialog use for line drawing.
var decSpecial = [32]rune{
	' ', '◆', '▒', '␉', '␌', '␍', '␊', '°', '±', '␤', '␋', '┘', '┐', '┌', '└', '┼',
	'⎺', '⎻', '─', '⎼', '⎽', '├', '┤', '┴', '┬', '│', '≤', '≥', 'π', '≠', '£', '·',
}

// execute performs a C0 control character.
func (s *Screen) execute(b byte) {
	switch b {
	case '\b':
		s.cur.wrapPending = false
		if s.cur.col > 0 {
			s.cur.col--
		}
	case '\t':
		s.cur.wrapPending = false
		s.cur.col = s.nextTab(s.cur.col, 1)
	case '\n', '\v', '\f':
		s.cur.wrapPending = false
		s.index()
		if s.newline {
			s.cur.col = 0
		}
	case '\r':
		s.cur.wrapPending = false
		s.cur.col = 0
	case 0x0e: // SO: G1 into use
		s.cur.shift = 1
	case 0x0f: // SI: back to G0
		s.cur.shift = 0
	case 0x1b: // only reached from ground
		s.state, s.inter = stEsc, 0
	}
}
