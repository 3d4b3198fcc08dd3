//go:build unix

package driver_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/transcript"
)

// slowLog is a transcript read in the background (opencode's and Kilo's,
// from the TUI's server): each read takes readTime, and hands over what the
// program had logged when it began.
type slowLog struct {
	readTime time.Duration
	call     *transcript.Event // what the program logged; nil: nothing

	mu       sync.Mutex
	began    time.Time // the read in flight began; zero: none
	handed   time.Time // the newest read handed over began
	reads    int
	maxWait  time.Duration
	reported bool
}

func (l *slowLog) Path() string { return "slow log" }

func (l *slowLog) Poll() ([]transcript.Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	var evs []transcript.Event
	if !l.began.IsZero() && now.Sub(l.began) >= l.readTime {
		l.handed, l.began = l.began, time.Time{}
		l.reads++
		if l.call != nil && !l.reported {
			evs, l.reported = append(evs, *l.call), true
		}
	}
	if l.began.IsZero() {
		l.began = now
	}
	return evs, nil
}

func (l *slowLog) ReadSince(t time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return !l.handed.IsZero() && !l.handed.Before(t)
}

func (l *slowLog) QuestionWait() time.Duration { return l.maxWait }

// TestQuestionWaitsForAFreshLogRead: a question held for its call in a log
// read in the background waits for a read begun after it was seen, however
// slow, and no longer: with the call logged, the tool_use is the log's
// exact call (not the screen's text); with none, the question goes to the
// GUI after one read, far before the log's bound on the wait.
func TestQuestionWaitsForAFreshLogRead(t *testing.T) {
	script := `printf 'Run ls -la? (y/n) '; read a; echo "answer $a"`
	call := &transcript.Event{Kind: transcript.ToolCall, ID: "c1", Name: "Bash",
		Input: map[string]any{"command": "ls -la --color=never", "description": "List the files"}}
	tests := []struct {
		name     string
		log      *slowLog
		wantCmd  string
		wantDesc string
	}{
		// Each read is slower than a fixed wait for the log would be.
		{"call logged, slow reads", &slowLog{readTime: 1500 * time.Millisecond, call: call, maxWait: 20 * time.Second},
			"ls -la --color=never", "List the files"},
		// The bound exceeds the test's timeout: only the fresh read ends the wait.
		{"nothing logged", &slowLog{readTime: 100 * time.Millisecond, maxWait: time.Hour},
			"sh -c " + script, "Run ls -la? (y/n)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := askedOnce(t, tt.log, script)
			if u := r.uses[0]; u.Command != tt.wantCmd || !strings.Contains(u.Desc, tt.wantDesc) {
				t.Errorf("tool_use %q (%q), want %q (%q)", u.Command, u.Desc, tt.wantCmd, tt.wantDesc)
			}
			if res := r.results[r.uses[0].ID]; !strings.Contains(res.str("content"), "answer y") {
				t.Errorf("tool_result %v, want the program's answer", res)
			}
		})
	}
}

// urgingLog is a slowLog whose reads come in gaps: a waiting question
// urges it (Urge).
type urgingLog struct {
	slowLog
	urged []time.Time
}

func (l *urgingLog) Urge(asked time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.urged = append(l.urged, asked)
}

// TestWaitingQuestionUrgesTheLog: a question that waits for a read of a
// log read in gaps urges it once, with when it was seen: the read it
// waits for begins at once, not a gap after the last one.
func TestWaitingQuestionUrgesTheLog(t *testing.T) {
	script := `printf 'Run ls -la? (y/n) '; read a; echo "answer $a"`
	log := &urgingLog{slowLog: slowLog{readTime: 50 * time.Millisecond, maxWait: time.Hour}}
	before := time.Now()
	askedOnce(t, log, script)
	log.mu.Lock()
	defer log.mu.Unlock()
	if len(log.urged) != 1 || log.urged[0].Before(before) || log.urged[0].After(time.Now()) {
		t.Fatalf("urged at %v; want once, as the question was seen", log.urged)
	}
}

// askedOnce drives sh -c script under the generic profile with log as
// its transcript, every question approved, and fails t unless exactly one
// was asked.
func askedOnce(t *testing.T, log transcript.Source, script string) liveRun {
	t.Helper()
	r := driveWith(t, t.TempDir(), generic(t), permission.Default, approveAll, nil, nil,
		func(c *driver.Config) { c.Transcript = log }, "sh", "-c", script)
	if len(r.uses) != 1 {
		t.Fatalf("got %d tool_uses, want 1", len(r.uses))
	}
	return r
}

