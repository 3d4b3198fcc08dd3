package vt

import "bytes"

// Jump scroll, after xterm's: when one Write brings more lines than the
// screen holds, the lines that would scroll off before the Write ends are
// never drawn. Only what they leave behind is kept: how many lines were
// retired, the pen their colour changes leave, the cursor at the bottom
// row, the last character for REP. A flood of output then costs a scan per
// byte instead of a parse, draw and scroll per line; it is taken in large
// batches (ptyhost.Reader), so almost all of a flood jumps.
//
// It applies only where skipping cannot change what the screen shows or
// reports: nothing reads the lines that leave (no OnRetire, no scrollback
// kept), the main screen scrolls as a whole (no margins), the parser is
// between sequences, and the skipped bytes are plain: printable text,
// CR, LF, tab and SGR colour sequences, each line narrower than the screen
// (so none wraps, and every LF past the bottom row retires exactly one
// line). Anything else is parsed as usual.

// jumpMin is the least Write that looks for a jump: smaller ones cannot
// hold more than a screenful of lines often enough to pay for the look.
const jumpMin = 4096

// jumpWanted reports a screen whose state lets a Write jump: nothing
// reads the lines that leave, the main screen scrolls as a whole, plain
// characters print as themselves.
func (s *Screen) jumpWanted() bool {
	return s.onRetire == nil && len(s.ring.lines) == 0 && !s.altActive && s.top == 0 && s.bot == s.rows-1 &&
		s.cur.shift == 0 && s.cur.charsets[0] != '0' && !s.newline
}

// atLineStart reports the parser between sequences and runes, with no
// wrap pending: where a jump may begin.
func (s *Screen) atLineStart() bool {
	return s.state == stGround && s.un == 0 && !s.cur.wrapPending
}

// toLineStart parses p up to its first line's end when the screen is not
// at a line's start, and returns the rest: a sequence or a rune that the
// previous Write (a read's chunk) cut ends there, and a jump may follow.
func (s *Screen) toLineStart(p []byte) []byte {
	if s.atLineStart() {
		return p
	}
	if i := bytes.IndexByte(p, '\n'); i >= 0 {
		s.parse(p[:i+1])
		return p[i+1:]
	}
	return p
}

// jump skips what of p would scroll off unseen and returns the rest, to be
// parsed as usual (p itself when nothing can be skipped).
func (s *Screen) jump(p []byte) []byte {
	if len(p) < jumpMin || !s.jumpWanted() || !s.atLineStart() {
		return p
	}
	// cut starts the last rows+1 lines: they replace the whole screen, so
	// nothing drawn before them stays visible.
	cut, lines := len(p), 0
	for lines <= s.rows {
		i := bytes.LastIndexByte(p[:cut], '\n')
		if i < 0 {
			return p
		}
		cut, lines = i, lines+1
	}
	cut++ // just after the LF
	lfs, lastReset, lastPrint, ok := s.plain(p[:cut])
	if !ok || lfs < s.rows || lastPrint >= 0 && p[lastPrint] >= 0x80 {
		// Past a last character that is not ASCII, REP's character depends
		// on how it joined the one before: parse it.
		return p
	}
	// The pen after the skipped part: from its last reset on, its colour
	// sequences, parsed as usual (they print nothing).
	for i := lastReset; i < cut; {
		if p[i] != 0x1b {
			i++
			continue
		}
		end := i + 2
		for p[end] != 'm' {
			end++
		}
		s.parse(p[i : end+1])
		i = end + 1
	}
	if lastPrint >= 0 {
		s.lastRune = rune(p[lastPrint])
	}
	// Every LF past the bottom row retired a line; the rows on screen now
	// scroll off under the rows+1 lines that follow.
	s.retired += uint64(lfs - (s.rows - 1 - s.cur.row))
	s.cur.row, s.cur.col = s.rows-1, 0
	s.dirty = true
	return p[cut:]
}

// Skip consumes what of p a Write of p would jump over, and returns how
// many bytes that was (0: nothing can be skipped, or a Write of p would
// not jump). A sequence or rune the previous Write cut is ended first, as
// a Write ends it: that line is parsed, and counted in n. The rest,
// p[n:], must be written (with whatever follows it) before the screen is
// read: until then the screen still shows the rows the skipped lines
// scrolled off, with the cursor on its bottom row.
//
// A flood handed over in batches is then parsed in full once, when it
// pauses: a Write of each batch draws its last screenful of lines, which
// the next batch scrolls off unseen (in 32 KiB batches, that drawing was
// two fifths of the parse).
func (s *Screen) Skip(p []byte) int {
	if len(p) < jumpMin || !s.jumpWanted() {
		return 0
	}
	n := len(p) - len(s.jump(s.toLineStart(p)))
	if n > 0 {
		s.gen++
		s.dirty = false
	}
	return n
}

// plain checks that b holds only plain lines (see above), starting at the
// cursor, and that it ends at column 0. It returns the LFs in it, where its
// last colour reset starts (0: none), and its last printable byte (-1:
// none). Column counts are in bytes: an upper bound of cells, since no
// character is wider than its UTF-8 encoding is long.
func (s *Screen) plain(b []byte) (lfs, lastReset, lastPrint int, ok bool) {
	col, cols := s.cur.col, s.cols
	lastPrint = -1
	for i := 0; i < len(b); i++ {
		c := b[i]
		if plainKind[c] != kindControl { // a run of text, in one tight loop
			j := i + 1
			for j < len(b) && plainKind[b[j]] != kindControl {
				j++
			}
			if col += j - i; col > cols {
				return 0, 0, 0, false // it would wrap
			}
			lastPrint, i = j-1, j-1
			continue
		}
		switch c {
		case '\r':
			col = 0
		case '\n':
			lfs++
		case 0x1b: // only ESC [ params m: a colour
			j := i + 2
			if j >= len(b) || b[i+1] != '[' {
				return 0, 0, 0, false
			}
			for j < len(b) && plainKind[b[j]] == kindParam {
				j++
			}
			if j >= len(b) || b[j] != 'm' {
				return 0, 0, 0, false
			}
			if j == i+2 || b[i+2] == '0' && (j == i+3 || b[i+3] == ';') {
				lastReset = i // ESC[m, ESC[0m, ESC[0;…m reset the pen first
			}
			i = j
		case '\t':
			col = s.nextTab(min(col, cols-1), 1)
		case 0x7f: // DEL is ignored
		default:
			return 0, 0, 0, false
		}
	}
	return lfs, lastReset, lastPrint, col == 0
}

// plainKind sorts bytes for plain: text (printable, UTF-8), a colour
// parameter's (digits, ';', ':', all also text), or a control.
var plainKind = func() (k [256]uint8) {
	for c := range k {
		switch {
		case c < 0x20 || c == 0x7f:
			k[c] = kindControl
		case c >= '0' && c <= '9' || c == ';' || c == ':':
			k[c] = kindParam
		}
	}
	return k
}()

const (
	kindText uint8 = iota
	kindControl
	kindParam // text too, in a run
)
