package e2e

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
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
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/vt"
)

// BenchmarkStartToToolUse times, for each CLI's TUI, start → first
// tool_use through yume-cli against the CLI alone (same machine, same fake
// model, same command line) reaching its permission dialog on screen, in
// alternating pairs. "ratio" is the median of alone / yume-cli: 1 means
// yume-cli adds nothing to what a person would wait for.
//
//   - yume-cli: from its start to the first question's marker in its own
//     recording (written just before the tool_use), as every PTY run does
//     it, the CLI's version probe and session-log reads included;
//
//   - alone: the CLI started in a terminal with the arguments yume-cli
//     gives it, its screen read after every chunk until the profile's
//     question rule matches: when a person would see the dialog.
//
//     PATH=$PWD/.e2e/bin:$PATH YUME_E2E=1 go test -run '^$' -bench StartToToolUse -benchtime 5x ./e2e
func BenchmarkStartToToolUse(b *testing.B) {
	benchEachCLI(b, func(b *testing.B, h *home, provider string) {
		var yume, alone, ratios []float64
		for i := 0; b.Loop(); i++ {
			script := fileTurn(provider, fmt.Sprintf("start-%d.txt", i))
			var y, a time.Duration
			timeYume := func() {
				_, cast := recordedTurn(b, h, script)
				var err error
				if y, err = firstMarker(cast); err != nil {
					b.Fatal(err)
				}
			}
			timeAlone := func() { a = dialogAlone(b, h, provider, script) }
			if i%2 == 0 {
				timeYume()
				timeAlone()
			} else {
				timeAlone()
				timeYume()
			}
			yume, alone = append(yume, ms(y)), append(alone, ms(a))
			ratios = append(ratios, a.Seconds()/y.Seconds())
		}
		b.ReportMetric(median(yume), "yume-ms")
		b.ReportMetric(median(alone), "alone-ms")
		b.ReportMetric(median(ratios), "ratio")
	})
}

// firstMarker is when the recording's first question was marked: start →
// tool_use, on the recording's clock (it counts from the process's start).
func firstMarker(c *recordings.Cast) (time.Duration, error) {
	for _, e := range c.Events {
		if e.Code == recordings.CodeMarker && strings.HasPrefix(e.Data, "question 1:") {
			return e.Time, nil
		}
	}
	return 0, errors.New("no question marked")
}

// dialogAlone starts provider's CLI as yume-cli would, without yume-cli,
// and returns how long its permission dialog took to be on screen.
func dialogAlone(b *testing.B, h *home, provider string, script fakemodel.Script) time.Duration {
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
		screen.Write(data)
		// A fresh engine: one that remembers what fired would not fire on
		// the same question twice.
		if det, _ := heuristics.NewEngine(prof).Evaluate(screen, true); det != nil && isQuestion(det.Kind) {
			return time.Since(start)
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
