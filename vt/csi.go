package vt

// dispatchCSI performs a complete CSI sequence with final byte f.
func (s *Screen) dispatchCSI(f byte) {
	switch s.prefix {
	case 0:
	case '?':
		s.dispatchPrivateCSI(f)
		return
	default:
		s.dispatchMarkedCSI(f)
		return
	}
	switch s.inter {
	case 0:
	case '$':
		if f == 'p' { // DECRQM for an ANSI mode
			s.replyMode(false, s.param(0, 0))
		}
		return
	case '!':
		if f == 'p' { // DECSTR soft reset
			s.softReset()
		}
		return
	default: // cursor style (SP q), DECSCL, DECSCA...: nothing to show
		return
	}
	switch f {
	case '@':
		s.cur.wrapPending = false
		s.grid.rows[s.cur.row].insertBlanks(s.cur.col, s.count(0), s.cur.pen.blank())
		s.dirty = true
	case 'A':
		s.cursorUp(s.count(0))
	case 'B', 'e':
		s.cursorDown(s.count(0))
	case 'C', 'a':
		s.moveTo(s.cur.row, s.cur.col+s.count(0))
	case 'D':
		s.moveTo(s.cur.row, s.cur.col-s.count(0))
	case 'E':
		s.cursorDown(s.count(0))
		s.cur.col = 0
	case 'F':
		s.cursorUp(s.count(0))
		s.cur.col = 0
	case 'G', '`':
		s.moveTo(s.cur.row, s.param(0, 1)-1)
	case 'H', 'f':
		s.cursorPosition(s.param(0, 1)-1, s.param(1, 1)-1)
	case 'I':
		s.cur.wrapPending = false
		s.cur.col = s.nextTab(s.cur.col, s.count(0))
	case 'J':
		s.eraseDisplay(s.param(0, 0))
	case 'K':
		s.eraseLine(s.param(0, 0))
	case 'L':
		s.insertLines(s.count(0))
	case 'M':
		s.deleteLines(s.count(0))
	case 'P':
		s.cur.wrapPending = false
		s.grid.rows[s.cur.row].deleteCells(s.cur.col, s.count(0), s.cur.pen.blank())
		s.dirty = true
	case 'S':
		s.scrollUp(s.top, s.bot, s.count(0))
	case 'T':
		if s.nparams() <= 1 { // with more it is xterm's mouse highlight tracking
			s.scrollDown(s.top, s.bot, s.count(0))
		}
	case 'X':
		s.cur.wrapPending = false
		s.grid.rows[s.cur.row].erase(s.cur.col, s.cur.col+s.count(0), s.cur.pen.blank())
		s.dirty = true
	case 'Z':
		s.cur.wrapPending = false
		s.cur.col = s.prevTab(s.cur.col, s.count(0))
	case 'b':
		s.repeat(s.count(0))
	case 'c':
		if s.param(0, 0) == 0 {
			s.replyString("\x1b[?62;22c") // VT220 with ANSI colour
		}
	case 'd':
		s.cursorPosition(s.param(0, 1)-1, s.cur.col)
	case 'g':
		s.clearTabs(s.param(0, 0))
	case 'h', 'l':
		s.setANSIModes(f == 'h')
	case 'm':
		s.sgr()
	case 'n':
		s.deviceStatus(false)
	case 'r':
		bot := s.param(1, 0) // 0, like an absent value, means the last row
		if bot == 0 {
			bot = s.rows
		}
		s.setMargins(s.param(0, 1)-1, bot-1)
	case 's':
		s.saveCursor()
	case 't':
		s.windowOps()
	case 'u':
		s.restoreCursor()
	}
}

// dispatchPrivateCSI performs CSI ? ... sequences.
func (s *Screen) dispatchPrivateCSI(f byte) {
	switch {
	case s.inter == '$' && f == 'p':
		s.replyMode(true, s.param(0, 0))
	case s.inter != 0:
	case f == 'h' || f == 'l':
		s.setDECModes(f == 'h')
	case f == 'J': // DECSED: selective erase, treated as plain erase
		s.eraseDisplay(s.param(0, 0))
	case f == 'K':
		s.eraseLine(s.param(0, 0))
	case f == 'n':
		s.deviceStatus(true)
	case f == 'u':
		// Kitty keyboard query. Keys are always typed in the legacy
		// encoding, so report no enhancement flags whatever was pushed.
		s.replyString("\x1b[?0u")
	}
}

// dispatchMarkedCSI performs CSI > / < / = ... sequences.
func (s *Screen) dispatchMarkedCSI(f byte) {
	if s.inter != 0 {
		return
	}
	switch {
	case s.prefix == '>' && f == 'c' && s.param(0, 0) == 0:
		s.replyString("\x1b[>1;10;0c") // secondary DA: VT220, firmware 10
	case s.prefix == '>' && f == 'q' && s.param(0, 0) == 0:
		s.replyString("\x1bP>|yume-cli\x1b\\") // XTVERSION
	case s.prefix == '=' && f == 'c' && s.param(0, 0) == 0:
		s.replyString("\x1bP!|00000000\x1b\\") // tertiary DA: unit id
	}
	// CSI > u / CSI < u / CSI = u push, pop and set kitty keyboard
	// flags; CSI > m sets xterm modifyOtherKeys. Keys are typed in the
	// legacy encoding regardless, so they are consumed and ignored.
}

