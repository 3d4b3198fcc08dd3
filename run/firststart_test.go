//go:build unix

package run

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// TestGuessedStart: a program started with flags guessed for its release
// that rejects them (printing plain or coloured text, then exiting) is
// started again with the flags of its own --help, and none of the first
// attempt reaches the reader; one that takes them, or that fails with its
// own flags too, is read as it is; plain text printed before the program
// draws is handed over once its --help confirms the guess, without more
// output. A program that draws at once is not probed before the first
// key of its first question's answer.
func TestGuessedStart(t *testing.T) {
	cases := []struct {
		name string
		// run is the program, after its --version and --help: $1 is the
		// flag it was given.
		run   string
		guess string // the flag guessed; --old is the one its --help gives
		want  string // what the reader gets, in order
		not   string // what it must not get
		code  int
	}{
		{"wrong guess, plain error", `if [ "$1" != --old ]; then echo "error: unknown option '$1'"; printf '\033[?25h'; exit 2; fi; printf '\033[?25lstarted with %s\n' "$1"`,
			"--new", "started with --old", "unknown option", 0},
		{"wrong guess, coloured error", `if [ "$1" != --old ]; then printf '\033[31merror:\033[0m unexpected argument\n'; exit 2; fi; printf '\033[2Jstarted with %s\n' "$1"`,
			"--new", "started with --old", "unexpected argument", 0},
		{"right guess", `printf '\033[?25lstarted with %s\n' "$1"`, "--old", "started with --old", "", 0},
		{"drew, then failed", `printf '\033[?1049hbusy\n'; exit 3`, "--new", "busy", "", 3},
		{"fails with its own flags too", `echo "cannot start: $1"; exit 4`, "--old", "cannot start: --old", "", 4},
		{"plain text, then waits", `echo "plain before drawing"; sleep 2; printf '\033[?25ldone\n'`, "--old", "plain before drawing", "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("YUME_HOME", t.TempDir())
			bin := filepath.Join(t.TempDir(), "cli")
			script := "#!/bin/sh\ncase \"$1\" in --version) echo 'cli 1.2.3'; exit 0;; --help) echo '  --old  the flag'; exit 0;; esac\n" + c.run + "\n"
			if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			start := func(argv []string, cols, rows int) (*ptyhost.Process, error) {
				return ptyhost.Start(ptyhost.Options{Argv: argv, Cols: cols, Rows: rows})
			}
			argv := []string{bin, c.guess}
			first, err := start(argv, 80, 24)
			if err != nil {
				t.Fatal(err)
			}
			probe := providers.LaterProbe(context.Background(), bin)
			g := newGuessedStart(first, argv, 80, 24, probe)
			restarts := 0
			g.argvFor = func(help string) ([]string, bool) {
				if strings.Contains(help, "--old") {
					return []string{bin, "--old"}, true
				}
				return nil, false
			}
			g.start = func(argv []string, cols, rows int) (*ptyhost.Process, error) {
				restarts++
				return start(argv, cols, rows)
			}
			defer g.Close()
			var got strings.Builder
			deadline := time.AfterFunc(20*time.Second, func() { _ = g.Close() })
			defer deadline.Stop()
			for {
				data, _, err := g.ReadChunk()
				got.Write(data)
				if strings.Contains(c.name, "waits") && strings.Contains(got.String(), c.want) {
					break // handed over before the program drew
				}
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if !strings.Contains(got.String(), c.want) || c.not != "" && strings.Contains(got.String(), c.not) {
				t.Errorf("read %q; want %q and not %q", got.String(), c.want, c.not)
			}
			if wantRestarts := map[bool]int{true: 1, false: 0}[c.not != ""]; restarts != wantRestarts {
				t.Errorf("started again %d times, want %d", restarts, wantRestarts)
			}
			if strings.Contains(c.name, "waits") {
				return
			}
			if c.name == "right guess" {
				if probe.Started() {
					t.Error("the probe started while the program started with the right flags; it waits for the program's first question")
				}
				g.Mark("question 1: x")
				if probe.Started() {
					t.Error("the probe started as the question was asked; it waits for the answer's first key")
				}
				if _, err := g.Write([]byte("y")); err != nil {
					t.Fatal(err)
				}
				if !probe.Started() {
					t.Error("the answer's first key went, and the probe did not start")
				}
				if _, err := probe.Wait(context.Background()); err != nil {
					t.Errorf("the probe after the first answer: %v", err)
				}
			}
			select {
			case <-g.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("Done not closed after the program that ran last exited")
			}
			if st, err := g.Wait(); err != nil || st.Code != c.code {
				t.Errorf("Wait = %v, %v; want code %d", st, err, c.code)
			}
		})
	}
}

func TestDraws(t *testing.T) {
	for in, want := range map[string]bool{
		"plain text\r\n":                 false,
		"\x1b[31merror:\x1b[0m bad\n":    false,
		"\x1b[1;38;5;196mx\x1b[m":        false,
		"\x1b[?25l":                      true,
		"text \x1b[2J":                   true,
		"\x1b]11;?\x07":                  true,
		"\x1b[31":                        true, // cut off: it may be anything
		"\x1b":                           true,
		"\x1b[0m then \x1b[6n for reply": true,
		"error: bad choice\r\n\x1b[?25h": false, // Node shows the cursor as it exits
		"\x1b[?1049l\x1b[?2004l\x1b[<u":  false,
		"\x1b[?1;25l":                    true,
		"\x1b[?1049h":                    true,
		"\x1b[?2004h":                    true,
		"\x1b[>4;1m":                     false,
	} {
		if got := draws([]byte(in)); got != want {
			t.Errorf("draws(%q) = %v, want %v", in, got, want)
		}
	}
}
