package heuristics

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseProfile checks that any input yields a profile or a *RulesError
// with at least one printable problem, never a panic.
func FuzzParseProfile(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/rules/*.yaml")
	embedded, _ := filepath.Glob("profiles/*.yaml")
	for _, s := range append(seeds, embedded...) {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("rules:\n  - name: a\n    match: '\xff(?P<x>'\n    kind: confirm\n    approve: '<'\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseProfile("fuzz.yaml", data)
		if err != nil {
			var re *RulesError
			if !errors.As(err, &re) || len(re.Problems) == 0 || re.Error() == "" {
				t.Fatalf("error %v is not a *RulesError with problems", err)
			}
			return
		}
		if p.Name == "" {
			t.Fatal("profile without a name")
		}
		for _, r := range p.Rules {
			if r.Match == nil || r.Kind == "" {
				t.Fatalf("rule %q accepted without match or kind", r.Name)
			}
		}
		if m := p.Merge(p); len(m.Rules) != len(p.Rules) {
			t.Fatalf("merging a profile with itself changed its rule count")
		}
	})
}

// FuzzParseKeys checks that parsed keys print back to notation that parses
// to the same keys, and that encoding never panics.
func FuzzParseKeys(f *testing.F) {
	for _, s := range []string{"y<Enter>", "<C-c>", "a<lt>b", "select:^Exit$", "<Prompt><Tab>", "<Up><S-Tab>x", "<", "select:("} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := ParseKeys(s)
		if err != nil {
			var ke *KeyError
			if !errors.As(err, &ke) || ke.Offset < 0 || ke.Offset+ke.Len > len(s) {
				t.Fatalf("ParseKeys(%q): bad error %#v", s, err)
			}
			return
		}
		again, err := ParseKeys(k.String())
		if err != nil || again.String() != k.String() {
			t.Fatalf("ParseKeys(%q).String() = %q does not round-trip: %q, %v", s, k.String(), again.String(), err)
		}
		v := surveyScreen(ghSuggestion)
		a, errA := k.WithPrompt("p").Encode(v)
		b, errB := again.WithPrompt("p").Encode(v)
		if string(a) != string(b) || (errA == nil) != (errB == nil) {
			t.Fatalf("%q and its round trip encode differently: %q vs %q", s, a, b)
		}
	})
}
