//go:build unix

package driver_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/internal/dialoggen"
	"github.com/yume-cli/yume-cli/permission"
)

// TestDriveShapes drives an agent nobody taught yume-cli: keytui's shape
// layout draws a dialog of a shape no agent drew yet (internal/dialoggen,
// from a seed: keys of their own, a pointer whatever the words, a colour
// alone; the command on a "$" row, an arrow or labelled row, a call's
// form, a box, wrapped or cut short), after taking its prompt only in
// its input box when the case says so. With the generic profile alone:
// the prompt is typed into the box, the question is one Bash tool_use of
// the exact command (or the shown part, said to be cut and flagged), an
// approved command runs and its output is the tool_result (or the result
// says the program never drew it), a denied one never runs. The seed is
// logged; YUME_SHAPES_SEED repeats it, YUME_SHAPES_N sets the count.
func TestDriveShapes(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("YUME_SHAPES_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	n := 8
	if s := os.Getenv("YUME_SHAPES_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	t.Logf("seed %d (YUME_SHAPES_SEED=%d repeats it), %d cases", seed, seed, n)
	r := rand.New(rand.NewPCG(seed, 3))
	prof, err := heuristics.LoadProfile("generic")
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		c := shapeCase{seed: r.Uint64(), approve: r.IntN(2) == 0, box: r.IntN(2) == 0}
		t.Run(fmt.Sprintf("%02d-%d", i, c.seed), func(t *testing.T) {
			c.run(t, prof)
		})
	}
}

// shapeCase is one generated agent: its dialog's seed, the GUI's answer,
// and whether it takes its prompt only in its input box.
type shapeCase struct {
	seed         uint64
	approve, box bool
}

func (c shapeCase) run(t *testing.T, prof *heuristics.Profile) {
	dir := t.TempDir()
	g := dialoggen.Generate(rand.New(rand.NewPCG(c.seed, 2)), dialoggen.Options{Runnable: true, Cols: 100})
	promptLog := filepath.Join(dir, "prompt")
	flags := []string{"-layout", "shape", "-seed", strconv.FormatUint(c.seed, 10), "-prompt-log", promptLog}
	if c.box {
		flags = append(flags, "-box")
	}
	tweak := func(cfg *driver.Config) {
		cfg.Prompt, cfg.TypePrompt, cfg.IdleTimeout = "make the file", c.box, time.Second
	}
	run := driveWith(t, dir, prof, permission.Default, func(int, toolUse) bool { return c.approve }, nil, nil, tweak, keytuiArgv(flags...)...)
	if run.err != nil {
		t.Fatal(run.err)
	}
	defer func() {
		if t.Failed() {
			t.Logf("case: %+v\nshape (cols %d, frame %q, highlight %q, output %q):\n%s", c, g.Cols, g.Frame, g.Highlight, g.Output, g.Render(g.First))
			if os.Getenv("YUME_SHAPES_TRACE") != "" {
				t.Logf("trace:\n%s", run.trace)
			}
		}
	}()
	if c.box {
		if typed, _ := os.ReadFile(promptLog); string(typed) != "make the file" {
			t.Errorf("the agent read %q in its input box, want the prompt", typed)
		}
	}
	if len(run.uses) != 1 || run.uses[0].Name != "Bash" {
		t.Fatalf("tool_uses %+v, want one Bash", run.uses)
	}
	u := run.uses[0]
	if u.Command != g.Command {
		t.Errorf("command %q, want %q", u.Command, g.Command)
	}
	if _, flagged := u.Input["dangerous"]; g.Cut != flagged || g.Cut && !strings.Contains(u.Desc, "cut short") {
		t.Errorf("cut %v, but flagged %v and description %q", g.Cut, flagged, u.Desc)
	}
	made := exists(filepath.Join(dir, "made.txt"))
	if made != c.approve {
		t.Errorf("the command ran = %v, want %v", made, c.approve)
	}
	out := run.results[u.ID].str("content")
	switch want := printed(t, g.Full()); {
	case !c.approve:
	case g.Output == "none" && !strings.Contains(out, "did not show this command's output"):
		t.Errorf("tool_result %q: the agent never drew the output, and the result should say so", out)
	case g.Output != "none" && out != want:
		t.Errorf("tool_result %q, want the command's output %q", out, want)
	}
}

// printed is what command prints, run in a scratch folder.
func printed(t *testing.T, command string) string {
	t.Helper()
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	return strings.TrimRight(string(out), "\n")
}
