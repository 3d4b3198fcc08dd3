package vt

import (
	"unicode/utf8"
)

// Parser states, after Paul Williams' DEC ANSI parser
// (https://vt100.net/emu/dec_ansi_parser). String states end at BEL (OSC
// only) or ESC; the ESC is held in stStrEsc until the next byte shows
// whether it was ST (ESC \) or the start of a new sequence.
const (
	stGround uint8 = iota
	stEsc
	stEscInter
	stCSIEntry
	stCSIParam
	stCSIInter
	stCSIIgnore
	stOSC
	stDCSEntry
	stDCSParam
	stDCSInter
	stDCSPass
	stIgnoreStr // SOS, PM, APC (kitty graphics, tmux passthrough): skipped
	stStrEsc
)

// Which string an ESC in stStrEsc may terminate.
const (
	strOSC uint8 = iota
	strDCS
	strIgnored
)

const (
	screenMaxParams = 32
	screenMaxParam  = 65535     // xterm's cap; keeps arithmetic from overflowing
	screenMaxOSC    = 8 << 10   // longer OSC payloads (clipboard, images) are dropped
	screenMaxDCS    = 1 << 10   // only short DCS requests are answered
	screenMissing   = int32(-1) // a parameter that was left empty
)

// Write feeds bytes the child wrote. It always consumes all of p: a
// sequence or rune cut off at the end is completed by the next call.
func (s *Screen) Write(p []byte) (int, error) {
	n := len(p)
	row, col, vis := s.cur.row, s.cur.col, s.cursorVisible
	if n >= jumpMin && s.jumpWanted() {
		p = s.jump(s.toLineStart(p))
	}
	s.parse(p)
	if s.dirty || row != s.cur.row || col != s.cur.col || vis != s.cursorVisible {
		s.gen++
		s.dirty = false
	}
	return n, nil
}

// parse runs the state machine over p.
func (s *Screen) parse(p []byte) {
	i := 0
	if s.un > 0 {
		i = s.resumeRune(p)
	}
	for i < len(p) {
		if s.state != stGround {
			i += s.advance(p[i:])
			continue
		}
		switch b := p[i]; {
		case b >= 0x20 && b < 0x7f:
			i += s.printASCII(p[i:])
		case b < 0x20:
			s.execute(b)
			i++
		case b == 0x7f: // DEL is ignored
			i++
		default:
			i += s.decodeRune(p[i:])
		}
	}
}

// decodeRune prints the UTF-8 rune at the start of p (p[0] >= 0x80) and
// returns its length. An invalid byte prints U+FFFD and consumes one byte,
// as utf8.DecodeRune does; a rune cut off by the end of p is kept for the
// next Write.
func (s *Screen) decodeRune(p []byte) int {
	if !utf8.FullRune(p) {
		s.un = copy(s.ubuf[:], p)
		return len(p)
	}
	r, n := utf8.DecodeRune(p)
	s.printRune(r)
	return n
}

// resumeRune completes the rune held from the previous Write with the first
// bytes of p and returns how many bytes of p it used. It decodes exactly as
// decodeRune would have on the unsplit input, so where a write boundary
// falls never changes the screen.
func (s *Screen) resumeRune(p []byte) int {
	var buf [2 * utf8.UTFMax]byte
	used := 0
	for s.un > 0 {
		n := copy(buf[:], s.ubuf[:s.un])
		take := copy(buf[n:utf8.UTFMax], p[used:])
		seq := buf[:n+take]
		if !utf8.FullRune(seq) {
			// Still incomplete: p ran out. Keep everything for next time.
			s.un = copy(s.ubuf[:], seq)
			return len(p)
		}
		r, size := utf8.DecodeRune(seq)
		s.printRune(r)
		if size >= s.un {
			used += size - s.un
			s.un = 0
			break
		}
		// The byte after the held ones broke the rune: the lead became
		// U+FFFD, and each held continuation byte becomes one too.
		s.un = copy(s.ubuf[:], s.ubuf[size:s.un])
	}
	return used
}

