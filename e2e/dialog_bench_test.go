package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/internal/fakemodel"
	provreg "github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/vt"
)

// BenchmarkDialogToToolUse times, for each CLI's TUI, how long after its
// permission dialog is on screen the tool_use is written, with the record
// cross-check on (the command read from the CLI's own record, as every PTY
// run does). It is measured on the session's own recording, one clock:
// from the output after which the profile's question rule first matches
// the screen, to the question's marker, written just before the tool_use.
// The time in between is the screen settling and the record being read.
//
//	PATH=$PWD/.e2e/bin:$PATH YUME_E2E=1 go test -run '^$' -bench DialogToToolUse -benchtime 5x ./e2e
func BenchmarkDialogToToolUse(b *testing.B) {
	benchEachCLI(b, func(b *testing.B, h *home, provider string) {
		var took []time.Duration
		fromRecord, waited := 0, 0
		for i := 0; b.Loop(); i++ {
			r, cast := recordedTurn(b, h, fileTurn(provider, fmt.Sprintf("dialog-%d.txt", i)))
			d, err := dialogToToolUse(cast, provider)
			if err != nil {
				b.Fatal(err)
			}
			took = append(took, d)
			if strings.Contains(r.trace, "question 1: the call comes from the provider's session log") {
				fromRecord++
			}
			if strings.Contains(r.trace, "the question is not in the provider's session log yet") {
				waited++ // the dialog was up before the CLI wrote the call down
			}
		}
		reportLatency(b, took)
		b.ReportMetric(float64(fromRecord)/float64(len(took)), "from-record")
		b.ReportMetric(float64(waited)/float64(len(took)), "waited-for-record")
	})
}

// benchEachCLI runs bench for each CLI installed, in a home of its own.
func benchEachCLI(b *testing.B, bench func(b *testing.B, h *home, provider string)) {
	for _, provider := range providers {
		if _, err := os.Stat(filepath.Join(binDir(b), provider)); err != nil {
			continue
		}
		h := newHome(b, provider)
		b.Run(provider, func(b *testing.B) { bench(b, h, provider) })
	}
}

// fileTurn is a turn whose model asks to touch file, then says it is done.
func fileTurn(provider, file string) fakemodel.Script {
	return fakemodel.Script{Replies: []fakemodel.Reply{
		{Text: "Running it.", ToolCalls: []fakemodel.ToolCall{shellCall(provider, "touch "+file, "make a file")}},
		{Text: "Done."},
	}}
}

// recordedTurn runs one PTY turn of script, approved, with --record; it
// returns the run and its recording.
func recordedTurn(b *testing.B, h *home, script fakemodel.Script) (*run, *recordings.Cast) {
	path := filepath.Join(b.TempDir(), "turn.cast")
	r := h.run(b, script, gui{answer: func(int) bool { return true }}, "--mode", "pty", "--record", path, "--prompt", "make a file")
	if len(r.uses) == 0 {
		b.Fatalf("no tool_use:\n%s", r.raw)
	}
	return r, readCast(b, path)
}

// readCast reads the recording at path.
func readCast(b *testing.B, path string) *recordings.Cast {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	c, err := recordings.Read(f)
	if err != nil {
		b.Fatalf("%s: %v", path, err)
	}
	return c
}

// dialogToToolUse reads a recorded turn: the time from the first output
// that puts a question on screen (the provider's profile, evaluated on a
// settled screen after each output event) to the first question's marker.
func dialogToToolUse(c *recordings.Cast, provider string) (time.Duration, error) {
	p, _ := provreg.Lookup(provider)
	prof, err := heuristics.LoadProfile(p.Profile)
	if err != nil {
		return 0, err
	}
	screen := vt.NewScreen(c.Header.Width, c.Header.Height)
	shown := time.Duration(-1)
	for _, e := range c.Events {
		switch e.Code {
		case recordings.CodeResize:
			if cols, rows, ok := e.Size(); ok {
				screen.Resize(cols, rows)
			}
		case recordings.CodeOutput:
			screen.Write([]byte(e.Data))
			if shown >= 0 {
				continue
			}
			// A fresh engine: one that remembers what fired would not fire
			// on the same question twice.
			if det, _ := heuristics.NewEngine(prof).Evaluate(screen, true); det != nil && isQuestion(det.Kind) {
				shown = e.Time
			}
		case recordings.CodeMarker:
			if !strings.HasPrefix(e.Data, "question 1:") {
				continue
			}
			if shown < 0 {
				return 0, errors.New("question 1 was marked, but no output before it matches a question rule")
			}
			return e.Time - shown, nil
		}
	}
	return 0, errors.New("no question marked")
}

// isQuestion reports whether a rule of kind k asks before something runs.
func isQuestion(k heuristics.Kind) bool {
	return k == heuristics.KindConfirm || k == heuristics.KindMenu || k == heuristics.KindSuggestion
}

// BenchmarkDemoDialogToToolUse is the same measure on the bundled demo (the
// stand-in for gh copilot suggest that `make demo` drives): no CLI to
// install, so it shows yume-cli's own share.
//
//	YUME_E2E=1 go test -run '^$' -bench DemoDialogToToolUse -benchtime 20x ./e2e
func BenchmarkDemoDialogToToolUse(b *testing.B) {
	demo := filepath.Join(b.TempDir(), "yume-demo")
	if out, err := exec.Command("go", "build", "-o", demo, "../cmd/yume-demo").CombinedOutput(); err != nil {
		b.Fatalf("go build yume-demo: %v\n%s", err, out)
	}
	var took []time.Duration
	for i := 0; b.Loop(); i++ {
		dir := b.TempDir()
		cast := filepath.Join(dir, "demo.cast")
		cmd := exec.Command(yumeBin, "--provider", "gh-copilot", "--permission-mode", "auto",
			"--output-format", "stream-json", "--record", cast,
			"--", demo, "suggest", "-t", "shell", "--suggest", fmt.Sprintf("echo demo-%d", i), "say something")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "YUME_HOME="+filepath.Join(dir, ".yume"))
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("yume-cli on the demo: %v\n%s", err, out)
		}
		d, err := dialogToToolUse(readCast(b, cast), "gh-copilot")
		if err != nil {
			b.Fatal(err)
		}
		took = append(took, d)
	}
	reportLatency(b, took)
}

// reportLatency reports the median and the slowest of took.
func reportLatency(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	b.ReportMetric(ms(took[len(took)/2]), "p50-ms")
	b.ReportMetric(ms(took[len(took)-1]), "max-ms")
}
