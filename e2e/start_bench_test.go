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
	"github.com/yume-cli/yume-cli/permission"
	provreg "github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/ptyhost"
	"github.com/yume-cli/yume-cli/vt"
)

// BenchmarkStartToToolUse times, for each CLI's TUI installed, what a person
// waits for: yume-cli started as Yume starts it (a static, stripped build,
// as released; the PTY mode; no flags but the prompt) until its first
// tool_use line is read from its stdout, against the CLI alone started in a
// terminal of the same size with the arguments yume-cli gives it until its
// permission dialog is on screen (its screen read after every chunk, the
// profile's question rule matched at once: when a person would see it).
// Each op runs, in an order that rotates, the CLI alone and yume-cli twice:
// warm (yume-cli's probe of the CLI cached, as on every run after the first
// with one release) and cold (no probe cached: the first run after the CLI
// was installed or updated). It reports the medians, and warm-x and cold-x:
// the median over ops of yume-cli's time / the CLI alone's (goal ≤ 1.1).
//
//	PATH=$PWD/.e2e/bin:$PATH YUME_E2E=1 go test -run '^$' -bench StartToToolUse -benchtime 3x ./e2e
//
// make bench runs it for the CLIs in .e2e/bin (make e2e-deps).
func BenchmarkStartToToolUse(b *testing.B) {
	yume := releaseBuild(b)
	benchEachTUI(b, func(b *testing.B, h *home, provider string) {
		var alone, warm, cold, warmX, coldX []float64
		timeYume(b, yume, h, provider, 0, false) // a first run of the CLI itself in this home, not counted
		for i := 0; b.Loop(); i++ {
			var a, w, c time.Duration
			runs := []func(){
				func() { a, _ = dialogAlone(b, h, provider, fileTurn(provider, fmt.Sprintf("alone-%d.txt", i))) },
				func() { w = timeYume(b, yume, h, provider, i, false) },
				func() { c = timeYume(b, yume, h, provider, i, true) },
			}
			for k := range runs {
				runs[(i+k)%len(runs)]()
			}
			alone, warm, cold = append(alone, ms(a)), append(warm, ms(w)), append(cold, ms(c))
			warmX, coldX = append(warmX, w.Seconds()/a.Seconds()), append(coldX, c.Seconds()/a.Seconds())
		}
		b.ReportMetric(median(alone), "alone-ms")
		b.ReportMetric(median(warm), "warm-ms")
		b.ReportMetric(median(cold), "cold-ms")
		b.ReportMetric(median(warmX), "warm-x")
		b.ReportMetric(median(coldX), "cold-x")
	})
}

// benchEachTUI runs bench for each AI CLI's TUI installed, in a home of
// its own: the four the live suite drives, then the agents.
func benchEachTUI(b *testing.B, bench func(b *testing.B, h *home, provider string)) {
	for _, provider := range append(slices.Clone(providers), agents...) {
		if _, err := os.Stat(filepath.Join(binDir(b), provider)); err != nil {
			continue
		}
		h := newHome(b, provider)
		b.Run(provider, func(b *testing.B) { bench(b, h, provider) })
	}
}

// timeYume runs yume-cli as Yume does (stream-json out, the prompt, no
// frames: the guard answers) in the PTY mode, on a turn whose model asks to
// touch a file, and returns how long its first tool_use line took to be
// read; cold, with nothing cached of its probe of the CLI.
func timeYume(b *testing.B, yume string, h *home, provider string, i int, cold bool) time.Duration {
	name := "warm"
	if cold {
		name = "cold"
		if err := os.Remove(filepath.Join(h.sb.Home, ".yume", "cache", "probes.json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
			b.Fatal(err)
		}
	}
	h.srv.SetScript(fileTurn(provider, fmt.Sprintf("%s-%d.txt", name, i)))
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, yume, "--provider", provider, "--model", h.sb.Model, "--cwd", h.sb.Workspace,
		"--output-format", "stream-json", "--mode", "pty", "--prompt", "make a file")
	cmd.Env = append(interactiveEnv(h.sb.Env), "YUME_HOME="+filepath.Join(h.sb.Home, ".yume"))
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
	var took time.Duration
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
	noLeftovers(b, h.sb.Home)
	if took == 0 || err != nil {
		b.Fatalf("%s %s run: no tool_use, or it failed (%v)\nstdout:\n%s\nstderr:\n%s", provider, name, err, lines.String(), stderr.String())
	}
	return took
}

// releaseBuild is yume-cli built as releases are (scripts/dist.sh: static,
// stripped): what users start.
func releaseBuild(b *testing.B) string {
	out := filepath.Join(filepath.Dir(yumeBin), "yume-cli-release")
	if _, err := os.Stat(out); err == nil {
		return out
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, "../cmd/yume-cli")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, msg)
	}
	return out
}

// dialogAlone starts provider's CLI as yume-cli would, without yume-cli,
// and returns how long its permission dialog took to be on screen, and its
// first output.
func dialogAlone(b testing.TB, h *home, provider string, script fakemodel.Script) (shown, first time.Duration) {
	p, _ := provreg.Lookup(provider)
	prof, err := heuristics.LoadProfile(p.Profile)
	if err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(binDir(b), provider)
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	probe, err := provreg.ProbeBinary(ctx, bin)
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
	for {
		data, _, err := proc.ReadChunk()
		if first == 0 {
			first = time.Since(start)
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

// adoptOnce makes the test process the reaper of the orphans of CLIs it
// starts itself (dialogAlone), once.
var adoptOnce sync.Once

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}
