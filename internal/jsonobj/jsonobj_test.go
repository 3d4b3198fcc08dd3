package jsonobj

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestMembers(t *testing.T) {
	var o Object
	if err := json.Unmarshal([]byte(`{"s":"x","b":true,"o":{"k":1},"n":null,"bad":[1]}`), &o); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key        string
		ok, hasErr bool
		get        func(string) (bool, error)
	}{
		{"s", true, false, func(k string) (bool, error) { _, ok, err := o.Str(k); return ok, err }},
		{"b", true, false, func(k string) (bool, error) { _, ok, err := o.Bool(k); return ok, err }},
		{"o", true, false, func(k string) (bool, error) { _, ok, err := o.Object(k); return ok, err }},
		{"n", false, false, func(k string) (bool, error) { _, ok, err := o.Str(k); return ok, err }},
		{"absent", false, false, func(k string) (bool, error) { _, ok, err := o.Bool(k); return ok, err }},
		{"bad", false, true, func(k string) (bool, error) { _, ok, err := o.Str(k); return ok, err }},
		{"bad", false, true, func(k string) (bool, error) { _, ok, err := o.Object(k); return ok, err }},
		{"s", false, true, func(k string) (bool, error) { _, ok, err := o.Bool(k); return ok, err }},
	} {
		ok, err := c.get(c.key)
		if ok != c.ok || (err != nil) != c.hasErr {
			t.Errorf("%q: ok %v, err %v; want ok %v, an error %v", c.key, ok, err, c.ok, c.hasErr)
		}
		if err != nil && !strings.Contains(err.Error(), `"`+c.key+`"`) {
			t.Errorf("%q: the error %q does not name the member", c.key, err)
		}
	}
}

func TestQuoteCutsAtARune(t *testing.T) {
	long := strings.Repeat("é", 100) // two bytes each: byte 80 starts a rune, 81 does not
	for _, s := range []string{long, "a" + long, "\xff\xfe bad"} {
		q := Quote([]byte(s))
		if !strings.HasPrefix(q, `"`) || strings.Contains(q, `\x`) {
			t.Errorf("Quote(%q) = %s: want valid, quoted text", s[:min(len(s), 10)], q)
		}
	}
}
