//go:build unix

package driver_test

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// fakeTUI behaves like the AI TUIs in the ways the driver must handle: it
// draws on the alternate screen, shows a permission dialog, redraws the
// whole screen with the command's output in a block of its own, then sits
// idle until Ctrl-C is pressed twice ("press Ctrl-C again to exit"). With
// NOBLOCK set it shows no output block. Like the TUIs it reads Ctrl-C as a
// byte (no ISIG), not as SIGINT: two signals sent before a starved shell
// runs its trap arrive as one, and the program would wait for a third.
const fakeTUI = `printf '\033[?1049h\033[H\033[2J* Working...\n\nShell command\n  $ echo hi && echo there\n> 1. Yes\n'
IFS= read -r a
stty -icanon -isig -echo min 1
printf '\033[H\033[2J'
if [ "$a" = y ]; then
  [ -z "$NOBLOCK" ] && printf '* Ran echo hi && echo there\n  │ hi\n  │ there\n\n'
  printf '* Finished: said hi.\n\nIDLE\n'
else
  printf '* Cancelled.\n\nIDLE\n'
fi
n=0
ctrlc=$(printf '\003')
while c=$(dd bs=1 count=1 2>/dev/null) && [ -n "$c" ]; do
  [ "$c" = "$ctrlc" ] || continue
  n=$((n+1))
  [ "$n" -ge 2 ] && exit 0
  printf '\nPress Ctrl-C again to exit'
done
`

const fakeTUIProfile = `name: faketui
description: a stand-in for an AI TUI
quit: '<C-c>'
rules:
  - name: dialog
    match: '(?m)^Shell command\n  \$ (?P<command>.+)\n> 1\. Yes$'
    kind: menu
    approve: 'y<Enter>'
    deny: 'n<Enter>'
  - name: output
    match: '(?m)^\* Ran .*\n(?P<output>(?:  │ .*\n)+)'
    kind: result
  - name: done
    match: '(?m)^\* (?P<text>(?:Finished|Cancelled).*)\n\nIDLE$'
    kind: done
`

