package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// personCast is a cast of recordings/testdata/people: a person using a
// real program.
func personCast(name string) string {
	return filepath.Join("..", "..", "recordings", "testdata", "people", name)
}

// htmlData is what a --html page carries, read back.
type htmlData struct {
	Trace   []map[string]any
	Tools   []map[string]any
	ShiftMS float64 `json:"shift_ms"`
}

// pageData reads back the data a --html page carries.
func pageData(t *testing.T, path string) htmlData {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const open = `<script type="application/json" id="data">`
	page := string(b)
	i := strings.Index(page, open)
	j := strings.Index(page[i:], "</script>")
	if i < 0 || j < 0 {
		t.Fatalf("%s holds no data", path)
	}
	var data htmlData
	if err := json.Unmarshal([]byte(page[i+len(open):i+j]), &data); err != nil {
		t.Fatal(err)
	}
	return data
}

// firstFired is the first trace line of a rule that fired with rows, and
// the screen it fired on.
func firstFired(t *testing.T, trace []map[string]any) (rule map[string]any, screen []any) {
	t.Helper()
	for _, l := range trace {
		switch {
		case l["event"] == "screen":
			screen, _ = l["screen"].([]any)
		case l["event"] == "rule" && l["fired"] == true && l["rows"] != nil:
			return l, screen
		}
	}
	t.Fatal("no rule fired with rows in the trace")
	return nil, nil
}

