package heuristics

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// testProfile has one rule of each shape the engine treats differently.
const testProfile = `
name: test
rules:
  - name: ask
    match: '(?m)^(?P<prompt>Run it\?) \[y/n\]$'
    kind: confirm
    cursor: end
    approve: 'y<Enter>'
    deny: 'n<Enter>'
  - name: cmd
    match: '(?m)^Command: (?P<command>.+)$'
    kind: suggestion
  - name: back
    look: transcript:10
    match: '(?m)^(?P<text>Welcome.*)$'
    kind: text
  - name: tail
    look: bottom:1
    match: '(?m)^(?P<text>bye)$'
    kind: done
`

func mustProfile(t testing.TB, yaml string) *Profile {
	t.Helper()
	p, err := ParseProfile("test.yaml", []byte(yaml))
	if err != nil {
		t.Fatalf("bad test profile:\n%v", err)
	}
	return p
}

// whys lists "rule: why" for each trace step.
func whys(trace []TraceStep) []string {
	var out []string
	for _, s := range trace {
		out = append(out, s.Rule+": "+s.Why)
	}
	return out
}

func TestEngineEvaluateTrace(t *testing.T) {
	tests := []struct {
		name    string
		view    *fakeView
		settled bool
		fired   string
		why     []string
	}{
		{"blank screen", newFakeView(40, 5), true, "", []string{
			"ask: no match in rows 0-4", "cmd: no match in rows 0-4", "back: no match in rows 0-4", "tail: no rows to look at (screen blank)"}},
		{"cursor after prompt fires unsettled", newFakeView(40, 5, "Run it? [y/n] "), false, "ask", []string{"ask: fired"}},
		{"cursor after output", newFakeView(40, 5, "Run it? [y/n]", "", "building").at(2, 8), false, "", []string{
			"ask: no match ending at the cursor (2,8)", "cmd: not settled", "back: not settled", "tail: not settled"}},
		{"cursor on a blank row", newFakeView(40, 5, "Run it? [y/n]", "").at(1, 0), false, "", []string{
			"ask: not settled, and cursor at 1,0 does not follow text", "cmd: not settled", "back: not settled", "tail: not settled"}},
		{"cursor elsewhere", newFakeView(40, 5, "Run it? [y/n]").at(3, 0), true, "", []string{
			"ask: matched but cursor at 3,0 not after match end 0,13", "cmd: no match in rows 0-4", "back: no match in rows 0-4", "tail: no match in rows 0-0"}},
		{"answer typed", newFakeView(40, 5, "Run it? [y/n] y"), true, "", []string{
			"ask: no match in rows 0-4", "cmd: no match in rows 0-4", "back: no match in rows 0-4", "tail: no match in rows 0-0"}},
		{"unsettled skips others", newFakeView(40, 5, "Command: make", "bye"), false, "", []string{
			"ask: no match ending at the cursor (1,3)", "cmd: not settled", "back: not settled", "tail: not settled"}},
		{"settled suggestion", newFakeView(40, 5, "Command: make", "bye"), true, "cmd", []string{
			"ask: no match in rows 0-4", "cmd: fired"}},
		{"bottom rows", newFakeView(40, 5, "bye", "", "x"), true, "", []string{
			"ask: no match in rows 0-4", "cmd: no match in rows 0-4", "back: no match in rows 0-4", "tail: no match in rows 2-2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := NewEngine(mustProfile(t, testProfile))
			d, trace := e.Evaluate(tt.view, tt.settled)
			got := ""
			if d != nil {
				got = d.Rule.Name
			}
			if got != tt.fired {
				t.Errorf("fired %q, want %q", got, tt.fired)
			}
			if w := whys(trace); !reflect.DeepEqual(w, tt.why) {
				t.Errorf("trace:\n  %s\nwant:\n  %s", strings.Join(w, "\n  "), strings.Join(tt.why, "\n  "))
			}
		})
	}
}

// The same prompt fires once; it fires again only after it left the screen.
func TestEngineEvaluateNeverTwice(t *testing.T) {
	e := NewEngine(mustProfile(t, testProfile))
	v := newFakeView(40, 5, "$ ./deploy", "Run it? [y/n] ")
	if d, _ := e.Evaluate(v, true); d == nil || d.Prompt != "Run it?" || d.Kind != KindConfirm {
		t.Fatalf("first evaluation: %+v", d)
	}
	if d, tr := e.Evaluate(v, true); d != nil || tr[0].Why != "already fired" {
		t.Fatalf("second evaluation fired %+v (%v)", d, whys(tr))
	}
	// The question scrolls up one row: the same absolute line, still answered.
	v.scroll(1)
	v.at(0, 14)
	if d, tr := e.Evaluate(v, true); d != nil || tr[0].Why != "already fired" {
		t.Fatalf("same absolute line fired again: %v", whys(tr))
	}
	// Gone from the screen, then asked again on the same line: fires again.
	v.lines = []string{"done"}
	if d, _ := e.Evaluate(v, true); d != nil {
		t.Fatalf("fired on %q", v.lines)
	}
	v.lines = []string{"Run it? [y/n] "}
	if d, _ := e.Evaluate(v, true); d == nil {
		t.Fatal("the same question asked again did not fire")
	}
}

