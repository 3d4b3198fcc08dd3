package e2e

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/internal/gobuild"
	"github.com/yume-cli/yume-cli/permission"
	provreg "github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/ptyhost"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/vt"
)

// BenchmarkStartToToolUse times, for each CLI's TUI installed, on the
// newest release (.e2e/bin) and the oldest of the drift matrix
// (.e2e/oldest/bin), what a person waits for: yume-cli started as Yume
// starts it (a static, stripped build, as released; the PTY mode; no flags
// but the prompt) until its first tool_use line is read from its stdout,
// against the CLI alone started in a terminal of the same size with the
// arguments yume-cli gives it until its permission dialog is on screen
// (its screen read after every chunk, the profile's question rule matched
// at once: when a person would see it).
// Each op runs, in an order that rotates, the CLI alone and yume-cli twice:
// warm (yume-cli's probe of the CLI cached, as on every run after the first
// with one release) and cold (no probe cached: the first run after the CLI
// was installed or updated). It reports the medians, warm-x and cold-x:
// the median over ops of yume-cli's time / the CLI alone's (goal ≤ 1.05),
// and restarts: the runs in which the CLI refused the flags it was started
// with and was started again (their time is in the figures).
// YUME_START_BASE=path/to/yume-cli measures another build (the previous
// one) in the same ops, in a YUME_HOME of its own: base-warm-x,
// base-cold-x, base-restarts, and base-failed (its runs with no tool_use,
// left out of its figures). YUME_BENCH_CASTS=dir keeps a recording of
// each run, the CLI's alone and yume-cli's (--record, which costs it a
// little), to see where a start's time went.
//
//	PATH=$PWD/.e2e/bin:$PATH YUME_E2E=1 go test -run '^$' -bench StartToToolUse -benchtime 3x ./e2e
//
// make bench runs it for the CLIs in .e2e/bin and .e2e/oldest/bin (make e2e-deps).
func BenchmarkStartToToolUse(b *testing.B) {
	builds := []startBuild{{name: "", path: releaseBuild(b), yumeHome: ".yume"}}
	if base := os.Getenv("YUME_START_BASE"); base != "" {
		builds = append(builds, startBuild{name: "base-", path: base, yumeHome: ".yume-base"})
	}
	benchEachRelease(b, func(b *testing.B, h *home, bin, provider string) {
		var alone []float64
		times := map[string][]float64{}                        // by metric name: ms and ratios
		restarts, failed := map[string]int{}, map[string]int{} // by build
		for _, y := range builds {
			// A first run of the CLI itself in this home, and the probe
			// cached: not counted.
			if _, _, err := y.run(b, h, provider, "first", false); err != nil && y.name == "" {
				b.Fatal(err)
			} else if err != nil {
				b.Log(err)
				failed[y.name]++
			}
		}
		for i := 0; b.Loop(); i++ {
			var a time.Duration
			got := map[string]time.Duration{}
			runs := []func(){func() { a, _ = dialogAlone(b, h, bin, provider, fileTurn(provider, fmt.Sprintf("alone-%d.txt", i))) }}
			for _, y := range builds {
				for _, cold := range []bool{false, true} {
					name := y.name + map[bool]string{false: "warm", true: "cold"}[cold]
					runs = append(runs, func() {
						took, restarted, err := y.run(b, h, provider, fmt.Sprintf("%s-%d", name, i), cold)
						switch {
						case err != nil && y.name == "":
							b.Fatal(err)
						case err != nil:
							b.Log(err) // the previous build's failure is a finding, not the bench's end
							failed[y.name]++
						default:
							got[name] = took
						}
						if restarted {
							restarts[y.name]++
						}
					})
				}
			}
			for k := range runs {
				runs[(i+k)%len(runs)]()
			}
			alone = append(alone, ms(a))
			for name, d := range got {
				times[name+"-ms"] = append(times[name+"-ms"], ms(d))
				times[name+"-x"] = append(times[name+"-x"], d.Seconds()/a.Seconds())
			}
		}
		b.ReportMetric(medianFloat(alone), "alone-ms")
		for name, v := range times {
			b.ReportMetric(medianFloat(v), name)
		}
		for _, y := range builds {
			b.ReportMetric(float64(restarts[y.name]), y.name+"restarts")
			if y.name != "" {
				b.ReportMetric(float64(failed[y.name]), y.name+"failed")
			}
		}
	})
}

