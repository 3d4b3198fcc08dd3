package emit

import (
	"encoding/json"
	"fmt"
)

// fields is a JSON object whose members are decoded on demand, so that a
// wrongly typed member can be named in the error.
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

func (f fields) object(key string) (obj fields, ok bool, err error) {
	raw, present := f[key]
	if !present || string(raw) == "null" {
		return nil, false, nil
	}
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &obj) != nil {
		return nil, false, fmt.Errorf("%q must be an object, got %s", key, quote(raw))
	}
	return obj, true, nil
}

// quoteMax bounds how much of a bad frame an error message repeats.
const quoteMax = 80

// quote renders (the start of) b for an error message.
func quote(b []byte) string {
	s := ValidUTF8(string(b))
	if len(s) > quoteMax {
		s = s[:runeStartBefore(s, quoteMax)] + "…"
	}
	return fmt.Sprintf("%q", s)
}
