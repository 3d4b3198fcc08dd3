//go:build unix

package driver_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

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
// NOBLOCK set it shows no output block.
const fakeTUI = `trap 'n=$((n+1)); [ "$n" -ge 2 ] && exit 0' INT
n=0
printf '\033[?1049h\033[H\033[2J* Working...\n\nShell command\n  $ echo hi && echo there\n> 1. Yes\n'
IFS= read -r a
printf '\033[H\033[2J'
if [ "$a" = y ]; then
  [ -z "$NOBLOCK" ] && printf '* Ran echo hi && echo there\n  │ hi\n  │ there\n\n'
  printf '* Finished: said hi.\n\nIDLE\n'
else
  printf '* Cancelled.\n\nIDLE\n'
fi
while :; do sleep 0.05; done
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
		{[]string{"**Finished:** the  earlier\nanswer."}, "Finished: the new answer."}, // as the record has it: markdown, breaks
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

// fakeDropsEnter is an input box that drops the first Enter after a
// prompt, as a TUI busy drawing the paste may (Gemini on a loaded
// machine). With "redraw" it echoes what is typed and, on the Enter it
// drops, redraws its input row as it was (as an Ink TUI does). It ends on
// a second Enter or on Ctrl-D (the profile's quit keys), and writes what
// it read to the file argv[2].
const fakeDropsEnter = `import os, sys, termios, tty
redraw = sys.argv[1] == "redraw"
old = termios.tcgetattr(0)
tty.setraw(0)
os.write(1, b"\x1b[?2004hREADY> ")
buf, enters = b"", 0
while enters < 2:
    c = os.read(0, 1)
    if c == b"\x04":
        break
    if c == b"\r":
        enters += 1
        if redraw and enters == 1:
            os.write(1, b"\r\x1b[2KREADY> " + buf.replace(b"\x1b[200~", b"").replace(b"\x1b[201~", b""))
    else:
        buf += c
        if redraw and c.isalpha():
            os.write(1, c)
termios.tcsetattr(0, termios.TCSADRAIN, old)
open(sys.argv[2], "wb").write(buf.replace(b"\x1b", b"^[") + b" enters:%d" % enters)
os.write(1, b"\r\nbye\r\n")
`

// fakeSlowDraw draws a paste 300 ms after it came (a TUI on a loaded
// machine) and, like Gemini, takes an Enter that came before it drew the
// paste as a line break in it; a later Enter submits.
const fakeSlowDraw = `import os, select, termios, time, tty
old = termios.tcgetattr(0)
tty.setraw(0)
os.write(1, b"\x1b[?2004hREADY> ")
buf = b""
while not buf.endswith(b"\x1b[201~"):
    buf += os.read(0, 1)
text = buf[len(b"\x1b[200~"):-len(b"\x1b[201~")]
time.sleep(0.3)
os.write(1, text)
breaks = 0
while select.select([0], [], [], 0)[0]:
    if os.read(0, 1) == b"\r":
        breaks += 1
while os.read(0, 1) != b"\r":
    pass
termios.tcsetattr(0, termios.TCSADRAIN, old)
os.write(1, b"\r\ngot:" + text + b" breaks:%d\r\n" % breaks)
`

// inputBox is the profile of the test input boxes: ready at "READY>",
// and what the program got is the turn's text.
func inputBox(t *testing.T) *heuristics.Profile {
	t.Helper()
	prof, err := heuristics.ParseProfile("box.yaml", []byte(`name: box
description: a test input box
ready: '(?m)^READY>'
rules:
  - name: echo
    match: '(?m)^(?P<text>got:.*)$'
    kind: text
`))
	if err != nil {
		t.Fatal(err)
	}
	return prof
}

// TestDriveEntersAfterThePromptIsDrawn: the Enter after a typed prompt
// waits until the program has drawn it.
func TestDriveEntersAfterThePromptIsDrawn(t *testing.T) {
	first := []emit.Control{{Kind: emit.ControlUser, Text: "hello"}}
	r := driveProfile(t, t.TempDir(), inputBox(t), permission.Default, nil, nil, first, "python3", "-c", fakeSlowDraw)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := r.result(t).str("result"); got != "got:hello breaks:0" {
		t.Errorf("the program received %q, want the prompt and its Enter after it was drawn", got)
	}
}

// TestDriveRetypesALostSubmit: a lost Enter is typed again only where the
// profile says its program drops keys, and only while the input row still
// holds the prompt, unchanged, after a second in which nothing moved; a
// program that does not drop keys never gets a second Enter, which would
// answer the next "[Y/n]" question.
func TestDriveRetypesALostSubmit(t *testing.T) {
	for _, c := range []struct {
		box       string
		dropsKeys bool
		want      string // what the program read
		enters    int    // Enters yume-cli typed
	}{
		{"silent", true, "^[[200~hello^[[201~ enters:2", 2},
		{"silent", false, "^[[200~hello^[[201~ enters:1", 1},
		{"redraw", true, "^[[200~hello^[[201~ enters:2", 2}, // the box still holds the prompt: Enter again
		{"redraw", false, "^[[200~hello^[[201~ enters:1", 1},
	} {
		t.Run(fmt.Sprintf("%s/drops_keys=%v", c.box, c.dropsKeys), func(t *testing.T) {
			prof, err := heuristics.ParseProfile("box.yaml", fmt.Appendf(nil, `name: box
