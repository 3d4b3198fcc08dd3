//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The Node fixture testdata/inquirer is checked here because it shares this
// package's PTY console; Go ignores testdata directories, so it has no
// package of its own. It needs `npm ci --prefix testdata/inquirer` (CI runs
// it before the tests).

// inquirerDir returns the fixture's directory and the node binary, skipping
// the test when either is missing.
func inquirerDir(t *testing.T) (dir, node string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "inquirer"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@inquirer", "prompts")); err != nil {
		t.Skip("testdata/inquirer is not installed; run `npm ci --prefix testdata/inquirer` first")
	}
	node, err = exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH; install Node.js to test testdata/inquirer")
	}
	return dir, node
}

func TestInquirerFixture(t *testing.T) {
	dir, node := inquirerDir(t)
	// inquirer leaves the space after "(y/N)" unprinted: it moves the cursor
	// there (ESC[34G) instead.
	confirm := "? Delete build/ directory? (y/N)"
	menu := "? Which action?\n❯ Build\n  Test\n  Deploy\n\nCompile the project into build/\n↑↓ navigate • ⏎ select"
	tests := []struct {
		name  string
		steps []step
		exit  int
	}{{
		name: "approve then pick the third action",
		steps: []step{
			{want: confirm, keys: "y" + keyEnter},
			{want: "✔ Delete build/ directory? Yes\ndeleted build/\n"},
			{want: menu, keys: keyDown + keyDown + keyEnter},
			{want: "✔ Which action? Deploy\naction: deploy\n"},
		},
		exit: 0,
	}, {
		name: "enter takes the default, no",
		steps: []step{
			{want: confirm, keys: keyEnter},
			{want: "✔ Delete build/ directory? No\nkept build/\n"},
			{want: menu, keys: keyEnter},
			{want: "✔ Which action? Build\naction: build\n"},
		},
		exit: 0,
	}, {
		name: "ctrl-c exits 130",
		steps: []step{
			{want: confirm, keys: keyCtrlC},
		},
		exit: 130,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := startConsole(t, dir, node, "index.mjs")
			play(c, tt.steps)
			if got := c.wait(); got != tt.exit {
				t.Errorf("exit status = %d, want %d; output:\n%s", got, tt.exit, c.output())
			}
		})
	}
}
