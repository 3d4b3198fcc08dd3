package recordings

import (
	"unicode/utf16"
	"unicode/utf8"
)

// decodeEventFast decodes the event lines asciinema and this package write,
// [1.5, "o", "text"], without encoding/json, which spends most of Read's
// time otherwise. It accepts a strict subset of JSON: a plain decimal time
// and two strings. ok is false for anything else, and parseEvent then uses
// encoding/json, which also explains what is wrong. b must be valid UTF-8.
func decodeEventFast(b []byte) (rawTime []byte, code, data string, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, "", "", false
	}
	i = skipSpace(b, i+1)
	start := i
	i = scanDecimal(b, i)
	if i == start {
		return nil, "", "", false
	}
	rawTime = b[start:i]
	if i, ok = expect(b, i, ','); !ok {
		return nil, "", "", false
	}
	if code, i, ok = scanString(b, i); !ok {
		return nil, "", "", false
	}
	if i, ok = expect(b, i, ','); !ok {
		return nil, "", "", false
	}
	if data, i, ok = scanString(b, i); !ok {
		return nil, "", "", false
	}
	if i, ok = expect(b, i, ']'); !ok || skipSpace(b, i) != len(b) {
		return nil, "", "", false
	}
	return rawTime, code, data, true
}

// skipSpace skips JSON whitespace from i.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// expect skips whitespace, the byte c and whitespace again.
func expect(b []byte, i int, c byte) (int, bool) {
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != c {
		return i, false
	}
	return skipSpace(b, i+1), true
}

// scanDecimal scans a JSON number of the form DIGITS[.DIGITS] from i and
// returns where it ends (i itself if there is none). Forms JSON forbids
// (a leading zero before digits, "1.") and exponents end the fast path.
func scanDecimal(b []byte, i int) int {
	start := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	if i == start || (b[start] == '0' && i-start > 1) {
		return start
	}
	if i < len(b) && b[i] == '.' {
		j := i + 1
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j == i+1 {
			return start
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		return start
	}
	return i
}

// scanString decodes the JSON string starting at b[i] (after whitespace)
// and returns the index after its closing quote. Escapes decode as
// encoding/json decodes them, a lone UTF-16 surrogate as U+FFFD.
func scanString(b []byte, i int) (s string, end int, ok bool) {
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != '"' {
		return "", i, false
	}
	i++
	start := i
	for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 {
		i++
	}
	if i < len(b) && b[i] == '"' {
		return string(b[start:i]), i + 1, true // No escapes: the common case.
	}
	out := append(make([]byte, 0, i-start+16), b[start:i]...)
	for i < len(b) {
		switch c := b[i]; {
		case c == '"':
			return string(out), i + 1, true
		case c < 0x20:
			return "", i, false // JSON forbids raw control characters.
		case c != '\\':
			out = append(out, c)
			i++
		case i+1 >= len(b):
			return "", i, false
		default:
			var r rune
			if r, i, ok = unescape(b, i); !ok {
				return "", i, false
			}
			out = utf8.AppendRune(out, r)
		}
	}
	return "", i, false
}

// unescape decodes the escape at b[i] == '\\', a surrogate pair included.
func unescape(b []byte, i int) (r rune, next int, ok bool) {
	switch b[i+1] {
	case '"', '\\', '/':
		return rune(b[i+1]), i + 2, true
	case 'b':
		return '\b', i + 2, true
	case 'f':
		return '\f', i + 2, true
	case 'n':
		return '\n', i + 2, true
	case 'r':
		return '\r', i + 2, true
	case 't':
		return '\t', i + 2, true
	case 'u':
		r, ok = hex4(b, i+2)
		if !ok {
			return 0, i, false
		}
		if !utf16.IsSurrogate(r) {
			return r, i + 6, true
		}
		if i+7 < len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
			if r2, ok := hex4(b, i+8); ok {
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					return dec, i + 12, true
				}
			}
		}
		return utf8.RuneError, i + 6, true // A lone surrogate, as encoding/json.
	}
	return 0, i, false
}

// hex4 reads four hex digits at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