description: a test input box that may drop the prompt's Enter
ready: '(?m)^READY>'
quit: '<C-d>'
drops_keys: %v
rules: []
`, c.dropsKeys))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			read := filepath.Join(dir, "read")
			first := []emit.Control{{Kind: emit.ControlUser, Text: "hello"}}
			idle := func(cfg *driver.Config) { cfg.IdleTimeout = 1500 * time.Millisecond }
			r := driveWith(t, dir, prof, permission.Default, nil, nil, first, idle, "python3", "-c", fakeDropsEnter, c.box, read)
			if r.err != nil {
				t.Fatal(r.err)
			}
			got, err := os.ReadFile(read)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("the program read %q, want %q", got, c.want)
			}
			if n := count(r.keys, `submit prompt "\r"`); n != c.enters {
				t.Errorf("yume-cli typed Enter %d times, want %d (keys %q)", n, c.enters, r.keys)
			}
		})
	}
}

// count is how many of list are s.
func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

// fakeDialog asks "Run ls? (y/n)" and logs every byte it reads to argv[2].
// "slow" takes the first answer and is slow to close its dialog: the
// question stays on screen while a spinner under it turns for 1.5 s (as
// Gemini CLI's dialog lingers). "drop" drops the first answer without
// drawing anything (as Claude Code drops a key while it draws) and takes a
// second one; with none in 3 s it gives up. Either then clears its dialog,
// prints what it ran and reads on for 2 s, so a key typed late is logged.
const fakeDialog = `import os, select, sys, termios, time, tty
mode, log = sys.argv[1], open(sys.argv[2], "wb")
old = termios.tcgetattr(0)
tty.setraw(0)
def read(timeout):
    if not select.select([0], [], [], timeout)[0]:
        return b""
    b = os.read(0, 64)
    log.write(b); log.flush()
    return b
os.write(1, b"Run ls? (y/n) ")
got = b""
while not got.endswith(b"\r"):
    got += read(None)
if mode == "slow":
    os.write(1, b"\r\n")
    end = time.time() + 1.5
    i = 0
    while time.time() < end:
        os.write(1, b"\r\x1b[2Kclosing " + b"|/-\\"[i % 4:i % 4 + 1])
        i += 1
        read(0.1)
    os.write(1, b"\x1b[2J\x1b[Hran ls\r\n")
else:
    second = b""
    end = time.time() + 3
    while not second.endswith(b"\r") and time.time() < end:
        second += read(max(0, end - time.time()))
    os.write(1, b"\x1b[2J\x1b[Hran ls\r\n" if second else b"\x1b[2J\x1b[Hgave up\r\n")
end = time.time() + 2
while time.time() < end:
    read(max(0, end - time.time()))
termios.tcsetattr(0, termios.TCSADRAIN, old)
`

// TestDriveTypesAnAnswerOnce: the approve keys are typed again only where
// the profile says its program drops keys, the question stayed on screen
// all along and nothing moved for a second; a dialog that is only slow to
// close (it redraws, then goes) gets them once, and so does any program
// whose profile does not say so.
func TestDriveTypesAnAnswerOnce(t *testing.T) {
	for _, c := range []struct {
		mode      string
		dropsKeys bool
		read      string // what the program read
	}{
		{"slow", true, "y\r"},
		{"slow", false, "y\r"},
		{"drop", true, "y\ry\r"},
		{"drop", false, "y\r"},
	} {
		t.Run(fmt.Sprintf("%s/drops_keys=%v", c.mode, c.dropsKeys), func(t *testing.T) {
			prof, err := heuristics.ParseProfile("dialog.yaml", fmt.Appendf(nil, `name: dialog
description: a dialog that may drop its answer or be slow to close
drops_keys: %v
rules:
  - name: run
    match: '(?m)^(?P<prompt>Run (?P<command>\S+)\? \(y/n\))'
    kind: confirm
    approve: 'y<Enter>'
    deny: 'n<Enter>'
`, c.dropsKeys))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			log := filepath.Join(dir, "read")
			r := driveProfile(t, dir, prof, permission.Default, approveAll, nil, nil, "python3", "-c", fakeDialog, c.mode, log)
			if r.err != nil {
				t.Fatal(r.err)
			}
			got, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.read {
				t.Errorf("the program read %q, want %q; keys typed %q", got, c.read, r.keys)
			}
			if len(r.uses) != 1 {
				t.Errorf("%d tool_uses, want 1", len(r.uses))
			}
		})
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
