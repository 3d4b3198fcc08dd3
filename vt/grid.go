package vt

import "unicode/utf8"

// screenCell is one grid position. It is 16 bytes so rows copy cheaply.
type screenCell struct {
	ch     rune // 0: never written or erased (shows as a space); an index into clusters with cellCluster
	fg, bg Color
	attr   uint8
	flags  uint8
}

// Cell flags.
const (
	cellWide    uint8 = 1 << iota // first half of a double-width character
	cellCont                      // second half of one: renders nothing
	cellCluster                   // ch indexes screenRow.clusters: a multi-rune grapheme
)

// Cell attributes (SGR).
const (
	attrBold uint8 = 1 << iota
	attrDim
	attrItalic
	attrUnderline
	attrReverse
	attrBlink
	attrHidden
	attrStrike
)

// screenPen is the rendition new characters get.
type screenPen struct {
	fg, bg Color
	attr   uint8
}

// cell is a cell holding ch drawn with the pen.
func (p screenPen) cell(ch rune) screenCell {
	return screenCell{ch: ch, fg: p.fg, bg: p.bg, attr: p.attr}
}

// blank is what erasing leaves: no character, the pen's background
// (xterm's background-colour erase), no other attributes.
func (p screenPen) blank() screenCell { return screenCell{bg: p.bg} }

func (c *screenCell) style() Style {
	return Style{
		FG: c.fg, BG: c.bg,
		Bold:      c.attr&attrBold != 0,
		Dim:       c.attr&attrDim != 0,
		Italic:    c.attr&attrItalic != 0,
		Underline: c.attr&attrUnderline != 0,
		Reverse:   c.attr&attrReverse != 0,
	}
}

// screenRow is one line of the grid. Rows are moved by pointer when the
// screen scrolls, so the grapheme clusters a row owns travel with it.
type screenRow struct {
	cells    []screenCell
	clusters []string
	// used bounds the cells ever written since the row was last cleared:
	// cells[used:] are all the zero cell, so rendering and clearing a
	// short line never walk the whole width.
	used int
	// wrapped: the terminal carried this row's text on to the next row
	// (auto-wrap), as xterm marks it; cleared when the row is cleared or
	// erased to its end. What a copy of the screen joins, and where a
	// reader can tell a wrapped line from one that ended at a space.
	wrapped bool
}

func newScreenRow(cols int) *screenRow {
	return &screenRow{cells: make([]screenCell, cols)}
}

// reset blanks the whole row and forgets its clusters.
func (r *screenRow) reset(blank screenCell) {
	r.clusters, r.wrapped = r.clusters[:0], false
	if blank == (screenCell{}) {
		clear(r.cells[:r.used])
		r.used = 0
		return
	}
	for i := range r.cells {
		r.cells[i] = blank
	}
	r.used = len(r.cells)
}

// touch records that cells before end may have been written.
func (r *screenRow) touch(end int) {
	r.used = max(r.used, end)
}

// unsplit makes cells [a, b) safe to overwrite: a wide character with one
// half inside the range and one outside loses its outside half, so no
// orphan half is left on screen.
func (r *screenRow) unsplit(a, b int) {
	n := len(r.cells)
	if a > 0 && a < n && r.cells[a].flags&cellCont != 0 {
		r.cells[a-1].ch, r.cells[a-1].flags = 0, 0
	}
	if b > 0 && b < n && r.cells[b].flags&cellCont != 0 {
		r.cells[b].ch, r.cells[b].flags = 0, 0
	}
}

// erase blanks cells [a, b), clamped to the row.
func (r *screenRow) erase(a, b int, blank screenCell) {
	a, b = max(a, 0), min(b, len(r.cells))
	if a >= b {
		return
	}
	if a == 0 && b == len(r.cells) {
		r.reset(blank)
		return
	}
	r.wrapped = r.wrapped && b < len(r.cells)
	r.unsplit(a, b)
	if blank == (screenCell{}) {
		clear(r.cells[a:max(min(b, r.used), a)])
		if b >= r.used {
			r.used = min(r.used, a)
		}
		return
	}
	for i := a; i < b; i++ {
		r.cells[i] = blank
	}
	r.touch(b)
}

// insertBlanks shifts cells from col right by n (ICH); cells pushed past
// the edge are lost.
func (r *screenRow) insertBlanks(col, n int, blank screenCell) {
	cols := len(r.cells)
	if col < 0 || col >= cols || n <= 0 {
		return
	}
	n = min(n, cols-col)
	r.unsplit(col, col)
	copy(r.cells[col+n:], r.cells[col:cols-n])
	for i := col; i < col+n; i++ {
		r.cells[i] = blank
	}
	if r.used > col {
		r.used = min(r.used+n, cols)
	}
	if blank != (screenCell{}) {
		r.touch(col + n)
	}
	// The cell now at the right edge must not be the first half of a wide
	// character whose second half fell off.
	if last := &r.cells[cols-1]; last.flags&cellWide != 0 {
		last.ch, last.flags = 0, 0
	}
}

