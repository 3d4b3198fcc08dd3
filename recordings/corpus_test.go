package recordings_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/internal/tracedoc"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/replay"
)

// updating reports -update, the flag recorder_test.go defines for this
// test binary: it rewrites the corpus goldens too.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// corpusCase replays one recording of testdata/corpus with one set of
// answers; its events are compared with NAME.golden.jsonl.
type corpusCase struct {
	name, cast string
	provider   string
	rules      string       // extra rule file in testdata/corpus, or ""
	approve    map[int]bool // nil: approve all
	revise     map[int]bool
	interrupt  string // interrupt when output containing this arrives
	compliance string // the transcript of Yume's PROTOCOL_NORMALIZATION.md §7 this is
	// knownBug is a key mismatch the replay finds today: the test expects
	// it, so the bug stays visible until the rules are fixed (then drop
	// this and run -update).
	knownBug string
}

var corpus = []corpusCase{
	{name: "hello", cast: "hello", provider: "generic", rules: "hello.rules.yaml", compliance: "plain text"},
	{name: "rm-i", cast: "rm-i", provider: "generic", compliance: "single tool call"},
	{name: "cp-i-deny", cast: "cp-i", provider: "generic", approve: map[int]bool{}, compliance: "tool denial"},
	{name: "git-add-p", cast: "git-add-p", provider: "generic", approve: map[int]bool{1: true}, compliance: "several tool calls"},
	// The generic yes-no rule fires a second time on inquirer's redraw
	// "? Delete build/ directory? (y/N) y" (its .{0,2} takes the echoed
	// answer), and would type "y\r" into the select that follows.
	{name: "inquirer", cast: "inquirer", provider: "generic"},
	{name: "demo-typed", cast: "demo-typed", provider: "gh-copilot"},
	{name: "demo-approve", cast: "demo-approve", provider: "gh-copilot"},
	{name: "demo-deny", cast: "demo-deny", provider: "gh-copilot", approve: map[int]bool{}},
	{name: "demo-revise", cast: "demo-revise", provider: "gh-copilot", revise: map[int]bool{1: true}},
	{name: "demo-slow", cast: "demo-slow", provider: "gh-copilot"},
	{name: "demo-slow-interrupt", cast: "demo-slow", provider: "gh-copilot", interrupt: "tick-2", compliance: "interrupt"},
	// The real AI TUIs (issue #5), recorded by `yume-cli start --mode pty
	// --record` against the fake model server: one approved shell command,
	// its output read from the TUI's own rendering, the final answer, and
	// the quit keys typed until the program exits.
	{name: "copilot-tui", cast: "copilot-tui", provider: "copilot"},
	{name: "claude-tui", cast: "claude-tui", provider: "claude"},
	{name: "gemini-tui", cast: "gemini-tui", provider: "gemini"},
	{name: "codex-tui", cast: "codex-tui", provider: "codex"},
}

// replayed is what one replay produced.
type replayed struct {
	stdout     []byte
	trace      bytes.Buffer
	err        error
	mismatches []recordings.KeyMismatch
	pending    string
}

func loadCast(tb testing.TB, name string) *recordings.Cast {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", "corpus", name+".cast"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	c, err := recordings.Read(f)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// replayCase runs a recording through the production driver, as
// `yume-cli replay` does: query replies left out of the key comparison on
// both sides, approvals decided by number, time from the recording.
func replayCase(tb testing.TB, c *recordings.Cast, cc corpusCase) *replayed {
	tb.Helper()
	prof, err := heuristics.LoadProfile(cc.provider)
	if err != nil {
		tb.Fatal(err)
	}
	if cc.rules != "" {
		data, err := os.ReadFile(filepath.Join("testdata", "corpus", cc.rules))
		if err != nil {
			tb.Fatal(err)
		}
		over, err := heuristics.ParseProfile(cc.rules, data)
		if err != nil {
			tb.Fatal(err)
		}
		prof = prof.Merge(over)
	}
	var interruptAt time.Duration
	if cc.interrupt != "" {
		for _, e := range c.Events {
			if e.Code == recordings.CodeOutput && strings.Contains(e.Data, cc.interrupt) {
				interruptAt = e.Time
				break
			}
		}
		if interruptAt == 0 {
			tb.Fatalf("no output %q to interrupt at", cc.interrupt)
		}
	}
	var out bytes.Buffer
	r := &replayed{}
	res := replay.Run(context.Background(), c, replay.Options{
		Profile: prof, Out: emit.NewWriter(&out, emit.Config{Model: "corpus"}), InterruptAt: interruptAt, Trace: &r.trace,
		Answer: func(n int, _ *heuristics.Detection) permission.Answer {
			if cc.revise[n] {
				return permission.Answer{Revise: true}
			}
			return permission.Answer{Allow: cc.approve == nil || cc.approve[n]}
		},
	})
	r.stdout, r.err, r.mismatches, r.pending = out.Bytes(), res.Err, res.Mismatches, res.Pending
	return r
}

// TestCorpus replays every recording and diffs its events with the golden
// file; go test ./recordings/ -run TestCorpus -update rewrites them.
func TestCorpus(t *testing.T) {
	for _, cc := range corpus {
		t.Run(cc.name, func(t *testing.T) {
			r := replayCase(t, loadCast(t, cc.cast), cc)
			switch {
			case cc.knownBug != "":
				if r.err == nil || !strings.Contains(r.err.Error(), cc.knownBug) {
					t.Errorf("replay error %v; want the known bug %q (fixed? drop knownBug and run -update)", r.err, cc.knownBug)
				}
			case r.err != nil:
				t.Errorf("replay: %v", r.err)
			}
			for _, m := range r.mismatches {
				if cc.knownBug == "" {
					t.Errorf("keys differ: %v", &m)
				}
			}
			if r.pending != "" && cc.interrupt == "" && cc.knownBug == "" {
				t.Errorf("recorded input %q was never typed", r.pending)
			}
			for _, p := range emittest.Validate(r.stdout) {
				t.Errorf("conformance: %v", p)
			}
			tracedoc.Check(t, r.trace.Bytes())
			checkGolden(t, filepath.Join("testdata", "corpus", cc.name+".golden.jsonl"), r.stdout, r.trace.String())
		})
	}
}

// checkGolden compares a normalised stream with its golden file, or
// rewrites the file with -update.
func checkGolden(t *testing.T, path string, stream []byte, trace string) {
	t.Helper()
	got := replay.Normalize(stream)
	if updating() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./recordings/ -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("events differ from %s (-update rewrites it)\ngot:\n%s\nwant:\n%s\ntrace:\n%s", path, got, want, trace)
	}
}
