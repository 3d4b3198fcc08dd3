package vt

import "bytes"

// EndsAsking reports whether p, a chunk of a program's output, ends with a
// query the screen answers (cursor position and status reports, device
// attributes, XTVERSION, mode and keyboard-flag reports, window sizes,
// colours, XTGETTCAP, DECRQSS). A program that ends what it printed so is waiting
// for the answer: whoever parses its output should parse it now, not once
// a pause would end (Codex asks five at once as it starts, then waits).
// Only the chunk's last bytes are looked at: a query split over two reads,
// or one followed by more output, is answered when the output is parsed,
// as before.
func EndsAsking(p []byte) bool {
	if len(p) > askTail {
		p = p[len(p)-askTail:]
	}
	n := len(p)
	switch {
	case n >= 2 && p[n-2] == 0x1b && p[n-1] == '\\': // a string ended by ST
		return stringAsks(p[:n-2], true)
	case n >= 1 && p[n-1] == 0x07: // an OSC ended by BEL
		return stringAsks(p[:n-1], false)
	}
	esc := bytes.LastIndexByte(p, 0x1b)
	if esc < 0 || esc+1 >= n {
		return false
	}
	switch seq := p[esc+1:]; seq[0] {
	case 'Z': // DECID
		return len(seq) == 1
	case '[':
		return csiAsks(seq[1:])
	}
	return false
}

// askTail bounds how far back EndsAsking looks: room for the longest
// query answered (an XTGETTCAP of a few names).
const askTail = 128

// stringAsks reports whether body, an OSC or DCS string up to its
// terminator (st: ESC \, else BEL, which ends only an OSC), asks: an OSC
// 4, 10, 11 or 12 colour query (its last parameter "?"), or a DCS
// XTGETTCAP (+q) or DECRQSS ($q).
func stringAsks(body []byte, st bool) bool {
	esc := bytes.LastIndexByte(body, 0x1b)
	if esc < 0 || esc+1 >= len(body) {
		return false
	}
	s := body[esc+2:]
	switch body[esc+1] {
	case ']':
		return oscAsks(s)
	case 'P':
		return st && (bytes.HasPrefix(s, []byte("+q")) || bytes.HasPrefix(s, []byte("$q")))
	}
	return false
}

// oscAsks reports whether an OSC payload asks what dispatchOSC answers:
// a colour (colourQueries).
func oscAsks(p []byte) bool {
	code, data := splitOSC(p)
	asked := false
	if code == 4 || code >= 10 && code <= 12 {
		colourQueries(code, data, func(int, int) { asked = true })
	}
	return asked
}

// csiAsks reports whether seq, a CSI sequence after "ESC [" that ends p,
// is a query the screen answers.
func csiAsks(seq []byte) bool {
	var marker, inter byte
	if len(seq) > 0 && (seq[0] == '?' || seq[0] == '>' || seq[0] == '=') {
		marker, seq = seq[0], seq[1:]
	}
	i := 0
	for i < len(seq) && (seq[i] >= '0' && seq[i] <= '9' || seq[i] == ';') {
		i++
	}
	params := string(seq[:i])
	if i < len(seq) && seq[i] == '$' {
		inter, i = '$', i+1
	}
	if i != len(seq)-1 {
		return false // not one whole sequence that ends the chunk
	}
	switch final := seq[i]; {
	case inter == '$':
		return final == 'p' && (marker == 0 || marker == '?') // DECRQM
	case final == 'n': // DSR
		return marker == 0 && (params == "5" || params == "6") || marker == '?' && (params == "6" || params == "996")
	case final == 'c':
		return marker != '?' && (params == "" || params == "0") // DA1, DA2 (>), DA3 (=)
	case final == 'q':
		return marker == '>' && (params == "" || params == "0") // XTVERSION
	case final == 'u':
		return marker == '?' // the kitty keyboard flags
	case final == 't':
		return marker == 0 && (params == "14" || params == "16" || params == "18" || params == "19")
	}
	return false
}