// benchEachRelease runs bench for each AI CLI's TUI installed, newest and
// oldest release, each in a home of its own: the four the live suite
// drives, then the agents.
func benchEachRelease(b *testing.B, bench func(b *testing.B, h *home, bin, provider string)) {
	oldest, err := filepath.Abs(filepath.Join(binDir(b), "..", "oldest", "bin"))
	if err != nil {
		b.Fatal(err)
	}
	for _, provider := range append(slices.Clone(providers), agents...) {
		for _, release := range []struct{ name, bin string }{{"oldest", oldest}, {"newest", binDir(b)}} {
			if _, err := os.Stat(filepath.Join(release.bin, provider)); err != nil {
				continue
			}
			h := newHomeIn(b, provider, release.bin)
			b.Run(provider+"/"+release.name, func(b *testing.B) { bench(b, h, release.bin, provider) })
		}
	}
}

// startBuild is a yume-cli build the bench times, with the YUME_HOME (under
// the CLI's home) where it caches its probes.
type startBuild struct{ name, path, yumeHome string }

// run runs yume-cli as Yume does (stream-json out, the prompt, no frames:
// the guard answers) in the PTY mode, on a turn whose model asks to touch
// a file, and returns how long its first tool_use line took to be read,
// and whether the CLI was started again (it refused its first flags);
// cold, with nothing cached of its probe of the CLI. A run with no
// tool_use, or that failed, is an error.
func (y startBuild) run(b *testing.B, h *home, provider, name string, cold bool) (took time.Duration, restarted bool, err error) {
	yumeHome := filepath.Join(h.sb.Home, y.yumeHome)
	if cold {
		if err := os.Remove(filepath.Join(yumeHome, "cache", "probes.json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
			b.Fatal(err)
		}
	}
	h.srv.SetScript(fileTurn(provider, name+".txt"))
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	// --verbose: a second start is said on stderr. A long idle timeout: on
	// a loaded machine a CLI's first request may take more than 5 s.
	args := []string{"--provider", provider, "--model", h.sb.Model, "--cwd", h.sb.Workspace,
		"--output-format", "stream-json", "--mode", "pty", "--verbose", "--idle-timeout", "60s", "--prompt", "make a file"}
	if dir := os.Getenv("YUME_BENCH_CASTS"); dir != "" { // beside the CLI's alone (benchCast)
		args = append(args, "--record", filepath.Join(dir, fmt.Sprintf("%s%s-%s.cast", y.name, provider, name)))
	}
	cmd := exec.CommandContext(ctx, y.path, args...)
	cmd.Env = append(interactiveEnv(h.sb.Env), "YUME_HOME="+yumeHome)
	cmd.Dir = h.sb.Workspace
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	var lines bytes.Buffer
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		if took == 0 && bytes.Contains(sc.Bytes(), []byte(`"type":"tool_use"`)) {
			took = time.Since(start)
		}
		lines.Write(sc.Bytes())
		lines.WriteByte('\n')
	}
	err = cmd.Wait()
	if y.name == "" {
		noLeftovers(b, h.sb.Home)
	} else {
		endLeftovers(b, y.name, h.sb.Home)
	}
	restarted = strings.Contains(stderr.String(), "started again")
	if took == 0 || err != nil {
		return took, restarted, fmt.Errorf("%s %s run (%s): no tool_use, or it failed (%v)\nstdout:\n%s\nstderr:\n%s", provider, name, y.path, err, lines.String(), stderr.String())
	}
	return took, restarted, nil
}

// endLeftovers is noLeftovers for another build (YUME_START_BASE): what it
// left running is said and ended, a finding rather than the bench's end
// (an earlier build left a probe of the CLI running on a loaded machine).
func endLeftovers(b *testing.B, build, home string) {
	left := leftovers(home)
	for deadline := time.Now().Add(5 * time.Second); len(left) > 0 && time.Now().Before(deadline); left = leftovers(home) {
		time.Sleep(50 * time.Millisecond) // Polling: processes take a moment to go after yume-cli.
	}
	for pid, c := range left {
		b.Logf("%s: process %d outlived yume-cli: %s", build, pid, c)
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill() // Best effort: it is reported above.
		}
	}
}