// TestReplayHTMLPage: the page carries the replay's own trace and its
// tool events, and a usage error says what --trace-in is for.
func TestReplayHTMLPage(t *testing.T) {
	page := filepath.Join(t.TempDir(), "p.html")
	code, stdout, stderr := runMain(t, "", "replay", personCast("claude-approve.cast"), "--html", page, "--trace")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	streamTypes(t, stdout) // the stream is as without --html
	data := pageData(t, page)
	trace, tools := data.Trace, data.Tools
	if n := strings.Count(stderr, `"t_ms":`); n != len(trace) {
		t.Errorf("the page holds %d trace lines, --trace wrote %d", len(trace), n)
	}
	if rule, _ := firstFired(t, trace); rule["rule"] != "bash-permission-dashed" {
		t.Errorf("first fired rule %v", rule["rule"])
	}
	var kinds []string
	for _, tool := range tools {
		kinds = append(kinds, tool["kind"].(string))
	}
	if !slices.Equal(kinds, []string{"tool_use", "tool_result"}) {
		t.Errorf("tool events %v, want a tool_use and its tool_result", kinds)
	}
	for _, args := range [][]string{
		{"replay", personCast("claude-approve.cast"), "--trace-in", "t.jsonl"},
		{"replay", personCast("claude-approve.cast"), "--html", page, "--screen", "1"},
	} {
		if code, _, stderr := runMain(t, "", args...); code != 2 || !strings.Contains(stderr, "--html") {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
	if code, _, stderr := runMain(t, "", "replay", personCast("claude-approve.cast"), "--html", page, "--trace-in", "nope.jsonl"); code != 1 || !strings.Contains(stderr, "--trace-in") {
		t.Errorf("a missing --trace-in: exit %d, %s", code, stderr)
	}
}

// liveRun runs rm -i under yume-cli with --record and --trace-file, as a
// person would to look at a live run's page, and returns the two files.
func liveRun(t *testing.T) (cast, trace string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the live run is rm -i in a Linux PTY")
	}
	if _, err := exec.LookPath("rm"); err != nil {
		t.Skip("no rm")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "victim.txt"), []byte("bye\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cast, trace = filepath.Join(dir, "live.cast"), filepath.Join(dir, "live.trace")
	code, _, stderr := runMain(t, "", "--permission-mode", "auto", "--cwd", dir, "--record", cast, "--trace-file", trace, "--", "rm", "-i", "victim.txt")
	if code != 0 {
		t.Fatalf("live run: exit %d: %s", code, stderr)
	}
	return cast, trace
}

// TestReplayHTMLTraceIn: with --trace-in the page shows the live run's
// trace, line for line, and the replay's tool events.
func TestReplayHTMLTraceIn(t *testing.T) {
	cast, live := liveRun(t)
	page := filepath.Join(t.TempDir(), "live.html")
	if code, _, stderr := runMain(t, "", "replay", cast, "--html", page, "--trace-in", live); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(live)
	if err != nil {
		t.Fatal(err)
	}
	data := pageData(t, page)
	trace, tools := data.Trace, data.Tools
	if n := strings.Count(string(b), "\n"); n != len(trace) {
		t.Errorf("the page holds %d trace lines, the live trace has %d", len(trace), n)
	}
	if rule, _ := firstFired(t, trace); rule["rule"] != "rm-remove" {
		t.Errorf("first fired rule %v", rule["rule"])
	}
	if len(tools) == 0 || tools[0]["kind"] != "tool_use" || !strings.Contains(fmt.Sprint(tools[0]["input"]), "rm -i victim.txt") {
		t.Errorf("tool events %v", tools)
	}
}

// TestReplayHTMLInChromium opens --html pages in a headless Chromium from
// file:// URLs, offline: a real AI TUI's cast (Claude Code asking to run a
// command) and a live run's --record cast with its --trace-file. Each loads
// with no console error, no exception and no request but the file itself;
// a click on a decision that fired seeks the player there and marks the
// rows the rule matched, with the screen's text; a decision where no rule
// fired marks the rows a missed rule came nearest on. The screenshots are
// logged (YUME_HTML_SHOTS=DIR keeps a copy).
func TestReplayHTMLInChromium(t *testing.T) {
	const chromium = "/usr/bin/chromium"
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("YUME_CHROMIUM_REQUIRED") == "1" {
			t.Fatalf("YUME_CHROMIUM_REQUIRED=1 but %s is missing", chromium)
		}
		t.Skipf("%s is missing: install Debian's chromium (apt-get install chromium) to test the --html page in a browser", chromium)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	ctx, cancel = chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromium), chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.NoFirstRun, chromedp.WindowSize(1500, 1200))
	defer cancel()
	ctx, cancel = chromedp.NewContext(ctx)
	defer cancel()
	b := &browser{ctx: ctx}
	if err := chromedp.Listen(ctx, b.listen); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}

	t.Run("claude-approve", func(t *testing.T) {
		page := filepath.Join(t.TempDir(), "claude-approve.html")
		if code, _, stderr := runMain(t, "", "replay", personCast("claude-approve.cast"), "--html", page); code != 0 {
			t.Fatalf("replay --html: exit %d: %s", code, stderr)
		}
		b.lookAtDecision(t, page, "Do you want to proceed?", "touch seen.txt && ls")
		b.lookAtNearMiss(t)
	})
	t.Run("live trace", func(t *testing.T) {
		cast, live := liveRun(t)
		page := filepath.Join(t.TempDir(), "live-rm-i.html")
		if code, _, stderr := runMain(t, "", "replay", cast, "--html", page, "--trace-in", live); code != 0 {
			t.Fatalf("replay --html --trace-in: exit %d: %s", code, stderr)
		}
		b.lookAtDecision(t, page, "rm: remove regular file 'victim.txt'?")
	})
}

// browser is a Chromium tab and what went wrong in it.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string
}

// listen keeps the console's errors, the exceptions, the log's errors and
// every request that is not the file itself.
func (b *browser) listen(ev any) {
	var p string
	switch ev := ev.(type) {
	case *cdpruntime.EventConsoleAPICalled:
		if ev.Type == cdpruntime.ConsoleAPICalledTypeError || ev.Type == cdpruntime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			p = "console." + string(ev.Type) + ": " + strings.Join(args, " ")
		}
	case *cdpruntime.EventExceptionThrown:
		d := ev.ExceptionDetails
		if d.Exception != nil {
			d.Text += " " + d.Exception.Description
		}
		p = fmt.Sprintf("exception at %d:%d: %s", d.LineNumber, d.ColumnNumber, d.Text)
	case *cdplog.EventEntryAdded:
		if ev.Entry.Level == cdplog.EntryLevelError {
			p = "log: " + ev.Entry.Text + " " + ev.Entry.URL
		}
	case *network.EventRequestWillBeSent:
		if u := ev.Request.URL; !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
			p = "request: " + u
		}
	}
	if p != "" {
		b.mu.Lock()
		b.problems = append(b.problems, p)
		b.mu.Unlock()
	}
}

