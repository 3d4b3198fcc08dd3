package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func corpusFile(name string) string {
	return filepath.Join("..", "..", "recordings", "testdata", "corpus", name)
}

func peopleFile(name string) string {
	return filepath.Join("..", "..", "recordings", "testdata", "people", name)
}

// brokenRule is rm-remove broken on purpose (it wants a "[y/N]").
var brokenRule = filepath.Join("..", "..", "recordings", "testdata", "rules", "rm-remove-broken.yaml")

// TestReplay runs `yume-cli replay` on corpus recordings as a user would.
func TestReplay(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.cast")
	if err := os.WriteFile(bad, []byte("{\"version\": 2, \"width\": 80, \"height\": 24}\n[1.0, \"o\", \"a\"]\n[0.5, \"o\", \"b\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantOut    []string
		wantErr    []string
		wantStream bool
	}{
		{"keys match", []string{"replay", corpusFile("git-add-p.cast"), "--approve", "1"}, 0,
			[]string{`"tool_use"`, `(2/2) Stage this hunk`}, nil, true},
		{"keys differ", []string{"replay", corpusFile("git-add-p.cast"), "--approve", "all"}, 1, nil,
			[]string{`the rules would have typed "y\r" here (rule git-add-patch, approve keys); the recording has "n\r"`,
				"screen at that moment:", "│ (2/2) Stage this hunk"}, true},
		{"typed prompt", []string{"replay", corpusFile("demo-typed.cast")}, 0, []string{`"command":"echo hi"`}, nil, true},
		{"wrong prompt", []string{"replay", corpusFile("demo-typed.cast"), "--prompt", "say ho"}, 1, nil,
			[]string{`rule ask-prompt, input keys`, `the recording has "say hi\r"`}, true},
		{"trace", []string{"replay", corpusFile("rm-i.cast"), "--trace"}, 0, nil,
			[]string{`"rule":"rm-remove","source":"profiles/generic.yaml:`, `"fired":true`, `"event":"keys","rule":"rm-remove","why":"approve"`}, true},
		{"screen", []string{"replay", corpusFile("rm-i.cast"), "--screen", "0.2"}, 0,
			[]string{"rm: remove regular file 'notes.txt'?\n"}, nil, false},
		{"interrupt", []string{"replay", corpusFile("demo-slow.cast"), "--interrupt-at", "0.4"}, 0,
			[]string{`"type":"interrupt"`}, nil, true},
		{"a broken rule fails", []string{"replay", corpusFile("rm-i.cast"), "--rules", brokenRule}, 1, nil,
			[]string{`at 0.050s the program asked "rm: remove regular file 'notes.txt'?" and no rule recognised it`,
				"rule rm-remove (" + brokenRule + ":6): part 5 of 7 ` \\[y/N\\]` found nothing after the parts before it, which matched row 0 up to",
				"failed: unrecognised (--allow unrecognised lets it pass)"}, true},
		{"a broken rule allowed", []string{"replay", corpusFile("rm-i.cast"), "--rules", brokenRule, "--allow", "unrecognised"}, 0, nil,
			[]string{"no rule recognised it"}, true},
		{"golden same", []string{"replay", corpusFile("rm-i.cast"), "--golden", corpusFile("rm-i.golden.jsonl")}, 0, nil, nil, true},
		{"golden differs", []string{"replay", corpusFile("rm-i.cast"), "--golden", corpusFile("cp-i-deny.golden.jsonl")}, 1, nil,
			[]string{`event 1: the golden has tool_use toolu_1 Bash {"command":"cp -i a.txt b.txt"`, "failed: golden"}, true},
		{"golden known question", []string{"replay", peopleFile("npm-init-ok-enter.cast"), "--golden", peopleFile("npm-init-ok-enter.golden.jsonl")}, 0, nil,
			[]string{`"description:", which no rule recognises, as`}, true},
		{"golden missing", []string{"replay", corpusFile("rm-i.cast"), "--golden", "nope.jsonl"}, 1, nil, []string{"--golden: open nope.jsonl"}, false},
		{"bad allow", []string{"replay", corpusFile("rm-i.cast"), "--allow", "everything"}, 2, nil, []string{"--allow"}, false},
		{"bad approve", []string{"replay", corpusFile("rm-i.cast"), "--approve", "x"}, 2, nil, []string{"--approve"}, false},
		{"bad screen", []string{"replay", corpusFile("rm-i.cast"), "--screen", "soon"}, 2, nil, []string{"seconds"}, false},
		{"bad file", []string{"replay", bad}, 1, nil, []string{"asciicast line 3"}, false},
		{"missing file", []string{"replay", "nope.cast"}, 1, nil, []string{"nope.cast"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, "", tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, stderr)
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if tt.wantStream {
				streamTypes(t, stdout) // fails on any docs/protocol.md violation
			}
		})
	}
}

// TestGuessProvider picks the profile from the recorded command.
func TestGuessProvider(t *testing.T) {
	for cmd, want := range map[string]string{
		"gh copilot suggest -t shell x": "gh-copilot",
		"yume-demo suggest":             "gh-copilot",
		"/usr/bin/git add -p":           "generic",
		"":                              "generic",
	} {
		if got := guessProvider(cmd); got != want {
			t.Errorf("guessProvider(%q) = %q, want %q", cmd, got, want)
		}
	}
}
