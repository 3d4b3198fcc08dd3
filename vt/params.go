package vt

// stepParams collects the parameters, private marker and intermediates of
// a CSI or DCS (entry is stCSIEntry or stDCSEntry; the Param and Inter
// states follow it in the same order for both). It reports whether b is
// the final byte of a sequence that should be dispatched.
func (s *Screen) stepParams(b byte, entry uint8) bool {
	rel := s.state - entry // 0 entry, 1 param, 2 intermediate, 3 CSI ignore
	switch {
	case b >= 0x40:
		if rel == 3 {
			s.state = stGround // CSI ignore: swallow the whole sequence
			return false
		}
		return true
	case rel == 3:
	case b >= '0' && b <= '9':
		if rel == 2 {
			s.ignoreParams(entry)
			break
		}
		s.state = entry + 1
		if v := s.params[s.np]; v == screenMissing {
			s.params[s.np] = int32(b - '0')
		} else if v <= screenMaxParam {
			s.params[s.np] = v*10 + int32(b-'0')
		}
	case b == ';' || b == ':':
		if rel == 2 {
			s.ignoreParams(entry)
			break
		}
		s.state = entry + 1
		if s.np < screenMaxParams-1 {
			if b == ':' {
				s.colons |= 1 << s.np
			}
			s.np++
			s.params[s.np] = screenMissing
		}
	case b >= 0x3c: // < = > ? : a private marker, only valid first
		if rel == 0 {
			s.prefix = b
		} else {
			s.ignoreParams(entry)
		}
	default: // 0x20-0x2f intermediates
		if s.inter == 0 {
			s.inter = b
		}
		s.state = entry + 2
	}
	return false
}

// ignoreParams handles a malformed CSI or DCS header: a CSI is swallowed
// up to its final byte; a DCS string is skipped up to its ST.
func (s *Screen) ignoreParams(entry uint8) {
	if entry == stDCSEntry {
		s.state = stIgnoreStr
		return
	}
	s.state = stCSIIgnore
}

// scanParams is stepParams' fast path for the digits and semicolons that
// make up most of a CSI: it consumes them and returns how many it used.
func (s *Screen) scanParams(p []byte) int {
	i := 0
	for ; i < len(p); i++ {
		b := p[i]
		switch {
		case b >= '0' && b <= '9':
			if v := s.params[s.np]; v == screenMissing {
				s.params[s.np] = int32(b - '0')
			} else if v <= screenMaxParam {
				s.params[s.np] = v*10 + int32(b-'0')
			}
		case b == ';' && s.np < screenMaxParams-1:
			s.np++
			s.params[s.np] = screenMissing
		default:
			return i
		}
		s.state = stCSIParam
	}
	return i
}

func (s *Screen) clearParams() {
	s.prefix, s.inter, s.np, s.colons = 0, 0, 0, 0
	s.params[0] = screenMissing
}

// nparams is how many parameters the last sequence carried ("CSI m" has
// none, "CSI ;m" has two empty ones).
func (s *Screen) nparams() int {
	if s.np == 0 && s.params[0] == screenMissing {
		return 0
	}
	return s.np + 1
}

// param is parameter i, or def when it is absent or empty. Values are
// capped, so callers may add them to coordinates without overflow.
func (s *Screen) param(i, def int) int {
	if i > s.np || s.params[i] == screenMissing {
		return def
	}
	return int(min(s.params[i], screenMaxParam))
}

// count is parameter i as a repeat count: absent or 0 means 1.
func (s *Screen) count(i int) int { return max(s.param(i, 1), 1) }
