package vt

// index is IND / LF: down one row, scrolling the region at its bottom
// margin. Below the region the cursor stops at the last row.
func (s *Screen) index() {
	switch {
	case s.cur.row == s.bot:
		s.scrollUp(s.top, s.bot, 1)
	case s.cur.row < s.rows-1:
		s.cur.row++
	}
}

// reverseIndex is RI: up one row, scrolling the region down at its top
// margin.
func (s *Screen) reverseIndex() {
	switch {
	case s.cur.row == s.top:
		s.scrollDown(s.top, s.bot, 1)
	case s.cur.row > 0:
		s.cur.row--
	}
}

// scrollUp scrolls rows top..bot up by n. On the main screen, when the
// region starts at the top row, the lines that leave it are retired: that
// is how xterm feeds its scrollback, and how inline TUIs such as Codex push
// finished output above their viewport with a region that stops short of
// the bottom row.
func (s *Screen) scrollUp(top, bot, n int) {
	s.shiftUp(top, bot, n, !s.altActive && top == 0)
}

// shiftUp moves rows top..bot up by n, recycling the rows that fall off
// the top as blank rows at the bottom, retiring them first if asked.
func (s *Screen) shiftUp(top, bot, n int, retire bool) {
	n = min(n, bot-top+1)
	if n <= 0 {
		return
	}
	rows := s.grid.rows
	gone := append(s.spare[:0], rows[top:top+n]...)
	if retire {
		for _, r := range gone {
			s.retireRow(r)
		}
	}
	copy(rows[top:], rows[top+n:bot+1])
	copy(rows[bot+1-n:], gone)
	blank := s.cur.pen.blank()
	for _, r := range gone {
		r.reset(blank)
	}
	s.spare = gone[:0]
	s.dirty = true
}

// scrollDown moves rows top..bot down by n; rows pushed past bot are lost
// and blank rows appear at top.
func (s *Screen) scrollDown(top, bot, n int) {
	n = min(n, bot-top+1)
	if n <= 0 {
		return
	}
	rows := s.grid.rows
	gone := append(s.spare[:0], rows[bot+1-n:bot+1]...)
	copy(rows[top+n:bot+1], rows[top:bot+1-n])
	copy(rows[top:], gone)
	blank := s.cur.pen.blank()
	for _, r := range gone {
		r.reset(blank)
	}
	s.spare = gone[:0]
	s.dirty = true
}

// retireScreen retires the main screen's rows down to the last non-blank
// one, before the screen is cleared.
func (s *Screen) retireScreen() {
	if s.altActive {
		return
	}
	last := -1
	for i, r := range s.main.rows {
		if !r.blank() {
			last = i
		}
	}
	for _, r := range s.main.rows[:last+1] {
		s.retireRow(r)
	}
}

// retireRow counts a line leaving the main screen, keeps its text in the
// ring and hands it to OnRetire. Ring slots reuse their buffers, so
// nothing is allocated unless OnRetire needs a string.
func (s *Screen) retireRow(r *screenRow) {
	s.retired++
	slot := s.ring.slot()
	if slot == nil && s.onRetire == nil {
		return
	}
	var line []byte
	if slot != nil {
		if *slot == nil {
			// Sized for a typical line at once rather than grown by doubling.
			*slot = make([]byte, 0, len(r.cells)+len(r.cells)/2)
		}
		*slot = r.appendText((*slot)[:0])
		line = *slot
	} else {
		s.scratch = r.appendText(s.scratch[:0])
		line = s.scratch
	}
	if s.onRetire != nil {
		s.onRetire(string(line), r.wrapped)
	}
}

// screenRing keeps the newest retired lines, each in a reused buffer.
type screenRing struct {
	lines [][]byte // len is the limit
	head  int      // index of the oldest line
	n     int      // lines held
}

// setLimit changes how many lines are kept, keeping the newest ones.
func (r *screenRing) setLimit(limit int) {
	limit = max(limit, 0)
	keep := min(r.n, limit)
	lines := make([][]byte, limit)
	for i := range keep {
		lines[i] = r.lines[(r.head+r.n-keep+i)%len(r.lines)]
	}
	r.lines, r.head, r.n = lines, 0, keep
}

// slot is the buffer for the next line, overwriting the oldest when full;
// nil when the limit is 0.
func (r *screenRing) slot() *[]byte {
	size := len(r.lines)
	if size == 0 {
		return nil
	}
	if r.n < size {
		r.n++
		return &r.lines[(r.head+r.n-1)%size]
	}
	i := r.head
	r.head = (r.head + 1) % size
	return &r.lines[i]
}

// last is the newest n lines, oldest first.
func (r *screenRing) last(n int) []string {
	n = min(max(n, 0), r.n)
	out := make([]string, n)
	for i := range out {
		out[i] = string(r.lines[(r.head+r.n-n+i)%len(r.lines)])
	}
	return out
}
