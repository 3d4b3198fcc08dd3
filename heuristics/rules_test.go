package heuristics

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden .err files in testdata/rules")

// TestRulesErrorGolden checks the full error text of each bad rules file in
// testdata/rules against its .err golden file: every problem, in line
// order, each with its source line and a caret under the bad token.
func TestRulesErrorGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/rules/bad-*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bad-*.yaml files in testdata/rules (%v)", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			p, err := ParseProfile(filepath.Base(file), data)
			var re *RulesError
			if p != nil || !errors.As(err, &re) {
				t.Fatalf("ParseProfile = %v, %v; want nil and a *RulesError", p, err)
			}
			golden := strings.TrimSuffix(file, ".yaml") + ".err"
			got := err.Error() + "\n"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run RulesErrorGolden -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("error text differs from %s:\n--- got\n%s--- want\n%s", golden, got, want)
			}
		})
	}
}

func TestRulesErrorProblems(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       []Problem // Line, Col, Len and a Msg fragment
	}{
		{"unknown field", "rules: []\nmodel: x\n", []Problem{{Line: 2, Col: 1, Len: 5, Msg: `unknown profile field "model"`}}},
		{"bad regex token", "rules:\n  - name: a\n    match: 'a**'\n    kind: done\n", []Problem{{Line: 3, Col: 14, Len: 2, Msg: "invalid nested repetition operator"}}},
		{"bad key in keys", "quit: 'x<Foo>'\nrules: []\n", []Problem{{Line: 1, Col: 9, Len: 5, Msg: "unknown key <Foo>"}}},
		{"bad kind", "rules:\n  - name: a\n    match: a\n    kind: ask\n", []Problem{{Line: 4, Col: 11, Len: 3, Msg: `unknown kind "ask"`}}},
		{"ready regex", "ready: '[a'\nrules: []\n", []Problem{{Line: 1, Col: 9, Len: 2, Msg: "missing closing ]"}}},
		{"command not list", "command: gh copilot\nrules: []\n", []Problem{{Line: 1, Col: 10, Len: 10, Msg: "must be a list of strings"}}},
		{"rules not list", "rules: {a: b}\n", []Problem{{Line: 1, Col: 8, Len: 1, Msg: "rules must be a list"}}},
		{"not a mapping", "- a\n", []Problem{{Line: 1, Col: 1, Len: 1, Msg: "a profile is a mapping"}}},
		{"empty", "", []Problem{{Msg: "the file is empty"}}},
		{"field twice", "name: a\nname: b\nrules: []\n", []Problem{{Line: 2, Col: 1, Len: 4, Msg: `"name" given twice`}}},
		{"quiet range", "quiet_ms: 0\n", []Problem{{Line: 1, Col: 11, Len: 1, Msg: "quiet_ms must be"}}},
		{"followup on text", "rules:\n  - name: a\n    match: '(?P<text>a)'\n    kind: text\n    followup: true\n", []Problem{{Line: 5, Col: 15, Len: 4, Msg: "followup is only for confirm and menu"}}},
		{"whole_call on text", "rules:\n  - name: a\n    match: '(?P<text>a)'\n    kind: text\n    whole_call: true\n", []Problem{{Line: 5, Col: 17, Len: 4, Msg: "whole_call is only for confirm and menu rules about a command"}}},
		{"whole_call without a command", "rules:\n  - name: a\n    match: '(?P<prompt>a\\?)'\n    kind: confirm\n    approve: y\n    deny: n\n    whole_call: true\n", []Problem{{Line: 7, Col: 17, Len: 4, Msg: "whole_call is only for confirm and menu rules about a command"}}},
		{"whole_call not a bool", "rules:\n  - name: a\n    match: '(?P<command>a)'\n    kind: confirm\n    approve: y\n    deny: n\n    whole_call: yes\n", []Problem{{Line: 7, Col: 17, Len: 3, Msg: "whole_call must be true or false"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseProfile("t.yaml", []byte(tt.yaml))
			var re *RulesError
			if !errors.As(err, &re) {
				t.Fatalf("ParseProfile = %v; want a *RulesError", err)
			}
			if len(re.Problems) != len(tt.want) {
				t.Fatalf("got %d problems, want %d:\n%v", len(re.Problems), len(tt.want), err)
			}
			for i, w := range tt.want {
				g := re.Problems[i]
				if g.Line != w.Line || g.Col != w.Col || g.Len != w.Len || !strings.Contains(g.Msg, w.Msg) {
					t.Errorf("problem %d = %d:%d len %d %q; want %d:%d len %d containing %q",
						i, g.Line, g.Col, g.Len, g.Msg, w.Line, w.Col, w.Len, w.Msg)
				}
			}
		})
	}
}