func generic(t *testing.T) *heuristics.Profile {
	t.Helper()
	p, err := heuristics.LoadProfile("generic")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// startingLog is a transcript that learns when the program first drew.
type startingLog struct {
	slowLog
	release string // a file whose creation lets the silent program print
	drew    []time.Time
	polls   []time.Time // Poll's calls before the first drawing
}

func (l *startingLog) ProgramDrew() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.drew = append(l.drew, time.Now())
}

func (l *startingLog) Poll() ([]transcript.Event, error) {
	l.mu.Lock()
	if len(l.drew) == 0 {
		l.polls = append(l.polls, time.Now())
		if len(l.polls) == 1 {
			_ = os.WriteFile(l.release, nil, 0o644) // polled while silent: now print
		}
	}
	l.mu.Unlock()
	return l.slowLog.Poll()
}

// TestTranscriptLearnsTheFirstDrawing: a transcript read from the program's
// own server waits for it from the program's first output, not from its
// launch (a TUI that draws late is starting); the driver tells it once,
// when that output arrives, not before.
func TestTranscriptLearnsTheFirstDrawing(t *testing.T) {
	done := t.TempDir() + "/go"
	// The program prints nothing until the test saw the log polled while
	// it was silent, then asks and prints more.
	script := `while [ ! -e ` + done + ` ]; do sleep 0.01; done; printf 'Run ls? (y/n) '; read a; echo "answer $a"`
	log := &startingLog{slowLog: slowLog{readTime: 10 * time.Millisecond}, release: done}
	askedOnce(t, log, script)
	log.mu.Lock()
	defer log.mu.Unlock()
	if len(log.drew) != 1 {
		t.Fatalf("ProgramDrew called %d times, want once", len(log.drew))
	}
	if first := log.polls[0]; !log.drew[0].After(first) {
		t.Errorf("told of a drawing at %v, before the silent program's poll at %v", log.drew[0], first)
	}
}

// searchingLog is a transcript that searches for its session among
// others' and has not found it (opencode's and Kilo's, two TUIs in one
// workspace): its Path names the search.
type searchingLog struct{ found bool }

func (l *searchingLog) Poll() ([]transcript.Event, error) { return nil, nil }
func (l *searchingLog) Path() string                      { return "sessions (finding this run's session)" }
func (l *searchingLog) SessionFound() bool                { return l.found }

// TestIdleWaitsForASessionStillSearchedFor: a program started with its
// prompt that shows its ready input box, while its transcript still
// searches for its session, has not taken the prompt yet (Kilo beside its
// twin and a hog): the turn is not over after the idle timeout, but
// after stallFactor (3) of them, as for a transcript not there at all.
func TestIdleWaitsForASessionStillSearchedFor(t *testing.T) {
	prof, err := heuristics.ParseProfile("box.yaml", []byte(`name: box
description: a test input box
ready: '(?m)^READY>'
quit: '<C-d>'
rules: []
`))
	if err != nil {
		t.Fatal(err)
	}
	const idle = 400 * time.Millisecond
	for _, found := range []bool{false, true} {
		t.Run(fmt.Sprintf("found=%v", found), func(t *testing.T) {
			r := driveWith(t, t.TempDir(), prof, permission.Default, nil, nil, nil, func(c *driver.Config) {
				c.Transcript, c.IdleTimeout = &searchingLog{found: found}, idle
			}, "sh", "-c", `printf 'READY> '; read x`)
			end := traceAt(r.trace, "the turn is done: the program is back at its input box")
			switch {
			case end < 0:
				t.Fatalf("the turn did not end at the idle input box")
			case !found && end < float64(3*idle/time.Millisecond):
				t.Errorf("the turn ended at %.0f ms, while the session was still searched for: want at least %v", end, 3*idle)
			}
		})
	}
}

