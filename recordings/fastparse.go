package recordings

import "github.com/yume-cli/yume-cli/internal/jsonfast"

// decodeEventFast decodes the event lines asciinema and this package write,
// [1.5, "o", "text"], without encoding/json, which spends most of Read's
// time otherwise. It accepts a strict subset of JSON: a plain decimal time
// and two strings. ok is false for anything else, and parseEvent then uses
// encoding/json, which also explains what is wrong. b must be valid UTF-8.
func decodeEventFast(b []byte) (rawTime []byte, code, data string, ok bool) {
	i := jsonfast.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, "", "", false
	}
	i = jsonfast.SkipSpace(b, i+1)
	start := i
	i = scanDecimal(b, i)
	if i == start {
		return nil, "", "", false
	}
	rawTime = b[start:i]
	if i, ok = expect(b, i, ','); !ok {
		return nil, "", "", false
	}
	if code, i, ok = jsonfast.Unquote(b, i); !ok {
		return nil, "", "", false
	}
	if i, ok = expect(b, i, ','); !ok {
		return nil, "", "", false
	}
	if data, i, ok = jsonfast.Unquote(b, i); !ok {
		return nil, "", "", false
	}
	if i, ok = expect(b, i, ']'); !ok || jsonfast.SkipSpace(b, i) != len(b) {
		return nil, "", "", false
	}
	return rawTime, code, data, true
}

// expect skips whitespace, the byte c and whitespace again.
func expect(b []byte, i int, c byte) (int, bool) {
	i = jsonfast.SkipSpace(b, i)
	if i >= len(b) || b[i] != c {
		return i, false
	}
	return jsonfast.SkipSpace(b, i+1), true
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
