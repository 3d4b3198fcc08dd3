package vt

import "bytes"

// StripQueryReplies returns p without the answers a terminal sends to a
// program's queries, which no person types: cursor position (CSI row;col R,
// CSI ? row;col R), status (CSI Ps n, CSI ? Ps n), device attributes
// (CSI ? … c, CSI > … c), keyboard flags (CSI ? … u), mode reports
// (CSI … $ y), window reports (CSI 4|6|8|9 ; … t), and every OSC and DCS
// string (colours, XTVERSION, DECRQSS). Everything else is kept, so keys
// survive. A key that looks exactly like a reply (Shift-F3 is CSI 1;2R in
// xterm) is dropped too; no rule types one.
func StripQueryReplies(p []byte) []byte {
	if !bytes.ContainsAny(p, "\x1b") {
		return p
	}
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); {
		if n := replyLen(p[i:]); n > 0 {
			i += n
			continue
		}
		out = append(out, p[i])
		i++
	}
	return out
}

// replyLen is the length of the query reply at the start of p, or 0.
func replyLen(p []byte) int {
	if len(p) < 3 || p[0] != 0x1b {
		return 0
	}
	switch p[1] {
	case ']', 'P': // OSC, DCS: up to BEL (OSC only) or ST
		for i := 2; i < len(p); i++ {
			switch {
			case p[i] == 0x07 && p[1] == ']':
				return i + 1
			case p[i] == 0x1b && i+1 < len(p) && p[i+1] == '\\':
				return i + 2
			}
		}
		return 0
	case '[':
		return csiReplyLen(p)
	}
	return 0
}

// csiReplyLen recognises the CSI replies of StripQueryReplies.
func csiReplyLen(p []byte) int {
	i := 2
	var marker byte
	if p[i] == '?' || p[i] == '>' {
		marker = p[i]
		i++
	}
	start, semis := i, 0
	for i < len(p) && (p[i] >= '0' && p[i] <= '9' || p[i] == ';') {
		if p[i] == ';' {
			semis++
		}
		i++
	}
	params := p[start:i]
	if i >= len(p) || len(params) == 0 {
		return 0
	}
	final := p[i]
	if final == '$' && i+1 < len(p) && p[i+1] == 'y' { // DECRPM
		return i + 2
	}
	reply := false
	switch final {
	case 'R':
		reply = semis == 1 && marker != '>'
	case 'n':
		reply = marker != '>'
	case 'c':
		reply = marker != 0
	case 'u':
		reply = marker == '?'
	case 't':
		reply = marker == 0 && semis == 2 && bytes.IndexByte([]byte("4689"), params[0]) >= 0 && params[1] == ';'
	}
	if !reply {
		return 0
	}
	return i + 1
}
