package e2e

import (
	"encoding/json"
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
	"github.com/yume-cli/yume-cli/internal/gobuild"
	provreg "github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/vt"
)

// BenchmarkDialogToToolUse times, for each CLI's TUI, how long after its
// permission dialog is on screen the tool_use is written, with the transcript
// cross-check on (the command read from the CLI's transcript, as every PTY
// run does). It is measured on the session's own recording, one clock:
// from the output after which the profile's question rule first matches
// the screen, to the question's marker, written just before the tool_use.
// The time in between is the screen settling and the transcript being read.
// With YUME_BENCH_BASE set to another yume-cli, that build's turns
// alternate with this one's in the same run (base-p50-ms): a busy machine
// slows both alike. yume-cli runs as users run it, without --trace: a
// trace's explanations of every rule that did not match (the nearest row,
// a pattern compiled to find it) cost a TUI's dialog tens of milliseconds.
// from-transcript is read from the recording's markers. YUME_BENCH_TRACE=1
// traces the runs, for waited-for-transcript and unwaited-p50-ms (the
// time without the wait for the transcript).
//
//	PATH=$PWD/.e2e/bin:$PATH YUME_E2E=1 go test -run '^$' -bench DialogToToolUse -benchtime 5x ./e2e
func BenchmarkDialogToToolUse(b *testing.B) {
	base := os.Getenv("YUME_BENCH_BASE")
	traced := os.Getenv("YUME_BENCH_TRACE") != ""
	untraced = !traced
	defer func() { untraced = false }()
	benchEachCLI(b, func(b *testing.B, h *home, provider string) {
		var took, settled, baseTook, baseSettled []time.Duration
		fromTranscript, waited := 0, 0
		failed := 0
		for i := 0; b.Loop(); i++ {
			if base != "" {
				var r *run
				var cast *recordings.Cast
				withBin(base, func() { r, cast = recordedTurn(b, h, fileTurn(provider, fmt.Sprintf("base-%d.txt", i))) })
				if d, ok := measured(b, r, cast, provider, &failed); ok {
					baseTook, baseSettled = append(baseTook, d), append(baseSettled, d-transcriptWait(r.trace))
				}
			}
			r, cast := recordedTurn(b, h, fileTurn(provider, fmt.Sprintf("dialog-%d.txt", i)))
			d, ok := measured(b, r, cast, provider, &failed)
			if !ok {
				continue
			}
			took, settled = append(took, d), append(settled, d-transcriptWait(r.trace))
			if loggedFirst(cast) {
				fromTranscript++
			}
			if strings.Contains(r.trace, "the question is not in the provider's transcript yet") {
				waited++ // the dialog was up before the CLI wrote the call down
			}
		}
		if len(took) == 0 {
			b.Fatalf("no turn of %s asked a question", provider)
		}
		reportLatency(b, took)
		if traced {
			b.ReportMetric(ms(p50(settled)), "unwaited-p50-ms")
			b.ReportMetric(float64(waited)/float64(len(took)), "waited-for-transcript")
		}
		b.ReportMetric(float64(failed), "failed-turns")
		if len(baseTook) > 0 {
			b.ReportMetric(ms(p50(baseTook)), "base-p50-ms")
			b.ReportMetric(ms(slices.Max(baseTook)), "base-max-ms")
			if traced {
				b.ReportMetric(ms(p50(baseSettled)), "base-unwaited-p50-ms")
			}
		}
		b.ReportMetric(float64(fromTranscript)/float64(len(took)), "from-transcript")
	})
}

// maxFailedTurns is how many turns of one CLI may end with no question
// before its benchmark stops: on a loaded machine a CLI now and then
// fails to start or to take its prompt in time, which says nothing of
// how soon a dialog it draws is asked.
const maxFailedTurns = 3

