//go:build unix

package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkWholeProcess runs, per op, the raw drain of flood and
// `yume-cli --permission-mode auto -- flood` (and, with YUME_BENCH_BASE set
// to another yume-cli binary, that one too), in an order that rotates each
// op, for each producer:
//
//   - fast: flood -fast writes pre-built lines from a buffer at full
//     speed: the producer computes nothing, so what yume-cli costs shows
//     (in wall time on a machine with few cores);
//   - sprintf: flood builds each line with fmt.Sprintf as it prints, as a
//     program that computes its output does: yume-cli's parse overlaps it.
//
// It reports:
//
//   - ratio: the median over ops of raw time / yume-cli time (goal ≥ 0.95);
//   - added-cpu-s: the median over ops of yume-cli's CPU minus the raw
//     drain's, per 100 MiB (goal ≤ 0.3 on the fast producer). CPU is the
//     program's own included (user+system, as wait4 counts it): what
//     yume-cli takes from the program and the kernel on a small machine,
//     and less noisy than wall time on a shared one;
//   - rss-MiB: yume-cli's peak resident memory, the most of any op (≤ 12);
//   - p50-ms: question printed → tool_use line read from yume-cli's stdout,
//     the median (≤ 5);
//   - raw-s, yume-s: the median wall times;
//   - with YUME_BENCH_BASE: base-ratio, base-added-cpu-s, base-p50-ms,
//     base-s as above for the base build, and vs-base: the median over ops
//     of base time / yume-cli time (above 1: yume-cli is faster).
//
// It runs only with YUME_BENCH_WHOLE=1 (make bench sets it): each op moves
// YUME_BENCH_BYTES (100 MiB) through a terminal two or three times.
func BenchmarkWholeProcess(b *testing.B) {
	if os.Getenv("YUME_BENCH_WHOLE") == "" {
		b.Skip("set YUME_BENCH_WHOLE=1 (make bench does) to time yume-cli as a whole process")
	}
	size := 100 << 20
	if s := os.Getenv("YUME_BENCH_BYTES"); s != "" {
		size, _ = strconv.Atoi(s)
	}
	dir := b.TempDir()
	yume, flood, raw := build(b, dir, "cmd/yume-cli"), build(b, dir, "scripts/flood"), build(b, dir, "scripts/rawdrain")
	base := os.Getenv("YUME_BENCH_BASE")
	for _, producer := range []struct {
		name string
		args []string
	}{
		{"fast", []string{flood, "-fast", "-bytes", strconv.Itoa(size)}},
		{"sprintf", []string{flood, "-bytes", strconv.Itoa(size)}},
	} {
		b.Run(producer.name, func(b *testing.B) {
			benchWhole(b, filepath.Join(dir, producer.name), size, raw, yume, base, producer.args)
		})
	}
}

