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

	"github.com/yume-cli/yume-cli/internal/gobuild"
)

// BenchmarkWholeProcess runs, per op, the raw drain of flood and
// `yume-cli --permission-mode auto -- flood` (and, with YUME_BENCH_BASE set
// to other yume-cli binaries, those too), in an order that rotates each
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
//   - p50-ms, p99-ms: question printed → tool_use line read from
//     yume-cli's stdout, the median (≤ 3) and the 99th percentile (≤ 5;
//     nearest rank: the slowest of fewer than 100 ops);
//   - raw-s, yume-s: the median wall times;
//   - with YUME_BENCH_BASE (one path, or several separated by spaces):
//     base-ratio, base-added-cpu-s, base-p50-ms, base-p99-ms, base-s as
//     above for the first, base2-… for the second and so on, and vs-base:
//     the median over ops of base time / yume-cli time (above 1: yume-cli
//     is faster).
//
// It runs only with YUME_BENCH_WHOLE=1 (make bench sets it): each op moves
// YUME_BENCH_BYTES (100 MiB) through a terminal two or more times.
// YUME_BENCH_YUME names a yume-cli built already, in place of the tree's:
// builds compared from worktrees, while the tree is being edited.
// YUME_BENCH_BYTES=1048576 is the anchor workload of question → tool_use
// (1 MiB of coloured output, then the question).
func BenchmarkWholeProcess(b *testing.B) {
	if os.Getenv("YUME_BENCH_WHOLE") == "" {
		b.Skip("set YUME_BENCH_WHOLE=1 (make bench does) to time yume-cli as a whole process")
	}
	size := 100 << 20
	if s := os.Getenv("YUME_BENCH_BYTES"); s != "" {
		size, _ = strconv.Atoi(s)
	}
	dir := b.TempDir()
	yume := os.Getenv("YUME_BENCH_YUME")
	if yume == "" {
		yume = build(b, dir, "cmd/yume-cli")
	}
	flood, raw := build(b, dir, "scripts/flood"), build(b, dir, "scripts/rawdrain")
	bases := strings.Fields(os.Getenv("YUME_BENCH_BASE"))
	for _, producer := range []struct {
		name string
		args []string
	}{
		{"fast", []string{flood, "-fast", "-bytes", strconv.Itoa(size)}},
		{"sprintf", []string{flood, "-bytes", strconv.Itoa(size)}},
	} {
		b.Run(producer.name, func(b *testing.B) {
			benchWhole(b, filepath.Join(dir, producer.name), size, raw, yume, bases, producer.args)
		})
	}
}

// runner is one command benchWhole times each op.
type runner struct {
	name string
	run  func(stamp string) run
}

// benchWhole times the raw drain, yume-cli and the base builds (if any)
// on one producer, in alternating order, and reports the figures.
func benchWhole(b *testing.B, dir string, size int, raw, yume string, bases []string, producer []string) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	runners := []runner{
		{"raw", func(string) run { return timeRaw(b, raw, producer) }},
		{"yume", func(stamp string) run { return timeYume(b, yume, producer, stamp) }},
	}
	for i, base := range bases {
		runners = append(runners, runner{baseName(i), func(stamp string) run { return timeYume(b, base, producer, stamp) }})
	}
	per100 := float64(100<<20) / float64(size)
	var ratios, added []float64
	var rss int64
	times := map[string][]float64{}
	lat := map[string][]float64{}      // question → tool_use, ms
	ratio := map[string][]float64{}    // raw time / its time
	addedCPU := map[string][]float64{} // its CPU − raw's, per 100 MiB
	var vsBase []float64
	for i := 0; b.Loop(); i++ {
		got := map[string]run{}
		for k := range runners {
			r := runners[(i+k)%len(runners)]
			got[r.name] = r.run(filepath.Join(dir, fmt.Sprintf("stamp-%d-%s", i, r.name)))
			times[r.name] = append(times[r.name], got[r.name].wall.Seconds())
		}
		for _, r := range runners[1:] {
			g := got[r.name]
			ratio[r.name] = append(ratio[r.name], got["raw"].wall.Seconds()/g.wall.Seconds())
			addedCPU[r.name] = append(addedCPU[r.name], (g.cpu-got["raw"].cpu).Seconds()*per100)
			lat[r.name] = append(lat[r.name], g.latency.Seconds()*1000)
		}
		ratios, added = ratio["yume"], addedCPU["yume"]
		rss = max(rss, got["yume"].rssKiB)
		if len(bases) > 0 {
			vsBase = append(vsBase, got["base"].wall.Seconds()/got["yume"].wall.Seconds())
		}
	}
	b.ReportMetric(median(ratios), "ratio")
	b.ReportMetric(median(added), "added-cpu-s")
	b.ReportMetric(float64(rss)/1024, "rss-MiB")
	b.ReportMetric(median(lat["yume"]), "p50-ms")
	b.ReportMetric(percentile(lat["yume"], 99), "p99-ms")
	for name, t := range times {
		b.ReportMetric(median(t), name+"-s")
	}
	b.Logf("ratios %v; added CPU (s per 100 MiB) %v; question → tool_use (ms) %v", rounded(ratios), rounded(added), rounded(lat["yume"]))
	for i := range bases {
		name := baseName(i)
		b.ReportMetric(median(ratio[name]), name+"-ratio")
		b.ReportMetric(median(addedCPU[name]), name+"-added-cpu-s")
		b.ReportMetric(median(lat[name]), name+"-p50-ms")
		b.ReportMetric(percentile(lat[name], 99), name+"-p99-ms")
		b.Logf("%s (%s): ratios %v; added CPU %v; question → tool_use (ms) %v", name, bases[i], rounded(ratio[name]), rounded(addedCPU[name]), rounded(lat[name]))
	}
	if len(bases) > 0 {
		b.ReportMetric(median(vsBase), "vs-base")
		b.Logf("base/yume wall %v", rounded(vsBase))
	}
}

// baseName names the i-th base build in the figures: base, base2, base3…
func baseName(i int) string {
	if i == 0 {
		return "base"
	}
	return "base" + strconv.Itoa(i+1)
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
	out, err := gobuild.Command(dir, pkg, true)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// percentile is v's p-th percentile by nearest rank: the smallest value
// with at least p% of v at or below it.
func percentile(v []float64, p int) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	k := (len(s)*p + 99) / 100 // ceil(n·p/100), 1-based
	return s[max(k, 1)-1]
}

func rounded(v []float64) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = strconv.FormatFloat(x, 'f', 2, 64)
	}
	return out
}
