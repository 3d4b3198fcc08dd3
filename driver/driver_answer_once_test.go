//go:build unix

package driver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
)

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
