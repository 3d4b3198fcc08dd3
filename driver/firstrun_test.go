//go:build unix

package driver_test

import (
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
)

// TestDriveFailFirstRun: a fail rule's error names the folder (through its
// hint's {cwd}, or after the screen's words when the hint does not) and
// carries what the FirstRun hook adds for that screen, which the hook is
// told by the rule's name.
func TestDriveFailFirstRun(t *testing.T) {
	prof, err := heuristics.ParseProfile("first.yaml", []byte(`name: first
description: first-run screens
rules:
  - name: folder-trust
    match: '(?m)^(?P<text>Do you trust the files in this folder\?)'
    kind: fail
    hint: 'trust the folder {cwd}: run the program in it once and answer yes'
  - name: login
    match: '(?m)^(?P<text>Please log in)'
    kind: fail
    hint: 'log in: run the program and /login'
`))
	if err != nil {
		t.Fatal(err)
	}
	note := func(screen string) string {
		if screen == "login" {
			return "" // the login screen says it already
		}
		return "Also, no credentials found; to log in, run `x login`."
	}
	cases := []struct {
		name, screen string
		rule         string // the screen the hook is asked about
		hook         func(string) string
		want         []string // {dir} is the folder
		not          []string
	}{
		{"trust, not logged in", "Do you trust the files in this folder?", "folder-trust", note,
			[]string{`first shows "Do you trust the files in this folder?", which yume-cli cannot answer: trust the folder {dir}: run`,
				"answer yes. Also, no credentials found; to log in, run `x login`."}, nil},
		{"login: the folder after its words", "Please log in", "login", note,
			[]string{`first shows "Please log in" in {dir}, which yume-cli cannot answer: log in: run the program and /login`}, []string{"Also"}},
		{"no hook", "Do you trust the files in this folder?", "", nil,
			[]string{"trust the folder {dir}: run the program in it once and answer yes"}, []string{"Also"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			var asked []string
			hook := c.hook
			if hook != nil {
				hook = func(screen string) string { asked = append(asked, screen); return c.hook(screen) }
			}
			r := driveWith(t, dir, prof, permission.Default, nil, nil, nil, func(cfg *driver.Config) { cfg.Cwd, cfg.FirstRun = dir, hook },
				"sh", "-c", `printf '%s\n' "$0"; read a`, c.screen)
			if r.err != nil {
				t.Fatal(r.err)
			}
			res := r.result(t)
			msg := res.str("result")
			if res["is_error"] != true {
				t.Errorf("result %q is not an error", msg)
			}
			for _, w := range c.want {
				if w = strings.ReplaceAll(w, "{dir}", dir); !strings.Contains(msg, w) {
					t.Errorf("result %q\nwant it to say %q", msg, w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(msg, n) {
					t.Errorf("result %q says %q", msg, n)
				}
			}
			if c.hook != nil && (len(asked) != 1 || asked[0] != c.rule) {
				t.Errorf("the hook was asked about %q, want [%s]", asked, c.rule)
			}
		})
	}
}