// check fails t for each problem seen since the last check.
func (b *browser) check(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		t.Error(p)
	}
	b.problems = nil
}

// lookAtDecision opens page, clicks the first decision where a rule fired
// and checks the rows marked against the page's trace, the text want in
// them and on the player's terminal, and takes a screenshot.
func (b *browser) lookAtDecision(t *testing.T, page string, want ...string) {
	t.Helper()
	defer b.check(t)
	data := pageData(t, page)
	rule, screen := firstFired(t, data.Trace)
	err := chromedp.Do(b.ctx,
		chromedp.Navigate("file://"+filepath.ToSlash(page)),
		chromedp.WaitVisible(chromedp.CSS(`#entries .entry.fired`)),
		chromedp.WaitReady(chromedp.CSS(`#player .ap-player`)),
		chromedp.Click(chromedp.CSS(`#entries .entry.fired`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`#screen .row.hit`)),
	)
	if err != nil {
		t.Fatalf("driving the page: %v (problems: %v)", err, b.problems)
	}
	hits, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]struct{ Row, Text string }](
		`[...document.querySelectorAll('#screen .row.hit')].map(r => ({Row: r.dataset.row, Text: r.querySelector('.text').textContent}))`))
	if err != nil {
		t.Fatal(err)
	}

	// The rows marked are the rule's, with the screen's text.
	var rows, got []int
	for _, r := range rule["rows"].([]any) {
		rows = append(rows, int(r.(float64)))
	}
	var text []string
	for _, h := range hits {
		n, _ := strconv.Atoi(h.Row)
		got, text = append(got, n), append(text, h.Text)
		if n < len(screen) && h.Text != screen[n] {
			t.Errorf("row %d reads %q on the page, %q in the trace", n, h.Text, screen[n])
		}
	}
	if !slices.Equal(got, rows) {
		t.Errorf("rows marked %v, want rule %v's rows %v", got, rule["rule"], rows)
	}
	for _, w := range want {
		if !strings.Contains(strings.Join(text, "\n"), w) {
			t.Errorf("the marked rows lack %q:\n%s", w, strings.Join(text, "\n"))
		}
	}

	// The player went to the decision: its terminal shows the question.
	var shown bool
	var at float64
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		q, _ := json.Marshal(want[0])
		if shown, err = chromedp.Run(b.ctx, chromedp.Evaluate[bool](`document.querySelector('#player .ap-term-text').textContent.includes(`+string(q)+`)`)); err != nil {
			t.Fatal(err)
		}
		if at, err = chromedp.Run(b.ctx, chromedp.Evaluate[float64](`player.getCurrentTime()`)); err != nil {
			t.Fatal(err)
		}
		if shown {
			break
		}
	}
	if w := (rule["t_ms"].(float64) + data.ShiftMS) / 1000; !shown || at < w-0.01 || at > w+0.01 {
		t.Errorf("the player is at %.3fs, showing %q: %v; want %.3fs, shown", at, want[0], shown, w)
	}

	shot, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(page), ".html")+"-decision.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot at the decision: %s", path)
	if keep := os.Getenv("YUME_HTML_SHOTS"); keep != "" {
		if err := os.WriteFile(filepath.Join(keep, filepath.Base(path)), shot, 0o644); err != nil {
			t.Error(err)
		}
	}
}

// lookAtNearMiss clicks, on the page open, the decisions where no rule
// fired until one marks the rows where a missed rule came nearest, and
// checks that the rule says which part of its pattern found nothing there.
func (b *browser) lookAtNearMiss(t *testing.T) {
	t.Helper()
	defer b.check(t)
	near, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`(() => {
		for (const li of document.querySelectorAll('#entries .entry.miss')) {
			li.click();
			const rows = [...document.querySelectorAll('#screen .row.near')];
			const why = [...document.querySelectorAll('#detail .rule.missed .part')];
			if (rows.length) return rows.map(r => r.dataset.row).concat(why.map(p => p.textContent));
		}
		return [];
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if len(near) == 0 || !strings.Contains(strings.Join(near, "\n"), "found nothing") {
		t.Errorf("no decision without a rule fired marks a near row with the part that found nothing: %q", near)
	}
}
