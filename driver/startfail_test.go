//go:build unix

package driver_test

import (
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
)

// TestDriveFailedStartInItsWords: a program that exits at once ends the
// turn with an error, and a system error, in its own words: its exit
// status, its last lines on the screen (a complaint above a usage longer
// than the screen too, from what scrolled off), and what to do; the login
// note of a first run only where the words leave room for it. What
// scrolled off is kept only while the program starts: a complaint
// followed by more lines than a start prints is not quoted.
func TestDriveFailedStartInItsWords(t *testing.T) {
	prof, err := heuristics.LoadProfile("generic")
	if err != nil {
		t.Fatal(err)
	}
	const note = "Before x can work: no credentials found; to log in, run `x login`."
	cases := []struct {
		name   string
		script string
		want   []string
		not    []string
	}{
		{"a flag it does not take", `echo "error: unknown option '--foo'" >&2; exit 2`,
			[]string{"sh exited with status 2. Its last words on its screen:\n\n    error: unknown option '--foo'\n", "rejected its command line", "`yume-cli doctor`"}, []string{note}},
		{"a complaint above a long usage", `echo "Unknown arguments: foo"; i=0; while [ $i -lt 60 ]; do echo "  --opt-$i  an option  [boolean]"; i=$((i+1)); done; exit 1`,
			[]string{"status 1", "    Unknown arguments: foo\n    …\n", "--opt-59", "rejected its command line"}, []string{"--opt-40 ", note}},
		{"a complaint above a usage longer than 100 rows", `echo "Unknown arguments: foo"; i=0; while [ $i -lt 150 ]; do echo "  --opt-$i  an option  [boolean]"; i=$((i+1)); done; exit 1`,
			[]string{"status 1", "    Unknown arguments: foo\n    …\n", "--opt-149", "rejected its command line"}, []string{note}},
		{"no login", `echo "Please set an Auth method in your settings.json, or set GEMINI_API_KEY"; exit 1`,
			[]string{"status 1", "Please set an Auth method", note}, []string{"rejected"}},
		{"nothing", `exit 3`, []string{"sh exited with status 3 and printed nothing. " + note}, nil},
		{"killed", `kill -SEGV $$`, []string{"sh was killed by SIGSEGV"}, nil},
		{"more than a start prints", `echo "error: early"; i=0; while [ $i -lt 600 ]; do echo "line $i"; i=$((i+1)); done; exit 1`,
			[]string{"status 1", "line 599"}, []string{"error: early"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			r := driveWith(t, dir, prof, permission.Default, nil, nil, nil,
				func(cfg *driver.Config) { cfg.FirstRun = func(string) string { return note } }, "sh", "-c", c.script)
			if r.err != nil {
				t.Fatal(r.err)
			}
			res := r.result(t)
			msg := res.str("result")
			if res["is_error"] != true {
				t.Errorf("result %q is not an error", msg)
			}
			var sysErr string
			for _, e := range r.events {
				if e.str("type") == "system" && e.str("subtype") == "error" {
					sysErr += e.str("message")
				}
			}
			if sysErr != msg {
				t.Errorf("the system error %q is not the result %q", sysErr, msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("result %q\nwant it to say %q", msg, w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(msg, n) {
					t.Errorf("result %q says %q", msg, n)
				}
			}
		})
	}
}