// A cursor that leaves a prompt while output is unsettled (a status line
// redrawn elsewhere) does not make the prompt new: it must not fire again
// when the cursor comes back.
func TestEngineEvaluateCursorWandersOff(t *testing.T) {
	e := NewEngine(mustProfile(t, testProfile))
	v := newFakeView(40, 5, "Run it? [y/n] ", "", "", "", "12:00")
	v.at(0, 14)
	if d, _ := e.Evaluate(v, false); d == nil {
		t.Fatal("prompt did not fire")
	}
	v.lines[4] = "12:01"
	v.at(4, 5)
	e.Evaluate(v, false)
	v.at(0, 14)
	if d, tr := e.Evaluate(v, false); d != nil {
		t.Fatalf("fired again after the cursor came back: %v", whys(tr))
	}
}

// A prompt that moved to another absolute row is a new question.
func TestEngineEvaluateScrolledPromptIsNew(t *testing.T) {
	e := NewEngine(mustProfile(t, testProfile))
	v := newFakeView(40, 3, "Run it? [y/n] y", "ok", "Run it? [y/n] ")
	d1, _ := e.Evaluate(v, true)
	v.scroll(1, "Run it? [y/n] ")
	v.lines[1] = "Run it? [y/n] y"
	v.at(2, 14)
	d2, tr := e.Evaluate(v, true)
	if d1 == nil || d2 == nil || d1.Key == d2.Key {
		t.Fatalf("second prompt on a new line: d1 %v d2 %v (%v)", d1, d2, whys(tr))
	}
	if !reflect.DeepEqual(d2.Rows, []int{2}) {
		t.Errorf("rows = %v", d2.Rows)
	}
}

func TestEngineEvaluateGeneration(t *testing.T) {
	e := NewEngine(mustProfile(t, testProfile))
	g := &genView{fakeView: newFakeView(40, 5, "Command: make", "Run it? [y/n] "), gen: 7}
	d, _ := e.Evaluate(g, false)
	if d == nil || d.Rule.Name != "ask" {
		t.Fatalf("unsettled: %+v", d)
	}
	// A detection is followed by another evaluation of the same screen:
	// the next rule must get its turn.
	d, _ = e.Evaluate(g, true)
	if d == nil || d.Rule.Name != "cmd" || d.Command != "make" {
		t.Fatalf("settled: %+v", d)
	}
	d, tr := e.Evaluate(g, true)
	if d != nil || len(tr) != len(e.Profile().Rules) {
		t.Fatalf("third: %+v %v", d, whys(tr))
	}
	d, tr = e.Evaluate(g, true)
	if d != nil || len(tr) != 1 || tr[0].Why != "screen unchanged (generation 7)" {
		t.Fatalf("unchanged screen evaluated again: %v", whys(tr))
	}
	g.lines[0] = "Command: make test"
	g.gen++
	if d, _ := e.Evaluate(g, true); d == nil || d.Command != "make test" {
		t.Fatalf("changed screen: %+v", d)
	}
}

func TestEngineEvaluateTranscriptRows(t *testing.T) {
	e := NewEngine(mustProfile(t, testProfile))
	v := newFakeView(40, 3, "a", "b", "c")
	v.back = []string{"Welcome to x", "old"}
	v.retired = 2
	d, _ := e.Evaluate(v, true)
	if d == nil || d.Text != "Welcome to x" || !reflect.DeepEqual(d.Rows, []int{-2}) {
		t.Fatalf("transcript detection: %+v", d)
	}
	if !strings.HasSuffix(d.Key, "\x000") {
		t.Errorf("key %q: want absolute row 0 (retired 2 + row -2)", d.Key)
	}
}

// A command soft-wrapped at the screen width is one line to the regex.
func TestEngineEvaluateSoftWrap(t *testing.T) {
	e := NewEngine(mustProfile(t, testProfile))
	v := newFakeView(20, 4, "Command: npm run bui", "ld -- --watch", "Run it? [y/n] ")
	d, _ := e.Evaluate(v, true)
	if d == nil || d.Rule.Name != "ask" {
		t.Fatalf("first: %+v", d)
	}
	d, _ = e.Evaluate(v, true)
	if d == nil || d.Command != "npm run build -- --watch" || !reflect.DeepEqual(d.Rows, []int{0, 1}) {
		t.Fatalf("wrapped command: %+v", d)
	}
}

