package vt

import "strconv"

// Answers to terminal queries. Programs such as Ink (Claude Code, Gemini),
// crossterm (Codex) and readline block or time out waiting for some of
// these, so each is what xterm sends.

// replyString sends a fixed reply.
func (s *Screen) replyString(r string) {
	s.replyBuf = append(s.replyBuf[:0], r...)
	s.flushReply()
}

// flushReply writes replyBuf to the reply writer. A failed write is the
// PTY going away, which the reader of the child's output notices.
func (s *Screen) flushReply() {
	if s.reply != nil {
		_, _ = s.reply.Write(s.replyBuf) // Best effort.
	}
}

// appendInts appends the numbers separated by sep.
func appendInts(b []byte, sep byte, n ...int) []byte {
	for i, v := range n {
		if i > 0 {
			b = append(b, sep)
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return b
}

// deviceStatus answers DSR (CSI Ps n) and its private form (CSI ? Ps n).
func (s *Screen) deviceStatus(private bool) {
	switch s.param(0, 0) {
	case 5:
		if !private {
			s.replyString("\x1b[0n") // terminal OK
		}
	case 6: // cursor position, 1-based, relative to the region in origin mode
		row := s.cur.row + 1
		if s.cur.origin {
			row -= s.top
		}
		b := append(s.replyBuf[:0], "\x1b["...)
		if private {
			b = append(b, '?')
		}
		b = appendInts(b, ';', row, s.cur.col+1)
		s.replyBuf = append(b, 'R')
		s.flushReply()
	case 996: // colour scheme query (contour, ghostty): dark
		if private {
			s.replyString("\x1b[?997;1n")
		}
	}
}

// Cell size in pixels reported to programs that ask (xterm's default
// font is close to this); nothing here draws pixels.
const screenCellWidth, screenCellHeight = 8, 16

// windowOps answers the XTWINOPS size reports (CSI 14/16/18/19 t); the
// other window operations ask a GUI to do something and are ignored.
func (s *Screen) windowOps() {
	var code, h, w int
	switch s.param(0, 0) {
	case 14:
		code, h, w = 4, s.rows*screenCellHeight, s.cols*screenCellWidth
	case 16:
		code, h, w = 6, screenCellHeight, screenCellWidth
	case 18:
		code, h, w = 8, s.rows, s.cols
	case 19:
		code, h, w = 9, s.rows, s.cols
	default:
		return
	}
	b := appendInts(append(s.replyBuf[:0], "\x1b["...), ';', code, h, w)
	s.replyBuf = append(b, 't')
	s.flushReply()
}

// replyColor answers an OSC colour query: OSC code ; [index ;] rgb:... with
// the terminator the query used (BEL or ST), as xterm does.
func (s *Screen) replyColor(code, index int, rgb uint32, st bool) {
	b := appendInts(append(s.replyBuf[:0], "\x1b]"...), ';', code)
	if index >= 0 {
		b = appendInts(append(b, ';'), ';', index)
	}
	b = append(b, ";rgb:"...)
	for i, shift := range [3]uint{16, 8, 0} {
		if i > 0 {
			b = append(b, '/')
		}
		v := byte(rgb >> shift)
		b = appendHex2(appendHex2(b, v), v) // 8-bit to 16-bit by repeating
	}
	if st {
		b = append(b, "\x1b\\"...)
	} else {
		b = append(b, '\a')
	}
	s.replyBuf = b
	s.flushReply()
}

func appendHex2(b []byte, v byte) []byte {
	const digits = "0123456789abcdef"
	return append(b, digits[v>>4], digits[v&15])
}

// Colours reported for OSC 10/11/12 queries: light text on a dark
// background, so apps pick their dark themes.
const (
	screenFGColor     = 0xffffff
	screenBGColor     = 0x000000
	screenCursorColor = 0xffffff
)

// paletteRGB is xterm's default colour for palette index i (0-255).
func paletteRGB(i int) uint32 {
	base := [16]uint32{
		0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
		0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
	}
	switch {
	case i < 16:
		return base[i]
	case i < 232:
		i -= 16
		level := func(v int) uint32 {
			if v == 0 {
				return 0
			}
			return uint32(55 + 40*v)
		}
		return level(i/36)<<16 | level(i/6%6)<<8 | level(i%6)
	default:
		g := uint32(8 + 10*(i-232))
		return g<<16 | g<<8 | g
	}
}
