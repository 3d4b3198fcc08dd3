//go:build unix

package driver_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/internal/testchild"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/ptyhost"
)

const promptLine = "Apply these changes? (y/n) "

// colorPrompt is a child that prints n bytes of SGR-coloured log lines, then
// a question, stamped with the wall clock just before it is written, and
// waits for the answer.
func colorPrompt(n int) int {
	bw := bufio.NewWriterSize(os.Stdout, 64<<10)
	for i := 0; n > 0; i++ {
		line := fmt.Sprintf("\x1b[2m%06d\x1b[0m \x1b[32mINFO\x1b[0m compiling \x1b[1mpackage/%d\x1b[0m … ok \x1b[36m%dms\x1b[0m\r\n", i, i%97, i%13)
		if len(line) > n {
			line = line[:n]
		}
		bw.WriteString(line)
		n -= len(line)
	}
	fmt.Fprintf(bw, "\r\nT=%d\r\n%s", time.Now().UnixNano(), promptLine)
	if bw.Flush() != nil {
		return 1
	}
	var answer string
	fmt.Scanln(&answer)
	return 0
}

// stampSink measures, for the first tool_use line written, how long after
// the child's T= stamp it came.
type stampSink struct {
	mu      sync.Mutex
	written time.Time
}

func (s *stampSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.written.IsZero() && strings.Contains(string(p), `"type":"tool_use"`) {
		s.written = time.Now()
	}
	return len(p), nil
}

// driveColorPrompt runs the whole yume-cli PTY path once on colorprompt:
// screen, rules, auto approval; it returns the prompt→tool_use latency.
func driveColorPrompt(tb testing.TB, size int, prof *heuristics.Profile) time.Duration {
	proc, err := ptyhost.Start(helper("colorprompt", strconv.Itoa(size)))
	if err != nil {
		tb.Fatal(err)
	}
	defer proc.Close()
	sink := &stampSink{}
	tee := &stampTerm{Terminal: proc}
	w := emit.NewWriter(sink, emit.Config{})
	out, err := driver.Drive(context.Background(), driver.Config{
		Term: tee, Profile: prof, Out: w, Mode: permission.Auto, CommandLine: "colorprompt",
	})
	if err != nil || out.Questions != 1 || !out.Exit.Success() {
		tb.Fatalf("drive: %v, %+v", err, out)
	}
	if tee.stamp == 0 || sink.written.IsZero() {
		tb.Fatal("no stamp or no tool_use")
	}
	return sink.written.Sub(time.Unix(0, tee.stamp))
}

// stampTerm finds the child's T= stamp in the output stream.
type stampTerm struct {
	ptyhost.Terminal
	stamp int64
	tail  string
}

// Unwrap lets the driver reach the process under the tee, as it does in
// production (its exit, whether it waits for keys).
func (s *stampTerm) Unwrap() ptyhost.Terminal { return s.Terminal }

func (s *stampTerm) ReadChunk() ([]byte, time.Duration, error) {
	data, at, err := s.Terminal.ReadChunk()
	if s.stamp == 0 && len(data) > 0 {
		s.tail = s.tail[max(0, len(s.tail)-64):] + string(data[max(0, len(data)-256):])
		if i := strings.Index(s.tail, "T="); i >= 0 {
			if j := strings.Index(s.tail[i:], "\r\n"); j > 0 {
				s.stamp, _ = strconv.ParseInt(strings.TrimSpace(s.tail[i+2:i+j]), 10, 64)
			}
		}
	}
	return data, at, err
}

// BenchmarkPTYPath: a child prints 100 MiB of coloured output then a
// prompt; the whole yume-cli path (screen + rules + auto approval) next to
// a plain creack/pty read-and-discard loop on the same child. Each op runs
// one of each, in alternating order, so a noisy shared machine slows both
// alike; "ratio" is the median over ops of baseline time / driver time.
// Target: ratio ≥ 0.9.
func BenchmarkPTYPath(b *testing.B) {
	size := 100 << 20
	if s := os.Getenv("YUME_BENCH_BYTES"); s != "" {
		size, _ = strconv.Atoi(s)
	}
	prof, err := heuristics.LoadProfile("generic")
	if err != nil {
		b.Fatal(err)
	}
	timed := func(f func()) time.Duration {
		t := time.Now()
		f()
		return time.Since(t)
	}
	var ratios []float64
	var drove, drained time.Duration
	for i := 0; b.Loop(); i++ {
		var d, r time.Duration
		runDriver := func() { d = timed(func() { driveColorPrompt(b, size, prof) }) }
		runRaw := func() { r = timed(func() { drainRaw(b, size) }) }
		if i%2 == 0 {
			runDriver()
			runRaw()
		} else {
			runRaw()
			runDriver()
		}
		ratios = append(ratios, float64(r)/float64(d))
		drove, drained = drove+d, drained+r
	}
	sort.Float64s(ratios)
	n := float64(len(ratios))
	mbs := func(d time.Duration) float64 { return float64(size) * n / d.Seconds() / 1e6 }
	b.ReportMetric(ratios[len(ratios)/2], "ratio")
	b.ReportMetric(mbs(drove), "driver-MB/s")
	b.ReportMetric(mbs(drained), "raw-MB/s")
}

// startRaw starts a helper mode with plain creack/pty: the baseline.
func startRaw(b *testing.B, mode string, size int) (*os.File, *exec.Cmd) {
	return testchild.StartRaw(b, mode, strconv.Itoa(size))
}

// drainRaw is the baseline: creack/pty, read and discard, answer the
// prompt when it shows.
func drainRaw(b *testing.B, size int) {
	buf := make([]byte, 64<<10)
	f, cmd := startRaw(b, "colorprompt", size)
	defer f.Close()
	var tail []byte
	answered := false
	for {
		m, err := f.Read(buf)
		if !answered {
			tail = append(tail[max(0, len(tail)-64):], buf[:m]...)
			if strings.HasSuffix(string(tail), promptLine) {
				_, _ = f.Write([]byte("y\r"))
				answered = true
			}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, syscall.EIO) {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := cmd.Wait(); err != nil || !answered {
		b.Fatalf("child: %v, answered %v", err, answered)
	}
}

// BenchmarkPromptLatency: prompt written → tool_use written, over 50
// sessions per op; reports the median and p99 (targets 25 ms and 50 ms).
func BenchmarkPromptLatency(b *testing.B) {
	prof, err := heuristics.LoadProfile("generic")
	if err != nil {
		b.Fatal(err)
	}
	var all []time.Duration
	for b.Loop() {
		for range 50 {
			all = append(all, driveColorPrompt(b, 64<<10, prof))
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(all[len(all)/2]), "p50-ms")
	b.ReportMetric(ms(all[len(all)*99/100]), "p99-ms")
	b.ReportMetric(ms(all[len(all)-1]), "max-ms")
}
