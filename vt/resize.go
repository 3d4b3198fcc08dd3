package vt

// Resize changes the grid to cols x rows (each at least 1), as a terminal
// does when its window changes; the caller also tells the PTY so the
// child redraws. Rows are truncated or padded at the right, without
// reflow. When the screen gets shorter, rows leave from the top only as
// far as needed to keep the cursor's row on screen (those of the main
// screen are retired, as xterm pushes them into its scrollback), then
// from the bottom. The cursor is clamped, the scroll region reset.
func (s *Screen) Resize(cols, rows int) {
	cols, rows = max(cols, 1), max(rows, 1)
	if cols == s.cols && rows == s.rows {
		return
	}
	mainRow, altRow := s.cur.row, 0
	if s.altActive {
		mainRow, altRow = s.main.saved.row, s.cur.row
	}
	mainShift := max(mainRow-(rows-1), 0)
	altShift := max(altRow-(rows-1), 0)
	s.resizeGrid(s.main, cols, rows, mainShift, true)
	s.resizeGrid(s.alt, cols, rows, altShift, false)

	shift := mainShift
	if s.altActive {
		shift = altShift
	}
	oldCols := s.cols
	s.cols, s.rows = cols, rows
	s.cur.row = min(max(s.cur.row-shift, 0), rows-1)
	s.cur.col = min(s.cur.col, cols-1)
	s.cur.wrapPending = false
	s.top, s.bot = 0, rows-1

	tabs := make([]bool, cols)
	copy(tabs, s.tabs)
	s.tabs = tabs
	if cols > oldCols {
		s.resetTabs(oldCols)
	}
	if cap(s.spare) < rows {
		s.spare = make([]*screenRow, 0, rows)
	}
	s.gen++
}

// resizeGrid fits g to cols x rows, dropping shift rows from the top
// (retired if retire is set) and whatever then does not fit at the bottom.
func (s *Screen) resizeGrid(g *screenGrid, cols, rows, shift int, retire bool) {
	if retire {
		for _, r := range g.rows[:shift] {
			s.retireRow(r)
		}
	}
	kept := g.rows[shift:]
	kept = kept[:min(len(kept), rows)]
	next := make([]*screenRow, rows)
	copy(next, kept)
	for i, r := range next {
		if r == nil {
			next[i] = newScreenRow(cols)
			continue
		}
		r.resize(cols, screenCell{})
	}
	g.rows = next
	g.saved.row = min(max(g.saved.row-shift, 0), rows-1)
	g.saved.col = min(g.saved.col, cols-1)
	g.saved.wrapPending = false
}