// measured is a recorded turn's dialog → tool_use; ok false for a turn
// that asked nothing (counted in failed, and logged).
func measured(b *testing.B, r *run, cast *recordings.Cast, provider string, failed *int) (time.Duration, bool) {
	if r == nil || len(r.uses) == 0 {
		if *failed++; *failed > maxFailedTurns {
			b.Fatalf("%d turns of %s asked nothing", *failed, provider)
		}
		if r != nil {
			b.Logf("a turn of %s asked nothing:\n%s", provider, r.raw)
		}
		return 0, false
	}
	d, err := dialogToToolUse(cast, provider)
	if err != nil {
		b.Fatal(err)
	}
	return d, true
}

// transcriptWait is how long a run's first question waited for its call to
// reach the CLI's transcript (from its trace): the CLI's share of the
// time to the tool_use, not the screen's settling (unwaited-p50-ms is
// the time without it).
func transcriptWait(trace string) time.Duration {
	from := time.Duration(-1)
	for line := range strings.SplitSeq(trace, "\n") {
		var ev struct {
			T      float64 `json:"t_ms"`
			Detail string  `json:"detail"`
		}
		if json.Unmarshal([]byte(line), &ev) != nil {
			continue
		}
		at := time.Duration(ev.T * float64(time.Millisecond))
		switch {
		case from < 0 && (strings.HasPrefix(ev.Detail, "the question is not in the provider's transcript yet") ||
			strings.HasPrefix(ev.Detail, "the provider's transcript is not there yet")):
			from = at
		case strings.HasPrefix(ev.Detail, "question 1: the call comes from"):
			if from < 0 {
				return 0
			}
			return at - from
		}
	}
	return 0
}

// p50 is the middle of took (sorted in place).
func p50(took []time.Duration) time.Duration {
	slices.Sort(took)
	return took[len(took)/2]
}

// withBin runs f with bin as the yume-cli the harness starts. Benchmarks
// and their turns run one at a time, so the swap is seen by f alone.
func withBin(bin string, f func()) {
	own := yumeBin
	yumeBin = bin
	defer func() { yumeBin = own }()
	f()
}

// tuis are the CLIs whose TUI the dialog benchmark drives: the four
// providers and the agents run in their TUIs (--mode pty), opencode and
// Kilo last (on a loaded machine they take the longest to start).
var tuis = append(slices.Clone(providers), "qwen", "opencode", "kilo")

// benchEachCLI runs bench for each TUI installed, in a home of its own.
func benchEachCLI(b *testing.B, bench func(b *testing.B, h *home, provider string)) {
	for _, provider := range tuis {
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
// returns the run and its recording (kept in $YUME_BENCH_CASTS if set,
// with its trace when traced), nil if the turn asked nothing.
func recordedTurn(b *testing.B, h *home, script fakemodel.Script) (*run, *recordings.Cast) {
	path := filepath.Join(b.TempDir(), "turn.cast")
	if dir := os.Getenv("YUME_BENCH_CASTS"); dir != "" { // kept, to see what a TUI drew when
		path = filepath.Join(dir, fmt.Sprintf("%s-%s.cast", strings.ReplaceAll(b.Name(), "/", "_"), time.Now().Format("150405.000000")))
	}
	r := h.run(b, script, gui{answer: func(int) bool { return true }}, "--mode", "pty", "--record", path, "--prompt", "make a file")
	if os.Getenv("YUME_BENCH_CASTS") != "" && r != nil && r.trace != "" { // and its trace, when traced
		if err := os.WriteFile(strings.TrimSuffix(path, ".cast")+".trace", []byte(r.trace), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if len(r.uses) == 0 {
		return r, nil // no question asked: measured says so
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

// loggedFirst reports whether the recording's first question was asked
// after the CLI's transcript held its call: a "session log: event" marker
// of a tool_call before the "question 1:" marker.
func loggedFirst(c *recordings.Cast) bool {
	logged := false
	for _, e := range c.Events {
		if e.Code != recordings.CodeMarker {
			continue
		}
		if strings.HasPrefix(e.Data, "question 1:") {
			return logged
		}
		if strings.HasPrefix(e.Data, "session log: event ") && strings.Contains(e.Data, `"kind":"tool_call"`) {
			logged = true
		}
	}
	return false
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
	demo, err := gobuild.Command(b.TempDir(), "cmd/yume-demo", false)
	if err != nil {
		b.Fatal(err)
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