// moveTo puts the cursor at (row, col) clamped to the screen.
func (s *Screen) moveTo(row, col int) {
	s.cur.wrapPending = false
	s.cur.row = min(max(row, 0), s.rows-1)
	s.cur.col = min(max(col, 0), s.cols-1)
}

// cursorPosition is CUP: row and col are 0-based, relative to the top
// margin in origin mode and then confined to the region.
func (s *Screen) cursorPosition(row, col int) {
	if !s.cur.origin {
		s.moveTo(row, col)
		return
	}
	s.moveTo(min(max(row+s.top, s.top), s.bot), col)
}

// cursorUp moves up, stopping at the top margin when starting inside the
// scroll region.
func (s *Screen) cursorUp(n int) {
	limit := 0
	if s.cur.row >= s.top {
		limit = s.top
	}
	s.moveTo(max(s.cur.row-n, limit), s.cur.col)
}

// cursorDown moves down, stopping at the bottom margin when starting inside
// the scroll region.
func (s *Screen) cursorDown(n int) {
	limit := s.rows - 1
	if s.cur.row <= s.bot {
		limit = s.bot
	}
	s.moveTo(min(s.cur.row+n, limit), s.cur.col)
}

// eraseDisplay is ED. ED 2 retires the main screen's lines down to the
// last non-blank one first, as terminals that keep clear-screen history do.
// ED 3 erases xterm's saved lines, not the visible ones; the transcript is
// append-only, so there is nothing to do.
func (s *Screen) eraseDisplay(mode int) {
	blank := s.cur.pen.blank()
	rows := s.grid.rows
	switch mode {
	case 0:
		s.eraseLine(0)
		for _, r := range rows[s.cur.row+1:] {
			r.reset(blank)
		}
	case 1:
		s.eraseLine(1)
		for _, r := range rows[:s.cur.row] {
			r.reset(blank)
		}
	case 2:
		s.retireScreen()
		for _, r := range rows {
			r.reset(blank)
		}
	default:
		return
	}
	s.cur.wrapPending = false
	s.dirty = true
}

// eraseLine is EL: 0 cursor to end, 1 start to cursor, 2 whole line.
func (s *Screen) eraseLine(mode int) {
	row, blank := s.grid.rows[s.cur.row], s.cur.pen.blank()
	switch mode {
	case 0:
		row.erase(s.cur.col, s.cols, blank)
	case 1:
		row.erase(0, s.cur.col+1, blank)
	case 2:
		row.reset(blank)
	default:
		return
	}
	s.cur.wrapPending = false
	s.dirty = true
}

// insertLines is IL: blank lines pushed in at the cursor row, inside the
// scroll region only.
func (s *Screen) insertLines(n int) {
	if s.cur.row < s.top || s.cur.row > s.bot {
		return
	}
	s.scrollDown(s.cur.row, s.bot, n)
	s.cur.col, s.cur.wrapPending = 0, false
}

// deleteLines is DL: lines removed at the cursor row, the region below
// pulled up. Deleted lines are gone, not retired: they never scrolled off.
func (s *Screen) deleteLines(n int) {
	if s.cur.row < s.top || s.cur.row > s.bot {
		return
	}
	s.shiftUp(s.cur.row, s.bot, n, false)
	s.cur.col, s.cur.wrapPending = 0, false
}

// repeat is REP: the last printed character n more times.
func (s *Screen) repeat(n int) {
	if s.lastRune == 0 {
		return
	}
	r := s.lastRune
	for range min(n, s.cols*s.rows) {
		s.printRune(r)
	}
}

// setMargins is DECSTBM. A region must span at least two rows; the cursor
// goes home.
func (s *Screen) setMargins(top, bot int) {
	top, bot = max(top, 0), min(bot, s.rows-1)
	if top >= bot {
		return
	}
	s.top, s.bot = top, bot
	s.cursorPosition(0, 0)
}

// saveCursor is DECSC: the cursor and its pen go to the active buffer.
func (s *Screen) saveCursor() {
	s.grid.saved, s.grid.hasSaved = s.cur, true
}

// restoreCursor is DECRC; without a saved cursor it goes home with a
// default pen, as xterm does.
func (s *Screen) restoreCursor() {
	if !s.grid.hasSaved {
		s.cur = screenCursor{}
		return
	}
	s.cur = s.grid.saved
	s.cur.row = min(s.cur.row, s.rows-1)
	s.cur.col = min(s.cur.col, s.cols-1)
}