// benchWhole times the raw drain, yume-cli and the base build (if any) on
// one producer, in alternating order, and reports the figures.
func benchWhole(b *testing.B, dir string, size int, raw, yume, base string, producer []string) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	runners := []struct {
		name string
		run  func(stamp string) run
	}{
		{"raw", func(string) run { return timeRaw(b, raw, producer) }},
		{"yume", func(stamp string) run { return timeYume(b, yume, producer, stamp) }},
	}
	if base != "" {
		runners = append(runners, struct {
			name string
			run  func(stamp string) run
		}{"base", func(stamp string) run { return timeYume(b, base, producer, stamp) }})
	}
	per100 := float64(100<<20) / float64(size)
	var ratios, added, latencies, baseRatios, baseAdded, baseLat, vsBase []float64
	var rss int64
	times := map[string][]float64{}
	for i := 0; b.Loop(); i++ {
		got := map[string]run{}
		for k := range runners {
			r := runners[(i+k)%len(runners)]
			got[r.name] = r.run(filepath.Join(dir, fmt.Sprintf("stamp-%d-%s", i, r.name)))
			times[r.name] = append(times[r.name], got[r.name].wall.Seconds())
		}
		ratios = append(ratios, got["raw"].wall.Seconds()/got["yume"].wall.Seconds())
		added = append(added, (got["yume"].cpu-got["raw"].cpu).Seconds()*per100)
		latencies = append(latencies, got["yume"].latency.Seconds()*1000)
		rss = max(rss, got["yume"].rssKiB)
		if base != "" {
			baseRatios = append(baseRatios, got["raw"].wall.Seconds()/got["base"].wall.Seconds())
			baseAdded = append(baseAdded, (got["base"].cpu-got["raw"].cpu).Seconds()*per100)
			baseLat = append(baseLat, got["base"].latency.Seconds()*1000)
			vsBase = append(vsBase, got["base"].wall.Seconds()/got["yume"].wall.Seconds())
		}
	}
	b.ReportMetric(median(ratios), "ratio")
	b.ReportMetric(median(added), "added-cpu-s")
	b.ReportMetric(float64(rss)/1024, "rss-MiB")
	b.ReportMetric(median(latencies), "p50-ms")
	for name, t := range times {
		b.ReportMetric(median(t), name+"-s")
	}
	b.Logf("ratios %v; added CPU (s per 100 MiB) %v", rounded(ratios), rounded(added))
	if base != "" {
		b.ReportMetric(median(baseRatios), "base-ratio")
		b.ReportMetric(median(baseAdded), "base-added-cpu-s")
		b.ReportMetric(median(baseLat), "base-p50-ms")
		b.ReportMetric(median(vsBase), "vs-base")
		b.Logf("base ratios %v; base added CPU %v; base/yume wall %v", rounded(baseRatios), rounded(baseAdded), rounded(vsBase))
	}
}

// run is one timed process.
type run struct {
	wall    time.Duration
	cpu     time.Duration // user + system, the program's included
	rssKiB  int64
	latency time.Duration // question printed → tool_use read (yume-cli only)
}

func timeRaw(b *testing.B, raw string, flood []string) run {
	b.Helper()
	cmd := exec.Command(raw, flood...)
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("rawdrain: %v\n%s", err, out)
	}
	return run{wall: time.Since(start), cpu: cpuTime(cmd), rssKiB: maxRSS(cmd)}
}

// timeYume runs yume-cli on flood in auto mode and notes when its
// tool_use line arrives.
func timeYume(b *testing.B, yume string, flood []string, stamp string) run {
	args := append([]string{"--permission-mode", "auto", "--output-format", "stream-json", "--"}, flood...)
	args = append(args, "-stamp", stamp)
	cmd := exec.Command(yume, args...)
	cmd.Env = append(os.Environ(), "YUME_HOME="+filepath.Dir(stamp))
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
	var toolUse time.Time
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if toolUse.IsZero() && bytes.Contains(sc.Bytes(), []byte(`"type":"tool_use"`)) {
			toolUse = time.Now()
		}
	}
	_, _ = io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		b.Fatalf("%s: %v\n%s", yume, err, stderr.String())
	}
	r := run{wall: time.Since(start), cpu: cpuTime(cmd), rssKiB: maxRSS(cmd)}
	s, err := os.ReadFile(stamp)
	if err != nil || toolUse.IsZero() {
		b.Fatalf("%s: no question stamp (%v) or no tool_use", yume, err)
	}
	ns, _ := strconv.ParseInt(strings.TrimSpace(string(s)), 10, 64)
	r.latency = toolUse.Sub(time.Unix(0, ns))
	return r
}

// cpuTime is the user and system time of the finished cmd and of the
// children it waited for.
func cpuTime(cmd *exec.Cmd) time.Duration {
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// maxRSS is the peak resident memory of the finished cmd, in KiB.
func maxRSS(cmd *exec.Cmd) int64 {
	u, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	switch {
	case !ok:
		return 0
	case runtime.GOOS == "darwin":
		return u.Maxrss / 1024 // bytes there
	}
	return u.Maxrss
}

// build compiles one of the module's commands into dir, as releases are
// built (scripts/dist.sh: static, stripped): what users run. A cgo build
// maps libc too, 1.5 MiB more resident.
func build(b *testing.B, dir, pkg string) string {
	out := filepath.Join(dir, filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, "./"+pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Dir = ".."
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", pkg, err, msg)
	}
	return out
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func rounded(v []float64) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = strconv.FormatFloat(x, 'f', 2, 64)
	}
	return out
}
