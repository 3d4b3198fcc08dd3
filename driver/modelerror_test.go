//go:build unix

package driver_test

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/ptyhost"
	"github.com/yume-cli/yume-cli/transcript"
)

// errorTUIProfile reads the fake model-error TUIs below: a ready input
// box, a done rule, and an error rule in the program's own words.
const errorTUIProfile = `name: errtui
description: a stand-in for an AI TUI whose model fails
ready: '(?m)^READY>$'
quit: '<C-c>'
rules:
  - name: done
    match: '(?m)^\* (?P<text>Finished.*)\n\nIDLE$'
    kind: done
  - name: tired
    match: '(?m)^!! (?P<text>the robot is tired.*)$'
    kind: error
`

// The fake TUIs: each draws this turn's prompt, then what a CLI draws
// when its model's service fails. The sleeps are the program's retry
// back-off, part of its behaviour.
const (
	// Retries twice on screen, then gives up back at its input box.
	givesUp = `printf '\033[?1049h\033[H\033[2J> say hello\n\n* Working (esc to interrupt)\n  API Error (429 Too Many Requests) · Retrying in 1s (attempt 1/3)\n'
sleep 0.4
printf '\033[H\033[2J> say hello\n\n* Working (esc to interrupt)\n  API Error (429 Too Many Requests) · Retrying in 1s (attempt 2/3)\n'
sleep 0.4
printf '\033[H\033[2J> say hello\n\n● API Error: 429 rate limited\n\nREADY>\n'
while :; do sleep 0.05; done
`
	// Retries for ever, its spinner ticking.
	retriesForever = `i=0
while :; do
  i=$((i+1))
  printf '\033[H\033[2J> say hello\n\n* Working %s (esc to interrupt)\n  API Error: 500 Internal Server Error · Retrying in 1s (attempt 1/10)\n' "$i"
  sleep 0.2
done
`
	// Says so and exits with status 0, no answer.
	exitsZero = `printf '> say hello\nError: 401 Unauthorized (invalid API key)\n'
sleep 0.2
exit 0
`
	// A retry that works: the answer follows the error.
	recovers = `printf '\033[?1049h\033[H\033[2J> say hello\n\n* Working (esc to interrupt)\n  API Error: 503 Service Unavailable · Retrying in 1s (attempt 1/5)\n'
sleep 0.4
printf '\033[H\033[2J> say hello\n\n  API Error: 503 Service Unavailable · Retrying in 1s (attempt 1/5)\n* Finished: said hi.\n\nIDLE\n'
trap 'exit 0' INT
while :; do sleep 0.05; done
`
	// Retries without a word: only its spinner moves.
	silent = `i=0
while :; do
  i=$((i+1))
  printf '\033[H\033[2J> say hello\n\n⠋ Thinking... (esc to cancel, %ss)\n' "$i"
  sleep 0.2
done
`
	// A command's output reads like an error; the model works on past the
	// bound and answers.
	outputLikeAnError = `i=0
printf '\033[?1049h'
while [ "$i" -lt 12 ]; do
  i=$((i+1))
  printf '\033[H\033[2J> say hello\n\n  | curl: Error: 500 Internal Server Error\n* Working %s (esc to interrupt)\n' "$i"
  sleep 0.2
done
printf '\033[H\033[2J> say hello\n\n  | curl: Error: 500 Internal Server Error\n* Finished: said hi.\n\nIDLE\n'
trap 'exit 0' INT
while :; do sleep 0.05; done
`
	// Retries a refused key ten times, as Claude Code does.
	refusedKey = `i=0
printf '\033[?1049h'
while :; do
  i=$((i+1))
  printf '\033[H\033[2J> say hello\n\n* Working (esc to interrupt)\n  API Error: 401 invalid x-api-key · Retrying in 1s · attempt %s/10\n' "$i"
  sleep 0.3
done
`
	// Its own wording, known to the profile's error rule only.
	ownWords = `printf '\033[?1049h\033[H\033[2J> say hello\n\n!! the robot is tired, come back tomorrow\n\nREADY>\n'
while :; do sleep 0.05; done
`
)

