//go:build unix

package driver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
)

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