// TestSilentBoundWaitsForASessionStillSearchedFor: a program busy from its
// start whose transcript still searches for its session has not taken its
// prompt (Kilo on a loaded machine: its spinner up 22 s before its
// session began): the silent-retry bound does not stop it after the bound
// from the turn's start, but after stallFactor (3) of them; a session
// found is silent from its start, stopped after one.
func TestSilentBoundWaitsForASessionStillSearchedFor(t *testing.T) {
	prof, err := heuristics.ParseProfile("spin.yaml", []byte(`name: spin
description: a test program busy at once
busy: 'esc to interrupt'
quit: '<C-c>'
rules: []
`))
	if err != nil {
		t.Fatal(err)
	}
	const errorBound = 200 * time.Millisecond // the silent bound: twice this
	for _, found := range []bool{false, true} {
		t.Run(fmt.Sprintf("found=%v", found), func(t *testing.T) {
			r := driveWith(t, t.TempDir(), prof, permission.Default, nil, nil, nil, func(c *driver.Config) {
				c.Transcript, c.ErrorBound = &searchingLog{found: found}, errorBound
			}, "sh", "-c", `i=0; while :; do i=$((i+1)); printf '\r* Working %s (esc to interrupt)' "$i"; sleep 0.05; done`)
			end := traceAt(r.trace, "no word of progress")
			bound := float64(2 * errorBound / time.Millisecond)
			switch {
			case end < 0:
				t.Fatalf("the silent bound never stopped the program")
			case !found && end < 3*bound:
				t.Errorf("stopped at %.0f ms while the session was searched for: want at least %.0f", end, 3*bound)
			case found && end >= 3*bound:
				t.Errorf("stopped at %.0f ms with the session found: want before %.0f", end, 3*bound)
			}
		})
	}
}

// TestStallWaitsForAProgramStillStarting: a TUI that shows its banner and
// computes on, its session not begun (Codex beside a CPU hog: 15 s and
// more before it took its prompt), is still starting, not stalled: the
// turn ends at its input box, not on its banner after stallFactor (3)
// idle timeouts. With nothing to compute, the same banner stalls.
func TestStallWaitsForAProgramStillStarting(t *testing.T) {
	prof, err := heuristics.ParseProfile("banner.yaml", []byte(`name: banner
description: a TUI slow to start
ready: '(?m)^READY>'
quit: '<C-d>'
rules: []
`))
	if err != nil {
		t.Fatal(err)
	}
	const idle = 300 * time.Millisecond
	// The banner, then 2 s of work (a bash loop on the clock, no child
	// process), then the input box.
	const computes = `printf '\033[?1049h\033[HBANNER\r\n'; end=$(( ${EPOCHREALTIME/./} + 2000000 )); while (( ${EPOCHREALTIME/./} < end )); do :; done; printf 'READY> '; read x`
	const sleeps = `printf '\033[?1049h\033[HBANNER\r\n'; sleep 2; printf 'READY> '; read x`
	// The same 2 s as bursts: 30 ms of work, 70 ms asleep (a look at the
	// program mostly finds it asleep; the CPU time it used says it works).
	const bursts = `printf '\033[?1049h\033[HBANNER\r\n'; stop=$(( ${EPOCHREALTIME/./} + 2000000 )); while (( ${EPOCHREALTIME/./} < stop )); do end=$(( ${EPOCHREALTIME/./} + 30000 )); while (( ${EPOCHREALTIME/./} < end )); do :; done; read -t 0.07 <> <(:); done; printf 'READY> '; read x`
	for _, c := range []struct {
		name, script string
		stalls       bool
	}{
		{"computing", computes, false},
		{"computing in bursts", bursts, false},
		{"asleep", sleeps, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := driveWith(t, t.TempDir(), prof, permission.Default, nil, nil, nil, func(cfg *driver.Config) {
				cfg.Transcript, cfg.IdleTimeout = &searchingLog{found: false}, idle
			}, "bash", "--norc", "-c", c.script)
			stalled := strings.Contains(r.trace, `"detail":"stalled: `)
			if stalled != c.stalls {
				t.Errorf("stalled: %v, want %v; trace:\n%s", stalled, c.stalls, r.trace)
			}
		})
	}
}

// traceAt is the time (ms) of the first trace line that contains text; -1
// when none does.
func traceAt(trace, text string) float64 {
	for line := range strings.SplitSeq(trace, "\n") {
		if strings.Contains(line, text) {
			var l struct {
				T float64 `json:"t_ms"`
			}
			if json.Unmarshal([]byte(line), &l) == nil {
				return l.T
			}
		}
	}
	return -1
}

// lateLog is a transcript found at once that logs its call late: delay
// after its first read.
type lateLog struct {
	delay time.Duration
	call  transcript.Event

	mu       sync.Mutex
	first    time.Time
	reported bool
}

func (l *lateLog) Path() string { return "late log" }

