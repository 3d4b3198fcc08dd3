// Package jsonfast holds the hand-written JSON helpers of yume-cli's hot
// paths, once: a validating scanner that walks a line without reflection
// or allocation (the translators' fast decoders), a string decoder (cast
// events), and a string encoder byte-identical to encoding/json (every
// emitted line). Each accepts exactly what encoding/json accepts, or tells
// the caller to fall back to it, so encoding/json stays the reference; the
// fuzz tests hold them to it.
package jsonfast

// MaxDepth is encoding/json's nesting limit; deeper input falls back (and
// json.Unmarshal then reports it).
const MaxDepth = 10000

// SkipSpace returns the index of the first non-space byte at or after i.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// ScanValue returns the end of the JSON value starting at b[i] (no leading
// space), or -1 when it is not valid JSON.
func ScanValue(b []byte, i, depth int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		end, _ := ScanString(b, i)
		return end
	case c == '{':
		return WalkObject(b, i, depth+1, nil)
	case c == '[':
		return WalkArray(b, i, depth+1, nil)
	case c == '-' || (c >= '0' && c <= '9'):
		return ScanNumber(b, i)
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

// ScanString returns the end of the string starting at b[i] == '"' and
// whether it holds escapes; -1 when it is invalid (a control character, a
// bad escape or no closing quote). Invalid UTF-8 is valid JSON syntax here,
// as for encoding/json, which replaces it when unquoting.
func ScanString(b []byte, i int) (end int, escaped bool) {
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
				if _, ok := hex4(b, i+1); !ok {
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

// ScanNumber returns the end of the number at b[i]:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func ScanNumber(b []byte, i int) int {
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

// Member receives one object Member: its raw key (without quotes; escaped
// says it still holds escapes) and its raw, validated value. Returning
// false stops the walk, which then reports failure.
type Member func(key []byte, escaped bool, val []byte) bool

// WalkObject validates the object starting at b[i] == '{', calling fn (if
// not nil) for each Member, and returns the index after it, or -1.
func WalkObject(b []byte, i, depth int, fn Member) int {
	if depth > MaxDepth || i >= len(b) || b[i] != '{' {
		return -1
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		kend, esc := ScanString(b, i)
		if kend < 0 {
			return -1
		}
		key := b[i+1 : kend-1]
		i = SkipSpace(b, kend)
		if i >= len(b) || b[i] != ':' {
			return -1
		}
		i = SkipSpace(b, i+1)
		vend := ScanValue(b, i, depth)
		if vend < 0 || (fn != nil && !fn(key, esc, b[i:vend])) {
			return -1
		}
		var done bool
		if i, done = afterMember(b, vend, '}'); done {
			return i
		}
	}
}

// afterMember reads what follows a Member or element at i: a ',' (the next
// one's index, done false) or the closing byte (the index after it, done
// true); anything else is -1, done.
func afterMember(b []byte, i int, closing byte) (int, bool) {
	i = SkipSpace(b, i)
	switch {
	case i >= len(b):
		return -1, true
	case b[i] == ',':
		return SkipSpace(b, i+1), false
	case b[i] == closing:
		return i + 1, true
	}
	return -1, true
}

// WalkArray is WalkObject for arrays: fn gets each element (key nil).
func WalkArray(b []byte, i, depth int, fn Member) int {
	if depth > MaxDepth || i >= len(b) || b[i] != '[' {
		return -1
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1
	}
	for {
		vend := ScanValue(b, i, depth)
		if vend < 0 || (fn != nil && !fn(nil, false, b[i:vend])) {
			return -1
		}
		var done bool
		if i, done = afterMember(b, vend, ']'); done {
			return i
		}
	}
}

// EachMember walks the object that is the whole of b (space around it
// allowed, as json.Unmarshal allows it), calling fn for each Member. It
// reports whether b is such an object and fn accepted every Member.
func EachMember(b []byte, fn Member) bool {
	i := SkipSpace(b, 0)
	end := WalkObject(b, i, 1, fn)
	return end >= 0 && SkipSpace(b, end) == len(b)
}

// EachElement is EachMember for a value that must be an array.
func EachElement(b []byte, fn Member) bool {
	end := WalkArray(b, 0, 1, fn)
	return end == len(b)
}
