package jsonfast

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Unquote decodes the JSON string starting at b[i] (after whitespace)
// and returns the index after its closing quote. Escapes decode as
// encoding/json decodes them, a lone UTF-16 surrogate as U+FFFD.
func Unquote(b []byte, i int) (s string, end int, ok bool) {
	i = SkipSpace(b, i)
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