func (l *lateLog) Poll() ([]transcript.Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.first.IsZero() {
		l.first = time.Now()
	}
	if l.reported || time.Since(l.first) < l.delay {
		return nil, nil
	}
	l.reported = true
	return []transcript.Event{l.call}, nil
}

// TestWrappedCommandWaitsForTheLog: a command the screen shows over
// wrapped rows is the screen reader's guess (Claude Code wraps at spaces
// and draws none at the break): the question waits for the transcript's
// exact call though it comes late, as Claude Code's did on a loaded
// machine (940 ms after its dialog). A command on one row is exact on
// screen and waits no longer than before: it goes before the late call.
func TestWrappedCommandWaitsForTheLog(t *testing.T) {
	prof, err := heuristics.ParseProfile("wrap.yaml", []byte(`name: wrap
description: a dialog that wraps its command at a space
quit: '<C-c>'
rules:
  - name: dialog
    match: '(?m)^Shell command\n  \$ (?P<command>(?:.+\n)+?)> 1\. Yes$'
    kind: menu
    approve: 'y<Enter>'
    deny: 'n<Enter>'
`))
	if err != nil {
		t.Fatal(err)
	}
	const exact = "echo alpha beta-gamma delta"
	tests := []struct {
		name, rows, logged, want string
	}{
		// Drawn over two rows, the break where a space was: the join
		// cannot tell "beta-gamma" from "beta- gamma".
		{"wrapped", `  $ echo alpha beta-\n    gamma delta\n`, exact, exact},
		// The log's copy differs, to tell which the tool_use came from:
		// the screen's, asked before the late log.
		{"one row", `  $ echo alpha beta-gamma delta\n`, exact + " --logged", exact},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := &lateLog{delay: 2500 * time.Millisecond, call: transcript.Event{Kind: transcript.ToolCall, ID: "c1", Name: "Bash",
				Input: map[string]any{"command": tt.logged}}}
			script := `printf 'Shell command\n` + tt.rows + `> 1. Yes\n'; read a; echo "answer $a"`
			r := driveWith(t, t.TempDir(), prof, permission.Default, approveAll, nil, nil,
				func(c *driver.Config) { c.Transcript = log }, "sh", "-c", script)
			if len(r.uses) != 1 {
				t.Fatalf("got %d tool_uses, want 1", len(r.uses))
			}
			if got := r.uses[0].Command; got != tt.want {
				t.Errorf("tool_use %q, want %q", got, tt.want)
			}
		})
	}
}

// endingLog is a transcript whose turn ends once a file exists.
type endingLog struct {
	marker string
	ended  bool
}

func (l *endingLog) Path() string { return "ending log" }

func (l *endingLog) Poll() ([]transcript.Event, error) {
	if _, err := os.Stat(l.marker); err != nil || l.ended {
		return nil, nil
	}
	l.ended = true
	return []transcript.Event{{Kind: transcript.TurnEnd}}, nil
}

// TestNoRuleFiresOnceTheLogEndsTheTurn: the transcript read as a screen
// settles ends the turn (Copilot CLI's turn_end) while that screen shows
// what an input rule answers (its folded output's Ctrl-O): only the quit
// keys are typed, as on every screen after the turn is done. CI saw the
// Ctrl-O typed after the first quit key live, and a replay that read the
// log's end at another screen typed none: keys differ.
func TestNoRuleFiresOnceTheLogEndsTheTurn(t *testing.T) {
	prof, err := heuristics.ParseProfile("fold.yaml", []byte(`name: fold
description: a TUI that folds a command's output
quit: '<C-c>'
rules:
  - name: unfold
    match: '(?m)^\$ Shell .* 3 lines…'
    kind: input
    approve: '<C-o>'
`))
	if err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 5; round++ {
		dir := t.TempDir()
		log := &endingLog{marker: dir + "/ended"}
		// The log's end is written before the screen is drawn: the other
		// way round, a loaded machine ran touch after the screen had
		// settled, and Ctrl-O was rightly typed on a turn not yet ended.
		script := `touch ` + log.marker + `; printf '$ Shell Show the files 3 lines…\n'; while read -r x; do :; done`
		r := driveWith(t, dir, prof, permission.Default, approveAll, nil, nil,
			func(c *driver.Config) { c.Transcript = log }, "sh", "-c", script)
		for _, k := range r.keys {
			if !strings.HasPrefix(k, "quit ") {
				t.Fatalf("round %d: typed %s once the transcript ended the turn; keys: %q", round, k, r.keys)
			}
		}
	}
}
