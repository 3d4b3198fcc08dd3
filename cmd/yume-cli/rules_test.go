package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/run"
)

func TestRulesList(t *testing.T) {
	code, stdout, _ := runMain(t, "", "rules", "list")
	for _, want := range []string{"generic", "gh-copilot", "rm-remove", "select-option"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("rules list lacks %q", want)
		}
	}
	if code != 0 {
		t.Errorf("exit %d", code)
	}
}

func TestRulesCheck(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(good, "name: mine\nrules:\n  - name: go-on\n    match: '(?P<prompt>Go on\\?)$'\n    kind: confirm\n    approve: 'y<Enter>'\n    deny: 'n<Enter>'\n")
	write(bad, "name: mine\nrules:\n  - name: go-on\n    match: '(?P<prompt>Go on\\?$'\n    kind: confirm\n    approve: 'y<Entr>'\n    deny: 'n<Enter>'\n")
	code, stdout, stderr := runMain(t, "", "rules", "check", good, bad)
	if code != 1 {
		t.Errorf("exit %d, want 1 (one file is bad)", code)
	}
	if !strings.Contains(stdout, "good.yaml: ok (profile mine, 1 rules)") {
		t.Errorf("stdout %q", stdout)
	}
	for _, want := range []string{"bad.yaml:4:13: bad regular expression", "bad.yaml:6:16: approve: unknown key <Entr>", "^~~~~~"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// TestRulesFlagOverrides: --rules adds a rule that fires first.
func TestRulesFlagOverrides(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "extra.yaml")
	if err := os.WriteFile(rules, []byte("name: extra\nrules:\n  - name: deploy\n    match: '(?m)^(?P<prompt>Deploy (?P<command>\\S+) now\\?) \\[ok/no\\]$'\n    kind: confirm\n    cursor: end\n    approve: 'ok<Enter>'\n    deny: 'no<Enter>'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runMain(t, "", "--cwd", dir, "--rules", rules, "--permission-mode", "auto",
		"--", "sh", "-c", `printf 'Deploy web-1 now? [ok/no] '; read a; echo "answer=$a"`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, `"command":"web-1"`) || !strings.Contains(stdout, `answer=ok`) {
		t.Errorf("stdout:\n%s", stdout)
	}
}

// TestRulesTest: every recording replays as its person answered; a rule
// broken on purpose fails the recordings it touches, naming the rule,
// its file:line and the nearest row, and no other.
func TestRulesTest(t *testing.T) {
	corpus := filepath.Join("..", "..", "recordings", "testdata", "corpus")
	people := filepath.Join("..", "..", "recordings", "testdata", "people")
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  []string
	}{
		{"as the rules are", []string{"rules", "test", corpus, people}, 0,
			[]string{"CAST", "AS THE PERSON", "git-add-p.cast", "0 failed"}},
		{"a broken rule", []string{"rules", "test", corpus, "--rules", brokenRule}, 1,
			[]string{"rm-i.cast", "FAIL", "nearest rule rm-remove (" + brokenRule + ":6)", "1 failed"}},
		{"a broken rule, allowed", []string{"rules", "test", corpus, "--rules", brokenRule, "--allow", "unrecognised,golden"}, 0,
			[]string{"0 failed"}},
		{"in full", []string{"rules", "test", "-v", corpusFile("rm-i.cast"), "--rules", brokenRule}, 1,
			[]string{"== " + corpusFile("rm-i.cast"), "which matched row 0 up to", "screen at that moment"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, "", tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, tt.wantCode, stdout, stderr)
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			if tt.name == "a broken rule" && strings.Count(stdout, "FAIL") != 1 {
				t.Errorf("the broken rm rule failed other recordings too:\n%s", stdout)
			}
		})
	}
	if code, _, stderr := runMain(t, "", "rules", "test", t.TempDir()); code != 2 || !strings.Contains(stderr, "no .cast files") {
		t.Errorf("an empty directory: exit %d, %s", code, stderr)
	}
}

// TestNewCmdRulesLeaves: list, check and dangerous get their arguments
// (dangerous's FILE even when ""), and refuse a wrong number of them.
func TestNewCmdRulesLeaves(t *testing.T) {
	ios := &run.IOStreams{}
	var got any
	capture := func(o any) error { got = o; return nil }
	leaves := map[string]func() *cobra.Command{
		"list": func() *cobra.Command {
			return NewCmdRulesList(ios, func(o *RulesListOptions) error { return capture(o) })
		},
		"check": func() *cobra.Command {
			return NewCmdRulesCheck(ios, func(o *RulesCheckOptions) error { return capture(o) })
		},
		"dangerous": func() *cobra.Command {
			return NewCmdRulesDangerous(ios, func(o *RulesDangerousOptions) error { return capture(o) })
		},
	}
	tests := []struct {
		leaf string
		args []string
		want any // the options runF saw; nil: an error, runF not called
	}{
		{"list", nil, &RulesListOptions{IO: ios}},
		{"list", []string{"x"}, nil},
		{"check", []string{"a.yaml"}, &RulesCheckOptions{IO: ios, Files: []string{"a.yaml"}}},
		{"check", []string{"a.yaml", "b.yaml"}, &RulesCheckOptions{IO: ios, Files: []string{"a.yaml", "b.yaml"}}},
		{"check", nil, nil},
		{"dangerous", nil, &RulesDangerousOptions{IO: ios}},
		{"dangerous", []string{"d.yaml"}, &RulesDangerousOptions{IO: ios, File: "d.yaml", HasFile: true}},
		{"dangerous", []string{""}, &RulesDangerousOptions{IO: ios, HasFile: true}},
		{"dangerous", []string{"a", "b"}, nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %q", tt.leaf, tt.args), func(t *testing.T) {
			got = nil
			err := execCmd(leaves[tt.leaf](), tt.args...)
			parsedAs(t, err, got, tt.want)
		})
	}
}
