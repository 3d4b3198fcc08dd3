package vt

import "bytes"

// dispatchEsc performs ESC [intermediate] f.
func (s *Screen) dispatchEsc(f byte) {
	switch s.inter {
	case 0:
	case '(': // designate G0; '0' is DEC Special Graphics, the rest text
		s.cur.charsets[0] = f
		return
	case ')':
		s.cur.charsets[1] = f
		return
	case '#':
		if f == '8' {
			s.alignmentTest()
		}
		return
	default: // G2/G3, UTF-8 selection, 7/8-bit controls: nothing to show
		return
	}
	switch f {
	case '7':
		s.saveCursor()
	case '8':
		s.restoreCursor()
	case 'D':
		s.cur.wrapPending = false
		s.index()
	case 'E':
		s.cur.wrapPending = false
		s.cur.col = 0
		s.index()
	case 'H':
		s.tabs[s.cur.col] = true
	case 'M':
		s.cur.wrapPending = false
		s.reverseIndex()
	case 'Z': // DECID, an old form of primary DA
		s.replyString("\x1b[?62;22c")
	case 'c':
		s.fullReset()
	}
	// ESC = / ESC > (keypad modes), SS2/SS3, ESC \ (a lone ST) and the
	// rest are consumed without effect.
}

// alignmentTest is DECALN: the screen filled with E, margins reset.
func (s *Screen) alignmentTest() {
	for _, r := range s.grid.rows {
		r.reset(screenCell{ch: 'E'})
	}
	s.top, s.bot = 0, s.rows-1
	s.cur.origin = false
	s.moveTo(0, 0)
	s.dirty = true
}

// dispatchOSC handles a complete OSC string; st tells whether it ended
// with ST (ESC \) rather than BEL, so replies can end the same way.
func (s *Screen) dispatchOSC(st bool) {
	if s.strOverflow {
		return // clipboard or image payloads too big to matter here
	}
	code, data := splitOSC(s.str)
	switch {
	case code == 0 || code == 2:
		if string(data) != s.title {
			s.title = string(data)
		}
	case code == 4 || code >= 10 && code <= 12:
		colourQueries(code, data, func(c, index int) {
			switch c {
			case 4:
				s.replyColor(4, index, paletteRGB(index), st)
			case 10:
				s.replyColor(10, -1, screenFGColor, st)
			case 11:
				s.replyColor(11, -1, screenBGColor, st)
			case 12:
				s.replyColor(12, -1, screenCursorColor, st)
			}
		})
	}
}

// colourQueries calls ask for each colour an OSC 4, 10, 11 or 12 payload
// (its data after the code) asks for, in order: OSC 4 ; index ; ? pairs
// (ask(4, index)), and OSC 10;?;? asking for 10 and 11 in turn, each
// field the next colour number (ask(10, -1), ask(11, -1)). The screen
// answers them (dispatchOSC); EndsAsking tells they were asked.
func colourQueries(code int, data []byte, ask func(code, index int)) {
	if code == 4 {
		for len(data) > 0 {
			var idx, spec []byte
			idx, data, _ = bytes.Cut(data, []byte{';'})
			spec, data, _ = bytes.Cut(data, []byte{';'})
			if n, rest := splitOSC(idx); string(spec) == "?" && rest == nil && n >= 0 && n < 256 {
				ask(4, n)
			}
		}
		return
	}
	for k, field := 0, data; code+k <= 12 && (len(field) > 0 || k == 0); k++ {
		var part []byte
		part, field, _ = bytes.Cut(field, []byte{';'})
		if string(part) == "?" {
			ask(code+k, -1)
		}
	}
}

// splitOSC splits an OSC payload into its leading number (-1 if there is
// none) and what follows the ';'.
func splitOSC(p []byte) (code int, data []byte) {
	i, n := 0, 0
	for i < len(p) && i < 9 && p[i] >= '0' && p[i] <= '9' {
		n = n*10 + int(p[i]-'0')
		i++
	}
	switch {
	case i == 0:
		return -1, p
	case i == len(p):
		return n, nil
	case p[i] == ';':
		return n, p[i+1:]
	default:
		return -1, p
	}
}

// dispatchDCS handles a complete DCS string.
func (s *Screen) dispatchDCS() {
	switch {
	case s.prefix == 0 && s.inter == '+' && s.dcsFinal == 'q':
		// XTGETTCAP: no capabilities are offered; an answer at all lets
		// a program that waits for one move on.
		s.replyString("\x1bP0+r\x1b\\")
	case s.prefix == 0 && s.inter == '$' && s.dcsFinal == 'q':
		s.replyString("\x1bP0$r\x1b\\") // DECRQSS: not supported
	case s.prefix == '=' && s.inter == 0 && s.dcsFinal == 's':
		// The iTerm2 form of synchronized output: DCS = 1 s begins,
		// DCS = 2 s ends.
		switch s.param(0, 0) {
		case 1:
			s.sync = true
		case 2:
			s.sync = false
		}
	}
}