// deleteCells removes n cells at col (DCH), pulling the rest left and
// filling the right edge with blanks.
func (r *screenRow) deleteCells(col, n int, blank screenCell) {
	cols := len(r.cells)
	if col < 0 || col >= cols || n <= 0 {
		return
	}
	n = min(n, cols-col)
	r.unsplit(col, col+n)
	copy(r.cells[col:], r.cells[col+n:])
	for i := cols - n; i < cols; i++ {
		r.cells[i] = blank
	}
	if blank != (screenCell{}) {
		r.used = cols
	}
}

// resize truncates or pads the row to cols cells.
func (r *screenRow) resize(cols int, blank screenCell) {
	old := len(r.cells)
	r.wrapped = false
	r.used = min(r.used, cols)
	switch {
	case cols <= old:
		r.cells = r.cells[:cols]
		if last := &r.cells[cols-1]; last.flags&cellWide != 0 {
			last.ch, last.flags = 0, 0
		}
	case cols <= cap(r.cells):
		r.cells = r.cells[:cols]
	default:
		cells := make([]screenCell, cols)
		copy(cells, r.cells)
		r.cells = cells
	}
	for i := old; i < cols; i++ {
		r.cells[i] = blank
	}
	if old < cols && blank != (screenCell{}) {
		r.used = cols
	}
}

// blank reports whether the row shows no text at all.
func (r *screenRow) blank() bool {
	for i := range r.cells[:r.used] {
		if ch := r.cells[i].ch; (ch != 0 && ch != ' ') || r.cells[i].flags&cellCluster != 0 {
			return false
		}
	}
	return true
}

// appendText appends the row's text to dst: a wide character once, unwritten
// cells as spaces, trailing spaces trimmed.
func (r *screenRow) appendText(dst []byte) []byte {
	end := len(dst)
	cells := r.cells[:r.used]
	for i := range cells {
		c := &cells[i]
		if c.flags == 0 { // fast path for plain ASCII cells and blanks
			if uint32(c.ch)-0x21 < 0x7f-0x21 {
				dst = append(dst, byte(c.ch))
				end = len(dst)
				continue
			}
			if c.ch == 0 || c.ch == ' ' {
				dst = append(dst, ' ')
				continue
			}
		}
		switch {
		case c.flags&cellCont != 0:
			continue
		case c.flags&cellCluster != 0:
			dst = append(dst, r.clusters[c.ch]...)
		case c.ch == 0 || c.ch == ' ':
			dst = append(dst, ' ')
			continue
		case c.ch < utf8.RuneSelf:
			dst = append(dst, byte(c.ch))
		default:
			dst = utf8.AppendRune(dst, c.ch)
		}
		end = len(dst)
	}
	return dst[:end]
}

// text is the cell's character(s) as a string, "" for a blank.
func (r *screenRow) text(col int) string {
	c := &r.cells[col]
	switch {
	case c.flags&cellCluster != 0:
		return r.clusters[c.ch]
	case c.ch == 0:
		return ""
	default:
		return string(c.ch)
	}
}

// setCluster makes cell col hold the grapheme cluster g. A row that keeps
// redrawing clusters in place would grow clusters without bound, so it is
// compacted to the clusters still on screen once it outgrows the row.
func (r *screenRow) setCluster(col int, g string) {
	if len(r.clusters) >= 2*len(r.cells)+8 {
		r.compactClusters()
	}
	r.clusters = append(r.clusters, g)
	r.cells[col].ch = rune(len(r.clusters) - 1)
	r.cells[col].flags |= cellCluster
}

func (r *screenRow) compactClusters() {
	live := r.clusters[:0:0]
	for i := range r.cells {
		if c := &r.cells[i]; c.flags&cellCluster != 0 {
			live = append(live, r.clusters[c.ch])
			c.ch = rune(len(live) - 1)
		}
	}
	r.clusters = append(r.clusters[:0], live...)
}

// screenGrid is one screen buffer (main or alternate) with its saved cursor.
type screenGrid struct {
	rows     []*screenRow
	saved    screenCursor
	hasSaved bool
}

func newScreenGrid(cols, rows int) *screenGrid {
	g := &screenGrid{rows: make([]*screenRow, rows)}
	for i := range g.rows {
		g.rows[i] = newScreenRow(cols)
	}
	return g
}

// screenCursor is the cursor and everything DECSC saves with it.
type screenCursor struct {
	row, col    int
	pen         screenPen
	wrapPending bool // a character was printed in the last column; the next one wraps first
	origin      bool // DECOM: rows count from the top margin
	charsets    [2]byte
	shift       uint8 // 0: G0 is in use, 1: G1 (SO/SI)
}