func TestDriveTUIResultDoneQuit(t *testing.T) {
	prof, err := heuristics.ParseProfile("faketui.yaml", []byte(fakeTUIProfile))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		noBlock bool
		approve bool
		result  string
		text    string
		answer  string
	}{
		{"approve", false, true, "hi\nthere", "Finished: said hi.", `approve "y\r"`},
		// No output block before the turn ended: say so, not the layout.
		{"approve, no output shown", true, true, "(the program showed no output for this command)", "Finished: said hi.",
			`approve "y\r"`},
		{"deny", false, false, permission.UserDenied, "Cancelled.", `deny "n\r"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			argv := []string{"sh", "-c", fakeTUI}
			if tt.noBlock {
				argv = []string{"env", "NOBLOCK=1", "sh", "-c", fakeTUI}
			}
			r := driveProfile(t, t.TempDir(), prof, permission.Default, func(int, toolUse) bool { return tt.approve }, nil, nil, argv...)
			if r.err != nil {
				t.Fatal(r.err)
			}
			if len(r.uses) != 1 || r.uses[0].Command != "echo hi && echo there" {
				t.Fatalf("tool_uses = %+v, want one for the dialog's command", r.uses)
			}
			res := r.results[r.uses[0].ID]
			if res.str("content") != tt.result || res["is_error"] != !tt.approve {
				t.Errorf("tool_result = %v, want %q (is_error %v)", res, tt.result, !tt.approve)
			}
			var texts []string
			for _, ev := range r.events {
				for _, b := range blocks(ev) {
					if ev.str("type") == "assistant" && b.str("type") == "text" {
						texts = append(texts, b.str("text"))
					}
				}
			}
			// The idle screen is evaluated again after the quit keys and
			// while the program lingers: the answer is still emitted once.
			if len(texts) != 1 || texts[0] != tt.text {
				t.Errorf("texts = %q, want [%q]", texts, tt.text)
			}
			// The program needs Ctrl-C twice; a third may go out while it
			// exits (the driver retypes on every settled screen).
			quits := 0
			for _, k := range r.keys[min(1, len(r.keys)):] {
				if k == `quit "\x03"` {
					quits++
				}
			}
			if len(r.keys) == 0 || r.keys[0] != tt.answer || quits < 2 || quits != len(r.keys)-1 {
				t.Errorf("keys = %q, want %s then Ctrl-C at least twice", r.keys, tt.answer)
			}
			res = r.result(t)
			if res["is_error"] != false || res.str("result") != tt.text || !r.outcome.Exit.Success() {
				t.Errorf("result = %v, exit %+v; want success with the answer", res, r.outcome.Exit)
			}
		})
	}
}

// fakeInputBox reports a prompt typed before its input box showed
// (EARLY:…), then echoes what the box received, escape bytes made visible.
const fakeInputBox = `printf '\033[?2004hloading...\n'
if IFS= read -r -t 0.3 early; then echo "EARLY:$early"; fi
printf 'READY> '
IFS= read -r line
printf '\ngot:%s\n' "$line" | cat -v
`

func TestDriveTypesPromptWhenReady(t *testing.T) {
	// The text rule reports what the program received.
	prof, err := heuristics.ParseProfile("box.yaml", []byte(`name: box
description: an input box
ready: '(?m)^READY>$'
rules:
  - name: echo
    match: '(?m)^(?P<text>(?:got|EARLY):.*)$'
    kind: text
`))
	if err != nil {
		t.Fatal(err)
	}
	first := []emit.Control{{Kind: emit.ControlUser, Text: "hello there"}}
	r := driveProfile(t, t.TempDir(), prof, permission.Default, nil, nil, first, "bash", "--norc", "-c", fakeInputBox)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := r.result(t).str("result"); got != "got:^[[200~hello there^[[201~" {
		t.Errorf("the program received %q, want the prompt as one bracketed paste after READY>", got)
	}
	if !contains(r.keys, `user prompt "\x1b[200~hello there\x1b[201~"`) || !contains(r.keys, `submit prompt "\r"`) {
		t.Errorf("keys = %q, want the prompt as a bracketed paste, then Enter", r.keys)
	}
}

// TestDriveTUIStopsAProgramThatWillNotQuit: a program that ignores its quit
// keys and never lets the screen settle is stopped after the grace period,
// and the turn still ends with one result: a success, its answer being
// complete, with a notice that the program had to be stopped.
func TestDriveTUIStopsAProgramThatWillNotQuit(t *testing.T) {
	prof := ctrlCProfile(t)
	script := `trap '' INT; printf '* Finished.\n'; sleep 0.3; while :; do printf '\033[2;1H%s' "$(date +%N)"; sleep 0.02; done`
	r := driveProfile(t, t.TempDir(), prof, permission.Default, nil, nil, nil, "sh", "-c", script)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if !contains(r.keys, `quit "\x03"`) {
		t.Errorf("keys = %q, want the quit keys", r.keys)
	}
	res := r.result(t)
	if res["is_error"] != false || res.str("result") != "Finished." || r.outcome.Exit.Success() {
		t.Errorf("result = %v, exit %+v; want the answer, the program stopped", res, r.outcome.Exit)
	}
	if !strings.Contains(string(r.raw), "did not exit after its quit keys; yume-cli stopped it") {
		t.Errorf("no notice that the program was stopped:\n%s", r.raw)
	}
}

// TestDriveTUIQuitByExit130: a program that leaves on its quit keys' Ctrl-C
// by exiting with status 130 (128+SIGINT, as Node and Bun programs do)
// went as it was asked: the turn is a success with its answer. So does one
// that exits with status 1 on that Ctrl-C (Cline 3.0.65 does): its turn
// was complete before the keys, and a notice says how it left. Any other
// failing status after the quit keys is still an error.
func TestDriveTUIQuitByExit130(t *testing.T) {
	prof := ctrlCProfile(t)
	for _, c := range []struct {
		code    string
		isError bool
	}{{"130", false}, {"1", false}, {"3", true}} {
		script := `trap 'exit ` + c.code + `' INT; printf '* Finished.\n'; while :; do sleep 0.05; done`
		r := driveProfile(t, t.TempDir(), prof, permission.Default, nil, nil, nil, "sh", "-c", script)
		if r.err != nil {
			t.Fatal(r.err)
		}
		res := r.result(t)
		if res["is_error"] != c.isError || res.str("result") != "Finished." || r.outcome.Exit.Code != mustAtoi(t, c.code) ||
			r.outcome.Succeeded() == c.isError { // yume-cli's own exit status follows
			t.Errorf("exit %s after the quit keys: result = %v, exit %+v; want is_error %v with the answer", c.code, res, r.outcome.Exit, c.isError)
		}
		if c.code == "1" && !strings.Contains(string(r.raw), "the program exited with status 1 after its quit keys") {
			t.Errorf("exit %s after the quit keys: no notice of it:\n%s", c.code, r.raw)
		}
	}
}

// ctrlCProfile is a TUI that says "* Finished." when its turn is done and
// is left with Ctrl-C.
func ctrlCProfile(t *testing.T) *heuristics.Profile {
	t.Helper()
	prof, err := heuristics.ParseProfile("ctrlc.yaml", []byte(`name: ctrlc
description: left with Ctrl-C
quiet_ms: 100
quit: '<C-c>'
rules:
  - name: done
    match: '(?m)^\* (?P<text>Finished\.)$'
    kind: done
`))
	if err != nil {
		t.Fatal(err)
	}
	return prof
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// resumedTUI is a TUI resumed on an old session: it shows the earlier
// turn's answer at rest first, works a moment, then answers the new prompt.
const resumedTUI = `trap 'exit 0' INT
printf '\033[?1049h\033[H\033[2J* Finished: the earlier answer.\n\nIDLE\n'
sleep 0.4
printf '\033[H\033[2J> new prompt\n* Working...\n'
sleep 0.2
printf '\033[H\033[2J> new prompt\n* Finished: the new answer.\n\nIDLE\n'
while :; do sleep 0.05; done
`

// TestDriveResumedEarlierAnswer: the earlier turns' answers a resumed
// program shows first do not end the new turn; without them known, the
// old answer would (the test's control case).
func TestDriveResumedEarlierAnswer(t *testing.T) {
	prof, err := heuristics.ParseProfile("faketui.yaml", []byte(fakeTUIProfile))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		earlier []string
		want    string
	}{
		{[]string{"**Finished:** the  earlier\nanswer."}, "Finished: the new answer."}, // as the transcript has it: markdown, breaks
		{nil, "Finished: the earlier answer."},
	} {
		proc, err := ptyhost.Start(ptyhost.Options{Argv: []string{"sh", "-c", resumedTUI}, Env: testEnv(), Cols: 80, Rows: 24})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		w := emit.NewWriter(&out, emit.Config{})
		_ = w.Init("default", []string{"Bash"})
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		_, err = driver.Drive(ctx, driver.Config{Term: proc, Profile: prof, Out: w, Mode: permission.Default,
			EarlierAnswers: c.earlier, Cols: 80, Rows: 24})
		cancel()
		proc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(out.Bytes(), []byte(`"result":"`+c.want+`"`)) {
			t.Errorf("earlier %q: want the result %q, got\n%s", c.earlier, c.want, out.String())
		}
	}
}

// TestDriveFailNamesTheFolder: a fail rule's hint names the folder the
// program runs in where it says {cwd}: "trust the folder" alone does not
// say which.
func TestDriveFailNamesTheFolder(t *testing.T) {
	prof, err := heuristics.ParseProfile("trust.yaml", []byte(`name: trust
description: a folder-trust screen
rules:
  - name: trust
    match: '(?m)^(?P<prompt>Do you trust the files in this folder\?)'
    kind: fail
    hint: 'trust the folder {cwd}: run the program in it once and answer yes'
`))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := driveWith(t, dir, prof, permission.Default, nil, nil, nil, func(c *driver.Config) { c.Cwd = dir },
		"sh", "-c", `printf 'Do you trust the files in this folder?\n'; read a`)
	if r.err != nil {
		t.Fatal(r.err)
	}
	res := r.result(t)
	if msg := res.str("result"); res["is_error"] != true || !strings.Contains(msg, "trust the folder "+dir+":") {
		t.Errorf("result %q (error %v); want an error naming %s", msg, res["is_error"], dir)
	}
}
