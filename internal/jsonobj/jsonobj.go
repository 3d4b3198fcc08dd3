// Package jsonobj reads a JSON object's members on demand, so that a
// member of the wrong type is named in the error: the control frames emit
// parses and the lines emittest checks are read the same way.
package jsonobj

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Object is a JSON object whose members are decoded when asked for.
type Object map[string]json.RawMessage

// Str returns member key as a string; ok is false when it is absent or
// null, err is set when it is another JSON type.
func (o Object) Str(key string) (s string, ok bool, err error) {
	raw, present := o[key]
	if !present || string(raw) == "null" {
		return "", false, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, fmt.Errorf("%q must be a string, got %s", key, Quote(raw))
	}
	return s, true, nil
}

// Bool is Str for true or false.
func (o Object) Bool(key string) (b bool, ok bool, err error) {
	raw, present := o[key]
	if !present || string(raw) == "null" {
		return false, false, nil
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		return false, false, fmt.Errorf("%q must be true or false, got %s", key, Quote(raw))
	}
	return b, true, nil
}

// Object is Str for an object.
func (o Object) Object(key string) (obj Object, ok bool, err error) {
	raw, present := o[key]
	if !present || string(raw) == "null" {
		return nil, false, nil
	}
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &obj) != nil {
		return nil, false, fmt.Errorf("%q must be an object, got %s", key, Quote(raw))
	}
	return obj, true, nil
}

// quoteMax bounds how much of a bad value an error message repeats.
const quoteMax = 80

// Quote renders (the start of) b for an error message: valid UTF-8, cut
// at a rune's start.
func Quote(b []byte) string {
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	if len(s) > quoteMax {
		n := quoteMax
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "…"
	}
	return fmt.Sprintf("%q", s)
}