// advance runs the state machine over p while it is inside a sequence and
// returns how many bytes it consumed; it stops on returning to ground so
// Write's fast paths take over.
func (s *Screen) advance(p []byte) int {
	i := 0
	for i < len(p) && s.state != stGround {
		switch s.state {
		case stOSC, stDCSPass, stIgnoreStr:
			i += s.scanString(p[i:])
		case stCSIEntry, stCSIParam:
			i += s.scanParams(p[i:])
			if i < len(p) && s.step(p[i]) {
				i++
			}
		default:
			if s.step(p[i]) {
				i++
			}
		}
	}
	return i
}

// scanString consumes string payload in bulk up to the next control byte,
// which it handles, and returns how many bytes it consumed.
func (s *Screen) scanString(p []byte) int {
	j := 0
	for j < len(p) && p[j] >= 0x20 {
		j++
	}
	switch s.state {
	case stOSC:
		s.collect(p[:j], screenMaxOSC)
	case stDCSPass:
		s.collect(p[:j], screenMaxDCS)
	}
	if j == len(p) {
		return j
	}
	switch b := p[j]; b {
	case 0x1b:
		switch s.state {
		case stOSC:
			s.strKind = strOSC
		case stDCSPass:
			s.strKind = strDCS
		default:
			s.strKind = strIgnored
		}
		s.state = stStrEsc
	case 0x07:
		if s.state == stOSC {
			s.state = stGround
			s.dispatchOSC(false)
		}
	case 0x18, 0x1a: // CAN, SUB abort the string
		s.state = stGround
	}
	return j + 1
}

func (s *Screen) collect(b []byte, limit int) {
	if s.strOverflow || len(b) == 0 {
		return
	}
	if len(s.str)+len(b) > limit {
		s.strOverflow = true
		return
	}
	s.str = append(s.str, b...)
}

// step advances the state machine by one byte outside string payloads. It
// reports false when b must be processed again in the new state (an
// aborted sequence hands b back to ground or to the escape state).
func (s *Screen) step(b byte) bool {
	if s.state == stStrEsc {
		s.endString()
		if b == '\\' {
			s.state = stGround
			return true
		}
		s.state = stEsc
		s.inter = 0
		return false
	}
	if b < 0x20 || b >= 0x7f {
		switch {
		case b == 0x1b:
			s.state, s.inter = stEsc, 0
		case b == 0x18 || b == 0x1a:
			s.state = stGround
		case b < 0x20:
			// C0 controls act in the middle of a sequence (except a
			// DCS header, where they are ignored) without ending it.
			if s.state < stDCSEntry {
				s.execute(b)
			}
		case b >= 0x80:
			// Bytes of a UTF-8 character end the sequence and print.
			s.state = stGround
			return false
		}
		return true
	}
	switch s.state {
	case stEsc:
		s.stepEsc(b)
	case stEscInter:
		if b < 0x30 {
			return true
		}
		s.state = stGround
		s.dispatchEsc(b)
	case stCSIEntry, stCSIParam, stCSIInter, stCSIIgnore:
		if final := s.stepParams(b, stCSIEntry); final {
			s.state = stGround
			s.dispatchCSI(b)
		}
	case stDCSEntry, stDCSParam, stDCSInter:
		if final := s.stepParams(b, stDCSEntry); final {
			s.state, s.dcsFinal = stDCSPass, b
			s.str, s.strOverflow = s.str[:0], false
		}
	}
	return true
}

// stepEsc handles the byte after ESC.
func (s *Screen) stepEsc(b byte) {
	switch {
	case b < 0x30:
		s.state, s.inter = stEscInter, b
	case b == '[':
		s.state = stCSIEntry
		s.clearParams()
	case b == ']':
		s.state, s.str, s.strOverflow = stOSC, s.str[:0], false
	case b == 'P':
		s.state = stDCSEntry
		s.clearParams()
	case b == 'X' || b == '^' || b == '_':
		s.state = stIgnoreStr
	default:
		s.state = stGround
		s.dispatchEsc(b)
	}
}

// endString handles the end of the string an ESC interrupted.
func (s *Screen) endString() {
	switch s.strKind {
	case strOSC:
		s.dispatchOSC(true)
	case strDCS:
		s.dispatchDCS()
	}
}