// releaseBuild is yume-cli built as releases are (scripts/dist.sh: static,
// stripped): what users start.
func releaseBuild(b *testing.B) string {
	dir := filepath.Join(filepath.Dir(yumeBin), "release")
	if out := filepath.Join(dir, "yume-cli"); statOK(out) {
		return out
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	out, err := gobuild.Command(dir, "cmd/yume-cli", true)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// dialogAlone starts provider's CLI in binDir as yume-cli would, without yume-cli,
// and returns how long its permission dialog took to be on screen, and its
// first output.
func dialogAlone(b testing.TB, h *home, binDir, provider string, script fakemodel.Script) (shown, first time.Duration) {
	p, _ := provreg.Lookup(provider)
	prof, err := heuristics.LoadProfile(p.Profile)
	if err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(binDir, provider)
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	probe, err := provreg.ProbeFor(ctx, bin, p) // its release's flags, as yume-cli reads them: no probe on a loaded machine
	if err != nil {
		b.Fatal(err)
	}
	env := interactiveEnv(h.sb.Env)
	getenv := func(k string) string {
		for _, kv := range env {
			if name, v, _ := strings.Cut(kv, "="); name == k {
				return v
			}
		}
		return ""
	}
	l := provreg.Launch{Prompt: "make a file", Model: h.sb.Model, Mode: permission.Default, Cwd: h.sb.Workspace,
		Getenv: getenv, Help: probe.Help, Started: time.Now()}
	if p.TUI.NewSession != nil {
		l.Session = p.TUI.NewSession()
	}
	args, err := p.TUI.Args(l)
	if err != nil {
		b.Fatal(err)
	}
	if p.TUI.Env != nil {
		env = append(env, p.TUI.Env(l)...)
	}
	cols, rows := 120, 40
	if p.TUI.Cols > 0 {
		cols = p.TUI.Cols
	}
	// The CLI's own daemons (Codex's app-server) are ended when it is, as
	// yume-cli ends them: adopted, then stopped.
	adoptOnce.Do(func() { _ = ptyhost.AdoptOrphans() })
	defer ptyhost.EndOrphans(2 * time.Second)
	h.srv.SetScript(script)
	start := time.Now()
	proc, err := ptyhost.Start(ptyhost.Options{Argv: append([]string{bin}, args...), Env: env, Dir: h.sb.Workspace, Cols: cols, Rows: rows})
	if err != nil {
		b.Fatal(err)
	}
	defer proc.Close()
	stop := time.AfterFunc(runTimeout, func() { _ = proc.Close() })
	defer stop.Stop()
	screen := vt.NewScreen(cols, rows)
	screen.SetReplyWriter(proc) // a TUI waits for the answers to its queries
	rec := benchCast(b, "alone-"+provider, cols, rows, start)
	if rec != nil {
		defer rec.Close(0)
	}
	for {
		data, _, err := proc.ReadChunk()
		if first == 0 {
			first = time.Since(start)
		}
		if rec != nil {
			rec.Output(time.Since(start), data)
		}
		screen.Write(data)
		// A fresh engine: one that remembers what fired would not fire on
		// the same question twice.
		if det, _ := heuristics.NewEngine(prof).Evaluate(screen, true); det != nil && isQuestion(det.Kind) {
			return time.Since(start), first
		}
		if err != nil {
			b.Fatalf("%s alone: its output ended (%v) before a dialog; the screen:\n%s", provider, err, screen.String())
		}
	}
}

// benchCast is a recorder of the CLI's output alone, in
// $YUME_BENCH_CASTS (nil where that is not set), to set beside yume-cli's
// recordings of the same ops: what the CLI drew when, with and without
// yume-cli.
func benchCast(b testing.TB, name string, cols, rows int, start time.Time) *recordings.Recorder {
	dir := os.Getenv("YUME_BENCH_CASTS")
	if dir == "" {
		return nil
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%s-%s.cast", name, time.Now().Format("150405.000000"))))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	rec, err := recordings.NewRecorder(f, recordings.Header{Version: 2, Width: cols, Height: rows}, start)
	if err != nil {
		b.Fatal(err)
	}
	return rec
}

// adoptOnce makes the test process the reaper of the orphans of CLIs it
// starts itself (dialogAlone), once.
var adoptOnce sync.Once

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func medianFloat(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// statOK: a file is there.
func statOK(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
