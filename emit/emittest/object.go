package emittest

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxLine is docs/protocol.md's limit, kept here on purpose rather than taken
// from emit: the checker holds the writer to the contract, not to itself.
// Yume's parser drops a line of this many bytes or more.
const maxLine = 100_000

// fields is a JSON object whose members are decoded on demand.
type fields map[string]json.RawMessage

// str returns member key as a string; ok is false when it is absent or
// null, err is set when it is another JSON type.
func (f fields) str(key string) (s string, ok bool, err error) {
	raw, present := f[key]
	if !present || string(raw) == "null" {
		return "", false, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, fmt.Errorf("%q must be a string, got %s", key, quote(raw))
	}
	return s, true, nil
}

func (f fields) boolean(key string) (b bool, ok bool, err error) {
	raw, present := f[key]
	if !present || string(raw) == "null" {
		return false, false, nil
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		return false, false, fmt.Errorf("%q must be true or false, got %s", key, quote(raw))
	}
	return b, true, nil
}

// quote renders (the start of) b for a problem report.
func quote(b []byte) string {
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	if len(s) > 80 {
		n := 80
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "…"
	}
	return fmt.Sprintf("%q", s)
}
