package structured

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yume-cli/yume-cli/internal/jsonfast"
)

// Converters from a raw, already validated JSON value (internal/jsonfast) to the
// Go value json.Unmarshal would store in a field of that type. Each reports
// false where json.Unmarshal would fail (a type mismatch) or where it is
// simpler to let json.Unmarshal decide; the caller then falls back to it.

// isNull reports whether v is the literal null, which json.Unmarshal skips
// for most field types (the field keeps its zero value).
func isNull(v []byte) bool { return string(v) == "null" }

// jstr decodes a string (or null, leaving ""). Escapes and invalid UTF-8
// are unquoted by encoding/json itself, so they read exactly as before.
func jstr(v []byte, escaped bool) (string, bool) {
	if isNull(v) {
		return "", true
	}
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	if s := v[1 : len(v)-1]; !escaped && utf8.Valid(s) {
		return string(s), true
	}
	var s string
	return s, json.Unmarshal(v, &s) == nil
}

// jstring is jstr for a value whose escapes were not looked at yet.
func jstring(v []byte) (string, bool) {
	return jstr(v, bytes.IndexByte(v, '\\') >= 0)
}

// jbool decodes true, false or null (false).
func jbool(v []byte) (bool, bool) {
	switch string(v) {
	case "true":
		return true, true
	case "false", "null":
		return false, true
	}
	return false, false
}

// jint decodes an integer that fits an int (or null, 0); fractions and
// exponents, which json.Unmarshal rejects for an int, fall back.
func jint(v []byte) (int, bool) {
	if isNull(v) {
		return 0, true
	}
	if len(v) == 0 || len(v) > 18 || bytes.ContainsAny(v, ".eE") {
		return 0, false
	}
	n, err := strconv.Atoi(string(v))
	return n, err == nil
}

// jintPtr decodes a *int: nil for null.
func jintPtr(v []byte) (*int, bool) {
	if isNull(v) {
		return nil, true
	}
	n, ok := jint(v)
	return &n, ok
}

// jraw copies a raw value as json.RawMessage does (null stays "null"): the
// line's buffer is reused after Line returns.
func jraw(v []byte) json.RawMessage { return bytes.Clone(v) }

// jmap decodes an object into a fresh map[string]any (nil for null).
func jmap(v []byte) (map[string]any, bool) {
	if isNull(v) {
		return nil, true
	}
	if len(v) == 0 || v[0] != '{' {
		return nil, false
	}
	m := map[string]any{}
	ok := jsonfast.EachMember(v, func(key []byte, esc bool, val []byte) bool {
		k, ok := jkey(key, esc)
		if !ok {
			return false
		}
		m[k], ok = jany(val)
		return ok
	})
	return m, ok
}

// jkey decodes an object key as the scanner passed it (without quotes).
func jkey(key []byte, escaped bool) (string, bool) {
	if !escaped && utf8.Valid(key) {
		return string(key), true
	}
	var s string
	q := append(append([]byte{'"'}, key...), '"')
	return s, json.Unmarshal(q, &s) == nil
}

// jany decodes any value as json.Unmarshal into an `any` does: string,
// float64, bool, nil, []any, map[string]any.
func jany(v []byte) (any, bool) {
	switch c := v[0]; {
	case c == '"':
		return jstring(v)
	case c == '{':
		return jmap(v)
	case c == '[':
		list := []any{}
		ok := jsonfast.EachElement(v, func(_ []byte, _ bool, el []byte) bool {
			x, ok := jany(el)
			list = append(list, x)
			return ok
		})
		return list, ok
	case c == 't' || c == 'f':
		return c == 't', true
	case c == 'n':
		return nil, true
	}
	f, err := strconv.ParseFloat(string(v), 64)
	return f, err == nil
}

// foldsToField reports whether an object key that is not one of the
// fields a fast decoder handles might still be matched to a field by
// encoding/json (which matches names case-insensitively, Unicode folding
// included, and unescapes keys): then the fast decoder must give up.
// fields lists every JSON field name of the struct being decoded.
func foldsToField(key []byte, escaped bool, fields []string) bool {
	if escaped {
		return true
	}
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return true
		}
	}
	for _, f := range fields {
		if strings.EqualFold(string(key), f) {
			return true
		}
	}
	return false
}