func TestDriveModelErrors(t *testing.T) {
	prof, err := heuristics.ParseProfile("errtui.yaml", []byte(errorTUIProfile))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, script string
		wantErr      bool
		want         []string // in the result
		minNotices   int
		maxTook      time.Duration
		bound        time.Duration // 0: 1.5 s
	}{
		{"gives up at its input box", givesUp, true, []string{"429 rate limited", "wait"}, 2, 5 * time.Second, 0},
		{"retries past the bound", retriesForever, true, []string{"500 Internal Server Error", "try again later", "stopped it"}, 2, 6 * time.Second, 0},
		{"exits 0 after the error", exitsZero, true, []string{"401 Unauthorized", "check the API key"}, 1, 5 * time.Second, 0},
		{"the retry works", recovers, false, []string{"Finished: said hi."}, 1, 5 * time.Second, 0},
		{"retries without a word", silent, true, []string{"no answer, no tool call", "stopped it"}, 1, 7 * time.Second, 0},
		{"output that reads like an error", outputLikeAnError, false, []string{"Finished: said hi."}, 0, 6 * time.Second, 0},
		{"the profile's own words", ownWords, true, []string{"the robot is tired, come back tomorrow"}, 1, 5 * time.Second, 0},
		// No retry fixes a refused key: the turn ends at once, not at the bound.
		{"a refused key retried", refusedKey, true, []string{"no retry can fix", "401", "check the API key"}, 1, 4 * time.Second, time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			marks := &markingTerm{}
			r := driveWith(t, t.TempDir(), prof, permission.Default, nil, nil, nil, func(c *driver.Config) {
				c.ErrorBound = cmp.Or(tt.bound, 1500*time.Millisecond)
				c.IdleTimeout = 3 * time.Second
				marks.Terminal, c.Term = c.Term, marks
			}, "sh", "-c", tt.script)
			took := time.Since(start)
			if r.err != nil {
				t.Fatal(r.err)
			}
			// What Yume shows: system error and rate_limit; notices are
			// hidden, so no model error may be one.
			results, notices := 0, map[string]int{}
			var last string
			for _, ev := range r.events {
				switch {
				case ev.str("type") == "result":
					results++
				case ev.str("type") == "system" && (ev.str("subtype") == "error" || ev.str("subtype") == "rate_limit"):
					notices[ev.str("message")]++
					last = ev.str("message")
					retrying := strings.Contains(last, "retries:") || strings.Contains(last, "answered with an error:")
					if retrying && strings.Contains(last, "429") != (ev.str("subtype") == "rate_limit") {
						t.Errorf("%s %q: a 429 is rate_limit, the rest error", ev.str("subtype"), last)
					}
				case ev.str("type") == "system" && strings.Contains(ev.str("message"), "model's service"):
					t.Errorf("a model error as %s, which Yume hides: %q", ev.str("subtype"), ev.str("message"))
				}
			}
			res := r.result(t)
			if results != 1 {
				t.Errorf("%d results, want one", results)
			}
			if res["is_error"] != tt.wantErr || r.outcome.Failed != tt.wantErr {
				t.Errorf("result is_error %v, outcome failed %v; want %v: %v", res["is_error"], r.outcome.Failed, tt.wantErr, res)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.str("result"), w) {
					t.Errorf("result %q does not say %q", res.str("result"), w)
				}
			}
			if tt.wantErr && last != res.str("result") && last != "yume-cli: "+res.str("result") {
				t.Errorf("the last system message %q does not say the result %q", last, res.str("result"))
			}
			errNotices := 0
			for m, n := range notices {
				if n > 1 {
					t.Errorf("message %q given %d times, want once", m, n)
				}
				if strings.Contains(m, "model's service") || strings.Contains(m, "stopped it") {
					errNotices++
				}
			}
			if errNotices < tt.minNotices {
				t.Errorf("%d model error notices (%v), want at least %d", errNotices, notices, tt.minNotices)
			}
			// Every model error told was marked, where a cast shows it.
			told := slices.ContainsFunc(slices.Collect(maps.Keys(notices)), func(m string) bool { return strings.Contains(m, "model's service") })
			if told && !slices.ContainsFunc(marks.got(), func(l string) bool { return strings.HasPrefix(l, "model error (") }) {
				t.Errorf("a model error told, none marked for a cast: marks %q", marks.got())
			}
			if took > tt.maxTook {
				t.Errorf("took %v, want at most %v", took, tt.maxTook)
			}
		})
	}
}

// markingTerm is a terminal that keeps the driver's marks, as a cast does.
type markingTerm struct {
	ptyhost.Terminal
	mu     sync.Mutex
	labels []string
}

func (m *markingTerm) Mark(label string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.labels = append(m.labels, label)
}

func (m *markingTerm) got() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.labels)
}

func (m *markingTerm) Unwrap() ptyhost.Terminal { return m.Terminal }

// errorLog is a program's transcript that tells, from its nth read on, the
// status of the retry its screen shows without one.
type errorLog struct {
	mu    sync.Mutex
	reads int
	from  int
	text  string
}

func (l *errorLog) Path() string { return "error log" }

func (l *errorLog) LogsRetries() bool { return true }

func (l *errorLog) Poll() ([]transcript.Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reads++
	if l.reads == l.from {
		return []transcript.Event{{Kind: transcript.ModelError, Text: l.text}}, nil
	}
	return nil, nil
}

// TestRetryWordsWaitForTheStatus: the screen's words of a retry that
// names no status ("API error · Retrying in 1s · attempt 1/10", Claude
// Code's) wait a moment for the transcript's, which name it: a 429 told by
// the transcript reaches the GUI once, as rate_limit; with no word from the
// transcript the screen's words do, as an error, still within 2 s.
func TestRetryWordsWaitForTheStatus(t *testing.T) {
	prof, err := heuristics.ParseProfile("errtui.yaml", []byte(errorTUIProfile))
	if err != nil {
		t.Fatal(err)
	}
	script := `printf '\033[?1049h'
i=0
while :; do
  i=$((i+1))
  printf '\033[H\033[2J> say hello\n\n* Working %s (esc to interrupt)\n  API error · Retrying in 1s · attempt 1/10\n' "$i"
  sleep 0.1
done
`
	for _, tc := range []struct {
		name    string
		log     *errorLog
		subtype string
		words   string
	}{
		{"the transcript names the status", &errorLog{from: 2, text: "API error (attempt 1/11): HTTP 429 rate_limit_error: slow down"}, "rate_limit", "HTTP 429"},
		{"no word from the transcript", &errorLog{from: -1}, "error", "API error · Retrying in 1s · attempt 1/10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := driveWith(t, t.TempDir(), prof, permission.Default, nil, nil, nil, func(c *driver.Config) {
				c.ErrorBound = 2500 * time.Millisecond
				c.Transcript = tc.log
			}, "sh", "-c", script)
			var told []event
			for _, ev := range r.events {
				if ev.str("type") == "system" && strings.Contains(ev.str("message"), "retries:") {
					told = append(told, ev)
				}
			}
			if len(told) != 1 || told[0].str("subtype") != tc.subtype || !strings.Contains(told[0].str("message"), tc.words) {
				t.Errorf("told %v, want one %s saying %q", told, tc.subtype, tc.words)
			}
		})
	}
}
