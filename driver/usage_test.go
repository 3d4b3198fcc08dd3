//go:build unix

package driver_test

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/transcript"
)

// tokenLog is a transcript that holds only tokens: the first read gets
// early, each later read whatever is in late (once).
type tokenLog struct {
	mu          sync.Mutex
	early, late []transcript.Event
	reads       int
}

func (l *tokenLog) Path() string { return "token log" }

func (l *tokenLog) Poll() ([]transcript.Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reads++
	if l.reads == 1 {
		return l.early, nil
	}
	evs := l.late
	l.late = nil
	return evs, nil
}

func tok(id string, in, out, read, write int, cost float64) transcript.Event {
	return transcript.Event{Kind: transcript.Tokens, ID: id,
		Usage: &transcript.Usage{Input: in, Output: out, CacheRead: read, CacheWrite: write, CostUSD: cost}}
}

// TestResultUsageFromLog: a PTY turn's result carries the tokens the
// program's transcript told of it, each request once (its last report), in
// Claude's split, with their cost where the program priced them; a turn
// whose transcript told none has no usage at all, never zeros (Yume takes a
// result of 0 input and 0 output for a compaction), and no cost.
func TestResultUsageFromLog(t *testing.T) {
	tests := []struct {
		name      string
		log       *tokenLog
		wantUsage any
		wantCost  any
	}{
		{"no log tokens", &tokenLog{}, nil, nil},
		{"two requests, one told twice", &tokenLog{early: []transcript.Event{tok("r1", 101, 1, 1001, 201, 0), tok("r1", 101, 11, 1001, 201, 0), tok("r2", 102, 12, 1002, 202, 0)}},
			map[string]any{"input_tokens": 203.0, "output_tokens": 23.0, "cache_read_input_tokens": 2003.0, "cache_creation_input_tokens": 403.0}, nil},
		// Written just as the program ends: read before the result.
		{"written at the end", &tokenLog{late: []transcript.Event{tok("r1", 5, 7, 0, 0, 0.25)}},
			map[string]any{"input_tokens": 5.0, "output_tokens": 7.0, "cache_read_input_tokens": 0.0, "cache_creation_input_tokens": 0.0}, 0.25},
		// The transcript's text with its request's tokens: its message carries them.
		{"text with its tokens", &tokenLog{early: []transcript.Event{tok("r1", 3, 4, 50, 6, 0),
			{Kind: transcript.Text, Text: "from the transcript", Usage: &transcript.Usage{Input: 3, Output: 4, CacheRead: 50, CacheWrite: 6}}}},
			map[string]any{"input_tokens": 3.0, "output_tokens": 4.0, "cache_read_input_tokens": 50.0, "cache_creation_input_tokens": 6.0}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := driveWith(t, t.TempDir(), generic(t), permission.Default, nil, nil, nil,
				func(c *driver.Config) { c.Transcript = tt.log }, "sh", "-c", "echo hello there")
			var res event
			for _, ev := range r.events {
				if ev.str("type") == "result" {
					res = ev
				}
			}
			if res == nil {
				t.Fatal("no result")
			}
			if got := res["usage"]; !reflect.DeepEqual(got, tt.wantUsage) {
				t.Errorf("usage = %v, want %v", got, tt.wantUsage)
			}
			if got := res["total_cost_usd"]; !reflect.DeepEqual(got, tt.wantCost) {
				t.Errorf("total_cost_usd = %v, want %v", got, tt.wantCost)
			}
			// Only a text the transcript gave with its tokens carries them.
			for _, ev := range r.events {
				msg, _ := ev["message"].(map[string]any)
				if ev.str("type") != "assistant" {
					continue
				}
				u, has := msg["usage"]
				fromTranscript := strings.Contains(fmt.Sprint(msg["content"]), "from the transcript")
				if has != fromTranscript || fromTranscript && !reflect.DeepEqual(u, tt.wantUsage) {
					t.Errorf("assistant message %v: usage %v", msg["content"], u)
				}
			}
		})
	}
}
