package suggest

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/replay"
)

// people holds recordings of a person answering real programs (see its
// README.md).
const people = "../../recordings/testdata/people"

func loadCast(t *testing.T, name string) *recordings.Cast {
	t.Helper()
	f, err := os.Open(filepath.Join(people, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := recordings.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// answerFlag answers replay questions as an --approve value does.
func answerFlag(s string) func(int, *heuristics.Detection) permission.Answer {
	yes := map[int]bool{}
	for _, f := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(f); err == nil {
			yes[n] = true
		}
	}
	return func(n int, _ *heuristics.Detection) permission.Answer {
		return permission.Answer{Allow: s == "all" || yes[n]}
	}
}

// replayWith replays c over the generic profile with the suggested one on
// top, answering as the suggestion says the person did; the trace is
// logged if the test fails.
func replayWith(t *testing.T, c *recordings.Cast, over *heuristics.Profile, approve string) replay.Result {
	t.Helper()
	generic, err := heuristics.LoadProfile("generic")
	if err != nil {
		t.Fatal(err)
	}
	var trace bytes.Buffer
	res := replay.Run(context.Background(), c, replay.Options{
		Profile: generic.Merge(over), Out: emit.NewWriter(io.Discard, emit.Config{}),
		Answer: answerFlag(approve), Trace: &trace,
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("replay trace:\n%s", trace.String())
		}
	})
	return res
}

type wantRule struct {
	name           string
	kind           heuristics.Kind
	approve, deny  string
	cursorEnd      bool
	promptContains string
}

// TestSuggestReplaysItsOwnRecording is the command's promise: from a
// recording of a person, a profile that parses and, unedited, answers the
// recording's questions with the recording's keys. gdb's "(y or n)" and
// npm init's "Is this OK? (yes)" are questions the embedded generic profile
// does not answer.
func TestSuggestReplaysItsOwnRecording(t *testing.T) {
	cases := []struct {
		cast    string
		name    string
		rules   int
		approve string
		want    []wantRule // checked by name; others are not
		// replayLimit: a known limit of the replay, not of the profile; a
		// mismatch skips the replay check with this reason.
		replayLimit string
	}{
		{cast: "gdb-quit-yes.cast", name: "gdb", rules: 2, approve: "all", want: []wantRule{
			{name: "gdb", kind: heuristics.KindInput, approve: "quit<Enter>", deny: "<C-c>", cursorEnd: true, promptContains: `^(?P<prompt>\(gdb\))$`},
			{name: "quit-anyway", kind: heuristics.KindConfirm, approve: "y<Enter>", deny: "n<Enter>", cursorEnd: true, promptContains: `Quit anyway\? \(y or n\)`},
		}},
		{cast: "npm-init-ok-enter.cast", name: "npm-init", rules: 11, approve: "all", want: []wantRule{
			{name: "package-name", kind: heuristics.KindInput, approve: "<Enter>", deny: "<C-c>", cursorEnd: true, promptContains: `package name: \([^)\n]*\)`},
			{name: "version", kind: heuristics.KindInput, approve: "<Enter>", cursorEnd: true},
			{name: "is-this-ok", kind: heuristics.KindConfirm, approve: "<Enter>", deny: "no<Enter>", cursorEnd: true, promptContains: `Is this OK\? \(yes\)`},
		}},
		{cast: "npm-init-ok-no.cast", name: "npm-init", rules: 11, approve: "none", want: []wantRule{
			{name: "is-this-ok", kind: heuristics.KindConfirm, approve: "yes<Enter>", deny: "no<Enter>", cursorEnd: true},
		}},
		{cast: "ssh-keygen-overwrite-yes.cast", name: "ssh-keygen", rules: 1, approve: "all", want: []wantRule{
			{name: "overwrite", kind: heuristics.KindConfirm, approve: "y<Enter>", deny: "n<Enter>", cursorEnd: true, promptContains: `(?P<context>.+? already exists\.)`},
		}},
		{cast: "ssh-keygen-overwrite-no.cast", name: "ssh-keygen", rules: 1, approve: "none", want: []wantRule{
			{name: "overwrite", kind: heuristics.KindConfirm, approve: "y<Enter>", deny: "n<Enter>", cursorEnd: true},
		}},
		{cast: "git-clean-i-one.cast", name: "git-clean", rules: 1, approve: "all", want: []wantRule{
			{name: "what-now", kind: heuristics.KindMenu, approve: "1<Enter>", deny: "5<Enter>", cursorEnd: true},
		}},
		{cast: "git-clean-i-c.cast", name: "git-clean", rules: 1, approve: "all", want: []wantRule{
			{name: "what-now", kind: heuristics.KindMenu, approve: "c<Enter>", deny: "5<Enter>", cursorEnd: true},
		}},
		{cast: "apt-continue-enter.cast", name: "apt-install", rules: 1, approve: "all", want: []wantRule{
			{name: "do-you-want-to-continue", kind: heuristics.KindConfirm, approve: "<Enter>", deny: "n<Enter>", cursorEnd: true},
		}},
		{cast: "apt-continue-no.cast", name: "apt-install", rules: 1, approve: "none", want: []wantRule{
			{name: "do-you-want-to-continue", kind: heuristics.KindConfirm, approve: "y<Enter>", deny: "n<Enter>", cursorEnd: true},
		}},
		{cast: "press-enter.cast", name: "press-enter", rules: 1, approve: "all", want: []wantRule{
			{name: "press-enter-to-continue", kind: heuristics.KindInput, approve: "<Enter>", cursorEnd: true},
		}},
		{cast: "inquirer-run-enter.cast", name: "run-command", rules: 2, approve: "all", want: []wantRule{
			{name: "run-this-command", kind: heuristics.KindConfirm, approve: "<Enter>", deny: "n<Enter>", cursorEnd: true},
			{name: "how-should-it-run", kind: heuristics.KindMenu, approve: "dr<Enter>", deny: "<C-c>", promptContains: `(?P<option>In the foreground)`},
		}, replayLimit: "the replay fires the generic arrow-menu rule on the screens the person's filter keys drew after the suggested rule typed them all"},
		{cast: "inquirer-run-y.cast", name: "run-command", rules: 2, approve: "all", want: []wantRule{
			{name: "run-this-command", kind: heuristics.KindConfirm, approve: "y<Enter>", deny: "n<Enter>", cursorEnd: true},
			{name: "how-should-it-run", kind: heuristics.KindMenu, approve: "in the b<Enter>", deny: "<C-c>"},
		}, replayLimit: "the driver types an answer again when its question still shows 400ms later, and filtering a menu leaves it showing"},
	}
	for _, tc := range cases {
		t.Run(strings.TrimSuffix(tc.cast, ".cast"), func(t *testing.T) {
			c := loadCast(t, tc.cast)
			s, err := FromCast(c, Options{File: tc.cast})
			if err != nil {
				t.Fatal(err)
			}
			data := s.YAML()
			prof, err := heuristics.ParseProfile(tc.cast+".yaml", data)
			if err != nil {
				t.Fatalf("the suggestion does not parse: %v\n%s", err, data)
			}
			if prof.Name != tc.name || len(prof.Rules) != tc.rules {
				t.Errorf("profile %s with %d rules; want %s with %d\n%s", prof.Name, len(prof.Rules), tc.name, tc.rules, data)
			}
			if got := s.ApproveFlag(); got != tc.approve {
				t.Errorf("ApproveFlag() = %q; want %q", got, tc.approve)
			}
			if !bytes.Contains(data, []byte("suggested")) || !bytes.Contains(data, []byte("REVIEW")) {
				t.Errorf("the header does not say the profile is suggested and must be reviewed:\n%s", data)
			}
			for _, w := range tc.want {
				r := ruleNamed(prof, w.name)
				if r == nil {
					t.Errorf("no rule %q in\n%s", w.name, data)
					continue
				}
				if r.Kind != w.kind || r.Approve.String() != w.approve || w.deny != "" && r.Deny.String() != w.deny ||
					(r.Cursor == heuristics.CursorEnd) != w.cursorEnd || !strings.Contains(r.Match.String(), w.promptContains) {
					t.Errorf("rule %s: kind %s approve %s deny %s cursor %q match %s; want kind %s approve %s deny %s cursor end %v, match containing %s",
						w.name, r.Kind, r.Approve, r.Deny, r.Cursor, r.Match, w.kind, w.approve, w.deny, w.cursorEnd, w.promptContains)
				}
			}
			res := replayWith(t, c, prof, s.ApproveFlag())
			if len(res.Mismatches) > 0 && tc.replayLimit != "" {
				t.Skipf("known replay limit (%s): %v", tc.replayLimit, &res.Mismatches[0])
			}
			for _, m := range res.Mismatches {
				t.Errorf("keys differ: %v", &m)
			}
			if res.Err != nil {
				t.Errorf("replay: %v", res.Err)
			}
			if res.Pending != "" {
				t.Errorf("recorded input %q was never typed", res.Pending)
			}
			if t.Failed() {
				t.Logf("suggested profile:\n%s", data)
			}
		})
	}
}

func ruleNamed(p *heuristics.Profile, name string) *heuristics.Rule {
	for _, r := range p.Rules {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// A recording whose question is answered twice, yes then no, makes one
// confirm rule with both keys, and the replay numbers the answers.
func TestSuggestJoinsAnswersToOneQuestion(t *testing.T) {
	c := &recordings.Cast{Header: recordings.Header{Version: 2, Width: 40, Height: 6, Command: "./ask"}}
	add := func(sec float64, code byte, data string) {
		c.Events = append(c.Events, recordings.Event{Time: secs(sec), Code: code, Data: data})
	}
	add(0.1, recordings.CodeOutput, "Delete 'a.txt'? [y/N] ")
	add(0.5, recordings.CodeInput, "y")
	add(0.5, recordings.CodeOutput, "y")
	add(0.6, recordings.CodeInput, "\r")
	add(0.6, recordings.CodeOutput, "\r\ndeleted\r\nDelete 'b.txt'? [y/N] ")
	add(1.0, recordings.CodeInput, "\r")
	add(1.0, recordings.CodeOutput, "\r\nkept\r\n")
	add(1.1, recordings.CodeExit, "0")
	s, err := FromCast(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	prof, err := heuristics.ParseProfile("ask.yaml", s.YAML())
	if err != nil {
		t.Fatalf("%v\n%s", err, s.YAML())
	}
	if len(prof.Rules) != 1 {
		t.Fatalf("%d rules; want 1\n%s", len(prof.Rules), s.YAML())
	}
	r := prof.Rules[0]
	if r.Name != "delete" || r.Kind != heuristics.KindConfirm || r.Approve.String() != "y<Enter>" || r.Deny.String() != "<Enter>" {
		t.Errorf("rule %s %s approve %s deny %s; want delete confirm approve y<Enter> deny <Enter>\n%s", r.Name, r.Kind, r.Approve, r.Deny, s.YAML())
	}
	if want := `(?m)^(?P<prompt>Delete '.+?'\? \[y/N\])$` + `\n*\z`; r.Match.String() != want {
		t.Errorf("match %s; want %s", r.Match, want)
	}
	if got := s.ApproveFlag(); got != "1" {
		t.Errorf("ApproveFlag() = %q; want 1 (question 2 was denied)", got)
	}
	res := replayWith(t, c, prof, s.ApproveFlag())
	for _, m := range res.Mismatches {
		t.Errorf("keys differ: %v", &m)
	}
}

// Ctrl-C is leaving, not an answer: it makes no rule, and the header says so.
func TestSuggestSkipsLeaving(t *testing.T) {
	c := &recordings.Cast{Header: recordings.Header{Version: 2, Width: 40, Height: 6, Command: "cat"}, Events: []recordings.Event{
		{Time: secs(0.1), Code: recordings.CodeOutput, Data: "Name: "},
		{Time: secs(0.4), Code: recordings.CodeInput, Data: "bob\x03"},
	}}
	s, err := FromCast(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Answers) != 2 || s.Answers[0].Keys != "bob" || s.Answers[1].Rule != nil || !strings.Contains(s.Answers[1].Skipped, "leave") {
		t.Errorf("answers %+v %+v; want bob, then <C-c> skipped", s.Answers[0], s.Answers[len(s.Answers)-1])
	}
	if !bytes.Contains(s.YAML(), []byte("# No rule for the answer at 0.40s ('<C-c>')")) {
		t.Errorf("the header does not list the skipped answer:\n%s", s.YAML())
	}
}

func secs(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }

func TestGeneralise(t *testing.T) {
	for _, tc := range []struct {
		row      string
		question bool
		want     string
	}{
		{"Overwrite (y/n)?", true, `Overwrite \(y/n\)\?`},
		{"Quit anyway? (y or n)", true, `Quit anyway\? \(y or n\)`},
		{"Is this OK? (yes)", true, `Is this OK\? \(yes\)`},
		{"Do you want to continue? [Y/n]", true, `Do you want to continue\? \[Y/n\]`},
		{"package name: (demo)", true, `package name: \([^)\n]*\)`},
		{"version: (1.0.0)", false, `version: \(\d+\.\d+\.\d+\)`},
		{"demo_key already exists.", false, `.+? already exists\.`},
		{"rm: remove regular file 'a b.txt'?", true, `rm: remove regular file '.+?'\?`},
		{"Inferior 1 [process 10824] will be killed.", false, `Inferior \d+ \[process \d+\] will be killed\.`},
		{"0x00007ffff7fe4b70 in _start () from /lib64/ld.so.2", false, `0x[0-9a-fA-F]+ in _start \(\) from .+?`},
		{"Write to build/out.txt?", true, `Write to .+?\?`},
		{"(1/2) Stage this hunk [y,n,q,a,d,e,?]?", true, `\(\d+/\d+\) Stage this hunk \[y,n,[^\]\n]*\]\?`},
		{"    1: clean        2: quit", false, ` *\d+: clean +\d+: quit`},
		{"Continue with index.js?", true, `Continue with .+?\?`},
	} {
		if got := generalise(tc.row, tc.question); got != tc.want {
			t.Errorf("generalise(%q) = %s; want %s", tc.row, got, tc.want)
		}
	}
}

func TestKeyNotation(t *testing.T) {
	for in, want := range map[string]string{
		"y\r":                  "y<Enter>",
		"\r":                   "<Enter>",
		"\x1b[B\x1b[B\r":       "<Down><Down><Enter>",
		"\x1bOA\r":             "<Up><Enter>",
		"a<b\t":                "a<lt>b<Tab>",
		"\x03":                 "<C-c>",
		"ab\x7f\x7fc":          "ab<BS><BS>c",
		"\x1b":                 "<Esc>",
		"héllo wörld\r":        "héllo wörld<Enter>",
		"\x1b[3~\x1b[5~\x1b[Z": "<Del><PgUp><S-Tab>",
	} {
		got, err := heuristics.KeyNotation([]byte(in))
		if err != nil || got != want {
			t.Errorf("KeyNotation(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := heuristics.KeyNotation([]byte("\x1b[1;5C")); err == nil {
		t.Error("an escape sequence without a key name was written")
	}
}

func TestNames(t *testing.T) {
	for q, want := range map[string]string{
		"Overwrite (y/n)?":               "overwrite",
		"Quit anyway? (y or n)":          "quit-anyway",
		"(gdb)":                          "gdb",
		"package name: (demo)":           "package-name",
		"Do you want to continue? [Y/n]": "do-you-want-to-continue",
		"(1/2) Stage this hunk [y,n,q]?": "stage-this-hunk",
		"#?":                             "",
	} {
		if got := ruleName(q); got != want {
			t.Errorf("ruleName(%q) = %q; want %q", q, got, want)
		}
	}
	for cmd, want := range map[string][]string{
		"gdb":         {"gdb", "-q", "/bin/true"},
		"npm-init":    {"npm", "init"},
		"git-clean":   {"git", "clean", "-i"},
		"ssh-keygen":  {"ssh-keygen", "-f", "k"},
		"apt-install": {"sh", "scripts/apt-install.sh"},
		"run-command": {"node", "run-command.mjs"},
		"suggested":   nil,
	} {
		if got := nameFromCommand(want); got != cmd {
			t.Errorf("nameFromCommand(%q) = %q; want %q", want, got, cmd)
		}
	}
}

func TestOpposite(t *testing.T) {
	for _, tc := range []struct {
		q, typed      string
		yes           bool
		opposite      string
		defaultAnswer int
	}{
		{"Overwrite (y/n)?", "y", true, "n<Enter>", 0},
		{"Proceed? (yes/no)", "yes", true, "no<Enter>", 0},
		{"Is this OK? (yes)", "", true, "no<Enter>", 1},
		{"Continue? [Y/n]", "", true, "n<Enter>", 1},
		{"Delete? [y/N]", "", false, "y<Enter>", -1},
		{"Is this OK? (yes)", "no", false, "yes<Enter>", 1},
		{"Go on? (Y/N)", "N", false, "Y<Enter>", 0},
	} {
		q := &question{prompt: tc.q, defaultYes: defaultAnswer(tc.q)}
		if q.defaultYes != tc.defaultAnswer {
			t.Errorf("defaultAnswer(%q) = %d; want %d", tc.q, q.defaultYes, tc.defaultAnswer)
		}
		if yes := answersYes(tc.typed, q); yes != tc.yes {
			t.Errorf("answersYes(%q at %q) = %v; want %v", tc.typed, tc.q, yes, tc.yes)
		}
		if got := opposite(tc.typed, tc.yes, q); got != tc.opposite {
			t.Errorf("opposite(%q at %q) = %q; want %q", tc.typed, tc.q, got, tc.opposite)
		}
	}
}
