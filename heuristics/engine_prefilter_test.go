package heuristics

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestEnginePrefilterLiterals(t *testing.T) {
	tests := []struct {
		expr string
		want prefilter
	}{
		{`(?m)^(?P<prompt>rm: (?:remove|descend into) .+\?)$`, prefilter{{"remove", false}, {"descend into", false}}},
		{`(?m)^Suggestion:\n\n(?P<command>(?:  +\S.*(?:\n|$))+)`, prefilter{{"Suggestion:\n\n", false}}},
		{`[\[(][Yy]/[Nn][\])]`, prefilter{{"y/n", true}}},
		{`(?i)Overwrite`, prefilter{{"overwrite", true}}},
		{`(?:yes|no)`, prefilter{{"yes", false}, {"no", false}}},
		{`(?:yes|n?)`, nil}, // one branch needs nothing
		{`a*b+`, prefilter{{"b", false}}},
		{`(?i)ünï`, nil}, // non-ASCII folding is not attempted
		{`x{0,3}`, nil},
		{`.*`, nil},
	}
	for _, tt := range tests {
		if got := newPrefilter(tt.expr); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("newPrefilter(%q) = %v, want %v", tt.expr, got, tt.want)
		}
	}
}

// Every text a rule matches must pass its prefilter, or a prompt is missed.
func TestEnginePrefilterAdmitsMatches(t *testing.T) {
	var texts []string
	for _, c := range genericCases {
		texts = append(texts, c.screen)
	}
	texts = append(texts, ghWelcome, ghSuggestion, surveySelect, "RM: REMOVE x?", "Proceed? [Y/N]", "OVERWRITE 'a'?")
	for _, name := range ProfileNames() {
		p, err := LoadProfile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Rules {
			f := newPrefilter(r.Match.String())
			for _, text := range texts {
				if r.Match.MatchString(text) && !f.admits(text, func() string { return strings.ToLower(text) }) {
					t.Errorf("%s/%s: prefilter %v rejects a text the regex matches: %q", name, r.Name, f, text)
				}
			}
		}
	}
}

// FuzzEnginePrefilter checks the prefilter never rejects a text its regex matches.
func FuzzEnginePrefilter(f *testing.F) {
	f.Add(`[Yy]/[Nn]`, "Continue? [y/N]")
	f.Add(`(?i)a(?:bc|d)e`, "xABCEx")
	f.Add(`(?i)k`, "\u212a")
	f.Add(`x(?:ü|y)`, "xü")
	f.Fuzz(func(t *testing.T, expr, text string) {
		re, err := regexp.Compile(expr)
		if err != nil || !re.MatchString(text) {
			return
		}
		if p := newPrefilter(expr); !p.admits(text, func() string { return strings.ToLower(text) }) {
			t.Fatalf("prefilter %v of %q rejects matching text %q", p, expr, text)
		}
	})
}

func TestEngineLineSpan(t *testing.T) {
	tests := []struct {
		expr string
		want int
	}{
		{`(?m)^(?P<prompt>rm: remove .+\?)$`, 0},
		{`(?m)^a\nb\nc$`, 2},
		{`(?m)^\? What would you like\?(?:\n>)?$`, 1},
		{`(?m)^(?:\d+\) .+\n){2,}Choose:$`, -1},
		{`(?m)^(?:\d+\) .+\n){2,4}Choose:$`, 4},
		{`(?s)a.b`, 1},
		{`(?s)a.*b`, -1},
		{`a\sb`, 1},
		{`a[^x]*b`, -1},
		{`a[^x\n]*b`, 0},
		{`\Aa`, -1},
		{`a\z`, -1},
		{`(?:a\n|b\n\n)c`, 2},
	}
	for _, tt := range tests {
		if got := lineSpan(tt.expr); got != tt.want {
			t.Errorf("lineSpan(%q) = %d, want %d", tt.expr, got, tt.want)
		}
	}
}