func TestParseProfileFields(t *testing.T) {
	data, err := os.ReadFile("testdata/rules/ok-override.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseProfile("testdata/rules/ok-override.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "ok-override" || p.Quiet != 100*time.Millisecond || len(p.Rules) != 2 {
		t.Fatalf("profile = %q quiet %v with %d rules", p.Name, p.Quiet, len(p.Rules))
	}
	r := p.Rules[0]
	if r.Name != "my-deploy" || r.Look != (Look{AreaBottom, 3}) || r.Kind != KindConfirm ||
		r.Cursor != CursorEnd || r.Approve.String() != "y<Enter>" || r.Deny.String() != "<C-c>" || r.Line != 5 {
		t.Errorf("rule = %+v", r)
	}
	if r.Source != "testdata/rules/ok-override.yaml" {
		t.Errorf("Source = %q", r.Source)
	}
}

func TestRulesParseLook(t *testing.T) {
	tests := []struct {
		in   string
		want Look
		err  string
	}{
		{"", Look{AreaScreen, 0}, ""},
		{"screen", Look{AreaScreen, 0}, ""},
		{"bottom:4", Look{AreaBottom, 4}, ""},
		{"transcript", Look{AreaTranscript, DefaultTranscript}, ""},
		{"transcript:50", Look{AreaTranscript, 50}, ""},
		{"bottom", Look{}, "needs a row count"},
		{"bottom:0", Look{}, "at least 1"},
		{"screen:3", Look{}, "takes no count"},
		{"top:3", Look{}, "unknown look"},
	}
	for _, tt := range tests {
		got, err := ParseLook(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseLook(%q) = %v, %v; want error with %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseLook(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
		if tt.in != "" {
			if again, _ := ParseLook(got.String()); again != got {
				t.Errorf("ParseLook(%q).String() = %q does not round-trip", tt.in, got.String())
			}
		}
	}
}

func TestProfileMerge(t *testing.T) {
	base, err := LoadProfile("generic")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile("testdata/rules/ok-override.yaml")
	over, err := ParseProfile("mine.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	over.Name = "" // as if the file had no name: keep the base's
	m := base.Merge(over)
	if m.Name != "generic" || m.Quiet != 100*time.Millisecond || m.Quit.String() != "<C-c>" {
		t.Errorf("merged scalars: name %q quiet %v quit %q", m.Name, m.Quiet, m.Quit)
	}
	if len(m.Rules) != len(base.Rules)+1 {
		t.Fatalf("merged %d rules, want %d", len(m.Rules), len(base.Rules)+1)
	}
	if m.Rules[0].Name != "my-deploy" {
		t.Errorf("new rule not first: %q", m.Rules[0].Name)
	}
	for i, r := range base.Rules {
		got := m.Rules[i+1]
		if got.Name != r.Name {
			t.Errorf("rule %d = %q, want %q in the base's order", i+1, got.Name, r.Name)
		}
		if r.Name == "rm-remove" && got.Source != "mine.yaml" {
			t.Errorf("rm-remove not replaced by the override (source %q)", got.Source)
		}
	}
	if base.Quiet != 40*time.Millisecond || base.Rules[0].Name == "my-deploy" {
		t.Error("Merge modified the base profile")
	}
	if m.Source != "profiles/generic.yaml + mine.yaml" {
		t.Errorf("Source = %q", m.Source)
	}
}

// TestKeepsRunning: the AI TUIs keep running while they ask, generic
// programs do not, and an override can say either.
func TestKeepsRunning(t *testing.T) {
	for name, want := range map[string]bool{"claude": true, "codex": true, "copilot": true, "gemini": true, "generic": false, "gh-copilot": false} {
		p, err := LoadProfile(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.KeepsRunningWhileAsking(); got != want {
			t.Errorf("%s: keeps running %v, want %v", name, got, want)
		}
	}
	claude, _ := LoadProfile("claude")
	for _, tc := range []struct {
		yaml string
		want bool
	}{{"keeps_running: false\n", false}, {"keeps_running: true\n", true}, {"quiet_ms: 50\n", true}} {
		over, err := ParseProfile("mine.yaml", []byte(tc.yaml))
		if err != nil {
			t.Fatal(err)
		}
		if got := claude.Merge(over).KeepsRunningWhileAsking(); got != tc.want {
			t.Errorf("claude + %q: keeps running %v, want %v", tc.yaml, got, tc.want)
		}
	}
}

func TestLoadProfile(t *testing.T) {
	names := ProfileNames()
	if strings.Join(names, ",") != "aider,claude,codex,copilot,gemini,generic,gh-copilot,kilo,opencode,qwen" {
		t.Errorf("ProfileNames() = %v", names)
	}
	for _, n := range names {
		p, err := LoadProfile(n)
		if err != nil {
			t.Errorf("embedded profile %s: %v", n, err)
			continue
		}
		if p.Name != n || len(p.Rules) == 0 || p.Description == "" {
			t.Errorf("profile %s: name %q, %d rules, description %q", n, p.Name, len(p.Rules), p.Description)
		}
	}
	_, err := LoadProfile("nope")
	if err == nil || !strings.Contains(err.Error(), "generic, gh-copilot") {
		t.Errorf("LoadProfile(nope) = %v; want an error listing the known profiles", err)
	}
	if _, err := LoadProfile("../profiles/generic"); err == nil {
		t.Error("LoadProfile accepted a path")
	}
}

func TestProfileSettle(t *testing.T) {
	if got := (&Profile{}).Settle(); got != DefaultQuiet {
		t.Errorf("Settle() of an unset profile = %v", got)
	}
	if got := (&Profile{Quiet: time.Second}).Settle(); got != time.Second {
		t.Errorf("Settle() = %v", got)
	}
}
