package vt

// sgr applies Select Graphic Rendition (CSI Pm m) to the pen.
func (s *Screen) sgr() {
	n := s.nparams()
	if n == 0 {
		s.cur.pen = screenPen{}
		return
	}
	pen := &s.cur.pen
	for i := 0; i < n; i++ {
		p := s.param(i, 0)
		switch {
		case p == 0:
			*pen = screenPen{}
		case p == 4 && s.colons&(1<<i) != 0:
			// 4:0 is "no underline"; 4:1..4:5 are underline styles.
			if s.param(i+1, 1) == 0 {
				pen.attr &^= attrUnderline
			} else {
				pen.attr |= attrUnderline
			}
		case p >= 1 && p <= 9:
			pen.attr |= sgrAttr[p]
		case p == 21:
			pen.attr |= attrUnderline // double underline
		case p == 22:
			pen.attr &^= attrBold | attrDim
		case p >= 23 && p <= 29:
			pen.attr &^= sgrAttr[p-20]
		case p >= 30 && p <= 37:
			pen.fg = Color(p - 30 + 1)
		case p == 38:
			pen.fg, i = s.sgrColor(i, pen.fg)
			continue
		case p == 39:
			pen.fg = 0
		case p >= 40 && p <= 47:
			pen.bg = Color(p - 40 + 1)
		case p == 48:
			pen.bg, i = s.sgrColor(i, pen.bg)
			continue
		case p == 49:
			pen.bg = 0
		case p == 58: // underline colour: parsed so its numbers are not misread
			_, i = s.sgrColor(i, 0)
			continue
		case p >= 90 && p <= 97:
			pen.fg = Color(p - 90 + 9)
		case p >= 100 && p <= 107:
			pen.bg = Color(p - 100 + 9)
		}
		// Skip the sub-parameters of an attribute this did not read.
		for i < n-1 && s.colons&(1<<i) != 0 {
			i++
		}
	}
}

// sgrAttr maps SGR 1-9 to attributes (and, offset by 20, SGR 21-29 to the
// ones they turn off). Zero entries have no cell attribute.
var sgrAttr = [10]uint8{
	1: attrBold, 2: attrDim, 3: attrItalic, 4: attrUnderline,
	5: attrBlink, 6: attrBlink, 7: attrReverse, 8: attrHidden, 9: attrStrike,
}

// sgrColor reads an extended colour whose 38/48/58 is parameter i, in the
// colon form (38:5:n, 38:2::r:g:b, 38:2:r:g:b) or the semicolon form
// (38;5;n, 38;2;r;g;b). It returns the colour (old when malformed) and the
// index of the last parameter it used.
func (s *Screen) sgrColor(i int, old Color) (Color, int) {
	n := s.nparams()
	var args [6]int
	na := 0
	if s.colons&(1<<i) != 0 {
		// Colon form: everything chained to i by ':' belongs to it.
		for j := i; j < n-1 && s.colons&(1<<j) != 0 && na < len(args); j++ {
			args[na] = s.param(j+1, 0)
			na++
		}
		end := i + na
		for end < n-1 && s.colons&(1<<end) != 0 {
			end++
		}
		if na == 4 && args[0] == 2 {
			// 38:2:r:g:b without the colour-space id
			args[1], args[2], args[3], args[4] = 0, args[1], args[2], args[3]
			na = 5
		}
		return sgrColorFrom(args[:na], old), end
	}
	var last int
	switch s.param(i+1, -1) {
	case 5:
		args[0], args[1], na, last = 5, s.param(i+2, 0), 2, i+2
	case 2: // 2;r;g;b: no colour-space id in this form
		args[0], na, last = 2, 5, i+4
		for k := 2; k < 5; k++ {
			args[k] = s.param(i+k, 0)
		}
	default:
		return old, i
	}
	if last >= n {
		return old, n - 1 // truncated: xterm ignores it
	}
	return sgrColorFrom(args[:na], old), last
}

// sgrColorFrom builds a colour from 5;n or 2;cs;r;g;b arguments.
func sgrColorFrom(a []int, old Color) Color {
	switch {
	case len(a) >= 2 && a[0] == 5:
		if a[1] < 0 || a[1] > 255 {
			return old
		}
		return Color(a[1] + 1)
	case len(a) >= 5 && a[0] == 2:
		c := Color(1 << 24)
		for k, shift := range [3]uint{16, 8, 0} {
			c |= Color(min(max(a[2+k], 0), 255)) << shift
		}
		return c
	}
	return old
}
