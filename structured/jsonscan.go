package structured

import "strings"

// A validating JSON scanner for the translators' fast decoders (fastdecode.go).
// It walks a line once, without reflection or allocation, and accepts exactly
// the syntax encoding/json accepts; anything it is unsure about makes the
// caller fall back to json.Unmarshal, whose result and errors stay the
// reference.

// maxDepth is encoding/json's nesting limit; deeper input falls back (and
// json.Unmarshal then reports it).
const maxDepth = 10000

// skipSpace returns the index of the first non-space byte at or after i.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanValue returns the end of the JSON value starting at b[i] (no leading
// space), or -1 when it is not valid JSON.
func scanValue(b []byte, i, depth int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		end, _ := scanString(b, i)
		return end
	case c == '{':
		return walkObject(b, i, depth+1, nil)
	case c == '[':
		return walkArray(b, i, depth+1, nil)
	case c == '-' || (c >= '0' && c <= '9'):
		return scanNumber(b, i)
	case c == 't':
		return scanLiteral(b, i, "true")
	case c == 'f':
		return scanLiteral(b, i, "false")
	case c == 'n':
		return scanLiteral(b, i, "null")
	}
	return -1
}

func scanLiteral(b []byte, i int, lit string) int {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// scanString returns the end of the string starting at b[i] == '"' and
// whether it holds escapes; -1 when it is invalid (a control character, a
// bad escape or no closing quote). Invalid UTF-8 is valid JSON syntax here,
// as for encoding/json, which replaces it when unquoting.
func scanString(b []byte, i int) (end int, escaped bool) {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1, escaped
		case c < 0x20:
			return -1, false
		case c == '\\':
			escaped = true
			i++
			if i >= len(b) {
				return -1, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if len(b)-i <= 4 || !isHex4(b[i+1:i+5]) {
					return -1, false
				}
				i += 4
			default:
				return -1, false
			}
		}
	}
	return -1, false
}

func isHex4(h []byte) bool {
	for _, c := range h[:4] {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(c)) {
			return false
		}
	}
	return true
}

// scanNumber returns the end of the number at b[i]:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func scanNumber(b []byte, i int) int {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		if j := digits(b, i+1); j > i+1 {
			i = j
		} else {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if j := digits(b, i); j > i {
			i = j
		} else {
			return -1
		}
	}
	return i
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// member receives one object member: its raw key (without quotes; escaped
// says it still holds escapes) and its raw, validated value. Returning
// false stops the walk, which then reports failure.
type member func(key []byte, escaped bool, val []byte) bool

// walkObject validates the object starting at b[i] == '{', calling fn (if
// not nil) for each member, and returns the index after it, or -1.
func walkObject(b []byte, i, depth int, fn member) int {
	if depth > maxDepth || i >= len(b) || b[i] != '{' {
		return -1
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		kend, esc := scanString(b, i)
		if kend < 0 {
			return -1
		}
		key := b[i+1 : kend-1]
		i = skipSpace(b, kend)
		if i >= len(b) || b[i] != ':' {
			return -1
		}
		i = skipSpace(b, i+1)
		vend := scanValue(b, i, depth)
		if vend < 0 || (fn != nil && !fn(key, esc, b[i:vend])) {
			return -1
		}
		var done bool
		if i, done = afterMember(b, vend, '}'); done {
			return i
		}
	}
}

// afterMember reads what follows a member or element at i: a ',' (the next
// one's index, done false) or the closing byte (the index after it, done
// true); anything else is -1, done.
func afterMember(b []byte, i int, closing byte) (int, bool) {
	i = skipSpace(b, i)
	switch {
	case i >= len(b):
		return -1, true
	case b[i] == ',':
		return skipSpace(b, i+1), false
	case b[i] == closing:
		return i + 1, true
	}
	return -1, true
}

// walkArray is walkObject for arrays: fn gets each element (key nil).
func walkArray(b []byte, i, depth int, fn member) int {
	if depth > maxDepth || i >= len(b) || b[i] != '[' {
		return -1
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1
	}
	for {
		vend := scanValue(b, i, depth)
		if vend < 0 || (fn != nil && !fn(nil, false, b[i:vend])) {
			return -1
		}
		var done bool
		if i, done = afterMember(b, vend, ']'); done {
			return i
		}
	}
}

// eachMember walks the object that is the whole of b (space around it
// allowed, as json.Unmarshal allows it), calling fn for each member. It
// reports whether b is such an object and fn accepted every member.
func eachMember(b []byte, fn member) bool {
	i := skipSpace(b, 0)
	end := walkObject(b, i, 1, fn)
	return end >= 0 && skipSpace(b, end) == len(b)
}

// eachElement is eachMember for a value that must be an array.
func eachElement(b []byte, fn member) bool {
	end := walkArray(b, 0, 1, fn)
	return end == len(b)
}
