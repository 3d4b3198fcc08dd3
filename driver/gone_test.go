//go:build unix

package driver_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/internal/leakcheck"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// TestNothingApprovedOnceTheGUIIsGone: auto mode approves a question at
// once, but not once the GUI has gone (the writer says so before the
// watch ended the session): the call is denied with no key typed, and the
// session ends with the program stopped. With the GUI there, the same
// question is approved.
func TestNothingApprovedOnceTheGUIIsGone(t *testing.T) {
	prof, err := heuristics.LoadProfile("generic")
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []bool{false, true} {
		t.Run(fmt.Sprint("gone=", gone), func(t *testing.T) {
			leakcheck.Check(t)
			dir := t.TempDir()
			argv := []string{"sh", "-c", `printf 'Keep going? (y/n) '; read a; [ "$a" = y ] && touch approved; echo done`}
			proc, err := ptyhost.Start(ptyhost.Options{Argv: argv, Dir: dir, Env: testEnv(), Cols: 80, Rows: 24})
			if err != nil {
				t.Fatal(err)
			}
			defer proc.Close()
			var out bytes.Buffer
			w := emit.NewWriter(&out, emit.Config{GUIGone: func() bool { return gone }})
			if err := w.Init(string(permission.Auto), []string{"Bash"}); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
			defer cancel()
			outcome, _ := driver.Drive(ctx, driver.Config{Term: proc, Profile: prof, Out: w, Mode: permission.Auto,
				CommandLine: strings.Join(argv, " "), Cols: 80, Rows: 24})
			if ctx.Err() != nil {
				t.Fatalf("the session did not end within %v", testTimeout)
			}
			_, err = os.Stat(filepath.Join(dir, "approved"))
			if approved := err == nil; approved == gone {
				t.Errorf("approved %v with the GUI gone %v; stdout:\n%s", approved, gone, out.String())
			}
			if gone != strings.Contains(out.String(), permission.GUIGone) || gone != outcome.Interrupted {
				t.Errorf("GUI gone %v: interrupted %v; stdout:\n%s", gone, outcome.Interrupted, out.String())
			}
			select {
			case <-proc.Done():
			default:
				t.Errorf("the program still runs after the session ended")
			}
		})
	}
}
