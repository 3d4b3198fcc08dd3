package jsonfast

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// tricky are strings at the edges of JSON's string syntax.
var tricky = []string{
	"", "plain", `quote " and \ backslash`, "\n\r\t\b\f", "\x00\x01\x1f\x7f",
	"<html> & 'x'", "\u2028\u2029", "é中文🇺🇸", "\xff\xfe bad", "\xc3", "\xed\xa0\x80 surrogate bytes",
	`\u00e9 looks like an escape`, "tail\\",
}

// marshal is encoding/json's string encoding without HTML escaping, the
// reference for AppendString.
func marshal(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // A string always encodes.
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func FuzzAppendString(f *testing.F) {
	for _, s := range tricky {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := AppendString(nil, s), marshal(s); !bytes.Equal(got, want) {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}

// FuzzUnquote: on valid UTF-8, Unquote reads a string exactly as
// json.Unmarshal does, or declines one json.Unmarshal rejects.
func FuzzUnquote(f *testing.F) {
	for _, s := range tricky {
		f.Add(string(marshal(s)))
	}
	for _, s := range []string{`"\ud83d\ude00"`, `"\ud83d"`, `"\u00"`, `"\x"`, `"a`, "\"\x01\"", `  "x"  `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		b := []byte(in)
		if !utf8.Valid(b) {
			return // callers hand Unquote valid UTF-8 only
		}
		got, end, ok := Unquote(b, 0)
		if !ok {
			return // declining is always allowed: the caller falls back
		}
		var want string
		if err := json.Unmarshal(b[:end], &want); err != nil {
			t.Fatalf("Unquote(%q) = %q, but json.Unmarshal rejects %q: %v", in, got, b[:end], err)
		}
		if got != want {
			t.Errorf("Unquote(%q) = %q, json.Unmarshal = %q", in, got, want)
		}
	})
}

// FuzzScanValue: ScanValue accepts exactly the values json.Valid accepts.
func FuzzScanValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e3,-0,true,false,null,"x"]}`, `{"a":}`, `[1,]`, `01`, `1.`, `"\u12"`, `{"a":1 "b":2}`, `[[[[]]]]`, "\"\x7f\"", `{}`, `[]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		b := []byte(in)
		i := SkipSpace(b, 0)
		end := ScanValue(b, i, 0)
		got := end >= 0 && SkipSpace(b, end) == len(b)
		if want := json.Valid(b); got != want {
			t.Errorf("ScanValue(%q) valid = %v, json.Valid = %v", in, got, want)
		}
	})
}

// TestEachMember: members come in order, with their raw values; a
// rejected member fails the walk.
func TestEachMember(t *testing.T) {
	var keys, vals []string
	ok := EachMember([]byte(` {"a":1, "b\u0021":{"c":[1,2]} ,"d":"x"} `), func(k []byte, esc bool, v []byte) bool {
		keys, vals = append(keys, string(k)), append(vals, string(v))
		return true
	})
	if !ok || len(keys) != 3 || keys[1] != `b\u0021` || vals[1] != `{"c":[1,2]}` || vals[2] != `"x"` {
		t.Errorf("EachMember = %v, keys %q, vals %q", ok, keys, vals)
	}
	if EachMember([]byte(`{"a":1}`), func([]byte, bool, []byte) bool { return false }) {
		t.Error("EachMember reported success after its callback refused a member")
	}
	if EachMember([]byte(`[1]`), func([]byte, bool, []byte) bool { return true }) {
		t.Error("EachMember accepted an array")
	}
}