// A prompt ending in the last column leaves the cursor pending-wrap there.
func TestEngineEvaluateCursorPendingWrap(t *testing.T) {
	e := NewEngine(mustProfile(t, testProfile))
	v := newFakeView(13, 3, "Run it? [y/n]").at(0, 12)
	if d, tr := e.Evaluate(v, false); d == nil {
		t.Fatalf("pending-wrap cursor: %v", whys(tr))
	}
}

func TestEngineStillShows(t *testing.T) {
	e := NewEngine(mustProfile(t, testProfile))
	v := newFakeView(40, 5, "Command: rm -rf build", "Run it? [y/n] ")
	e.Evaluate(v, true)
	d, _ := e.Evaluate(v, true)
	if d == nil || d.Command != "rm -rf build" {
		t.Fatalf("detection: %+v", d)
	}
	if !e.StillShows(v, d) {
		t.Error("StillShows = false on the same screen")
	}
	v.at(4, 0) // the cursor does not matter
	if !e.StillShows(v, d) {
		t.Error("StillShows = false after the cursor moved")
	}
	v.lines[0] = "Command: rm -rf /"
	if e.StillShows(v, d) {
		t.Error("StillShows = true after the command changed")
	}
	if e.StillShows(v, nil) {
		t.Error("StillShows(nil) = true")
	}
}

func TestEngineEvaluateGroupsInTrace(t *testing.T) {
	e := NewEngine(mustProfile(t, testProfile))
	_, tr := e.Evaluate(newFakeView(40, 5, "Command: make").at(3, 0), true)
	want := map[string]string{"command": "make"}
	if len(tr) < 2 || !reflect.DeepEqual(tr[1].Groups, want) || !reflect.DeepEqual(tr[1].Rows, []int{0}) {
		t.Errorf("trace step: %+v", tr)
	}
}

// BenchmarkEvaluate runs the generic profile over a full 120x40 screen of
// build output ending in a question, as after every settle.
func BenchmarkEvaluate(b *testing.B) {
	p, err := LoadProfile("generic")
	if err != nil {
		b.Fatal(err)
	}
	lines := make([]string, 40)
	for i := range lines[:39] {
		lines[i] = fmt.Sprintf("[%3d/400] CC src/module_%03d/file_with_a_long_name_%03d.o -O2 -Wall -Wextra -fPIC -Iinclude -Ithird_party/include", i, i, i)
	}
	lines[39] = "Do you want to continue? [Y/n] "
	v := newFakeView(120, 40, lines...)
	e := NewEngine(p)
	b.ReportAllocs()
	for b.Loop() {
		clear(e.fired) // a new question each time
		if d, _ := e.Evaluate(v, true); d == nil {
			b.Fatal("no detection")
		}
	}
}

// BenchmarkEvaluateUnsettled is the per-write path while a progress line
// is drawn: the cursor follows text, so cursor: end rules run.
func BenchmarkEvaluateUnsettled(b *testing.B) {
	p, err := LoadProfile("generic")
	if err != nil {
		b.Fatal(err)
	}
	lines := make([]string, 40)
	for i := range lines[:39] {
		lines[i] = fmt.Sprintf("[%3d/400] CC src/module_%03d/file_with_a_long_name_%03d.o -O2 -Wall -Wextra -fPIC -Iinclude -Ithird_party/include", i, i, i)
	}
	lines[39] = "Downloading [=============>        ] 63% (y/n keys are disabled)"
	v := newFakeView(120, 40, lines...)
	e := NewEngine(p)
	b.ReportAllocs()
	for b.Loop() {
		if d, _ := e.Evaluate(v, false); d != nil {
			b.Fatal("unexpected detection")
		}
	}
}

// BenchmarkEvaluateNoMatch is the common case: a settled screen of output
// that no rule matches.
func BenchmarkEvaluateNoMatch(b *testing.B) {
	p, err := LoadProfile("generic")
	if err != nil {
		b.Fatal(err)
	}
	lines := make([]string, 40)
	for i := range lines {
		lines[i] = fmt.Sprintf("[%3d/400] CC src/module_%03d/file_with_a_long_name_%03d.o -O2 -Wall -Wextra -fPIC -Iinclude -Ithird_party/include", i, i, i)
	}
	v := newFakeView(120, 40, lines...)
	e := NewEngine(p)
	b.ReportAllocs()
	for b.Loop() {
		if d, _ := e.Evaluate(v, true); d != nil {
			b.Fatal("unexpected detection")
		}
	}
}
