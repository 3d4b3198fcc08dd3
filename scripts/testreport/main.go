// Command testreport reads `go test -json` on stdin and prints what a person
// reads of a test run: each package's ok/FAIL line, the whole output of every
// test that failed (and of a package that failed outside its tests), and at
// the end the slowest tests, so that the suite's time is seen where it goes,
// and why each test failed, its own report lines again (a log cut to its
// tail, as CI's is, keeps them).
//
//	go test -json ./... | go run ./scripts/testreport -slowest 20
//
// It exits 1 when a test or a package failed, so a pipeline fails with it.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// event is a line of test2json's output (go doc test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

type key struct{ pkg, test string }

type report struct {
	out     map[key]*strings.Builder // output held until the test ends
	times   []timed                  // top-level tests
	subs    []timed                  // subtests that ran (not skipped)
	failed  bool
	w       io.Writer
	skipped int
	why     []failure // each failed test's report lines, in the order they failed
}

// failure is a failed test and the first line of each message it reported.
type failure struct {
	name  string
	lines []string
}

// reportLine is a test's own message (t.Error, t.Log): "    x_test.go:12: …".
var reportLine = regexp.MustCompile(`^\s+[\w.-]+\.go:\d+: \S`)

// whyLines caps what the end repeats of each failure: the reasons, not the
// dumps a harness logs after them.
const whyLines, whyWidth = 6, 300

type timed struct {
	name    string
	elapsed float64
	failed  bool
}

func main() {
	slowest := flag.Int("slowest", 20, "how many of the slowest tests to list at the end (0: none)")
	flag.Parse()
	r := &report{out: map[key]*strings.Builder{}, w: os.Stdout}
	if err := r.read(os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
	r.slowest(*slowest)
	r.failures()
	if r.failed {
		os.Exit(1)
	}
}

// read takes the events; a line that is not JSON (a build error, a panic
// before test2json framed it) is printed as it came.
func (r *report) read(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			fmt.Fprintln(r.w, sc.Text())
			continue
		}
		r.take(e)
	}
	return sc.Err()
}

func (r *report) take(e event) {
	k := key{e.Package, e.Test}
	switch e.Action {
	case "output":
		b := r.out[k]
		if b == nil {
			b = &strings.Builder{}
			r.out[k] = b
		}
		b.WriteString(e.Output)
	case "pass", "fail", "skip":
		held := r.out[k]
		delete(r.out, k)
		if e.Test == "" { // the package: its summary line, or all it printed on failure
			r.packageDone(e, held)
			return
		}
		if e.Action == "skip" {
			r.skipped++
		}
		t := timed{e.Package + " " + e.Test, e.Elapsed, e.Action == "fail"}
		if !strings.Contains(e.Test, "/") {
			r.times = append(r.times, t)
		} else if e.Action != "skip" {
			r.subs = append(r.subs, t)
		}
		if e.Action == "fail" {
			r.failed = true
			if held != nil { // a subtest's own lines, then its parent's as it ends
				fmt.Fprint(r.w, held.String())
				r.why = append(r.why, failure{t.name, reasons(held.String())})
			}
		}
	}
}

// reasons are the first lines of the messages in a test's output.
func reasons(out string) []string {
	var lines []string
	for _, line := range strings.Split(out, "\n") {
		if !reportLine.MatchString(line) {
			continue
		}
		line = strings.TrimSpace(line)
		if len(line) > whyWidth {
			line = line[:whyWidth] + " …"
		}
		if lines = append(lines, line); len(lines) == whyLines {
			break
		}
	}
	return lines
}

// failures repeats, last, why each test failed.
func (r *report) failures() {
	var b strings.Builder
	for _, f := range r.why {
		if len(f.lines) == 0 {
			continue // a parent failed by its subtests, named above it
		}
		fmt.Fprintf(&b, "  %s\n", f.name)
		for _, l := range f.lines {
			fmt.Fprintf(&b, "      %s\n", l)
		}
	}
	if b.Len() > 0 {
		fmt.Fprintf(r.w, "\nwhy the failed tests failed (their first report lines):\n%s", b.String())
	}
}

func (r *report) packageDone(e event, held *strings.Builder) {
	text := ""
	if held != nil {
		text = held.String()
	}
	if e.Action == "fail" {
		r.failed = true
		// What no test claimed: a build error, a panic, a timeout, and the
		// FAIL line itself.
		fmt.Fprint(r.w, text)
		return
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		if strings.HasPrefix(line, "ok ") || strings.HasPrefix(line, "?") || strings.HasPrefix(line, "PASS") {
			if !strings.HasPrefix(line, "PASS") {
				fmt.Fprint(r.w, line)
			}
		}
	}
}

// slowest lists the n slowest top-level tests, then the n slowest cases
// (subtests with none of their own): where a table's time goes.
func (r *report) slowest(n int) {
	if n <= 0 || len(r.times) == 0 {
		return
	}
	total := 0.0
	for _, t := range r.times {
		total += t.elapsed
	}
	r.list(fmt.Sprintf("the %d slowest of %d tests (%.0f s in all, %d skipped)", min(n, len(r.times)), len(r.times), total, r.skipped), r.times, n)
	var leaves []timed
	for _, t := range r.subs {
		if !slices.ContainsFunc(r.subs, func(o timed) bool { return strings.HasPrefix(o.name, t.name+"/") }) {
			leaves = append(leaves, t)
		}
	}
	if len(leaves) > 0 {
		r.list(fmt.Sprintf("the %d slowest of %d cases", min(n, len(leaves)), len(leaves)), leaves, n)
	}
}

func (r *report) list(title string, ts []timed, n int) {
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].elapsed > ts[j].elapsed })
	fmt.Fprintf(r.w, "\n%s:\n", title)
	for _, t := range ts[:min(n, len(ts))] {
		mark := ""
		if t.failed {
			mark = "  FAIL"
		}
		fmt.Fprintf(r.w, "%8.1fs  %s%s\n", t.elapsed, t.name, mark)
	}
}
