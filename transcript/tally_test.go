package transcript

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestTally(t *testing.T) {
	start := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	ev := func(id string, at time.Time, in int) Event {
		return Event{Kind: Tokens, ID: id, At: at, Usage: &Usage{Input: in, Output: 1, CostUSD: 0.5}}
	}
	tests := []struct {
		name string
		evs  []Event
		want Usage
		ok   bool
	}{
		{"nothing", nil, Usage{}, false},
		{"not tokens", []Event{{Kind: Text, Text: "hi"}, {Kind: Tokens}}, Usage{}, false},
		{"last report of a request wins", []Event{ev("a", time.Time{}, 1), ev("a", time.Time{}, 5)}, Usage{Input: 5, Output: 1, CostUSD: 0.5}, true},
		{"requests add up", []Event{ev("a", time.Time{}, 1), ev("b", time.Time{}, 2)}, Usage{Input: 3, Output: 2, CostUSD: 1}, true},
		{"no id: each counts", []Event{ev("", time.Time{}, 1), ev("", time.Time{}, 2)}, Usage{Input: 3, Output: 2, CostUSD: 1}, true},
		{"before the run", []Event{ev("a", start.Add(-time.Second), 7), ev("b", start, 2)}, Usage{Input: 2, Output: 1, CostUSD: 0.5}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tally := Tally{Since: start}
			for _, e := range tt.evs {
				tally.Add(e)
			}
			if got, ok := tally.Sum(); got != tt.want || ok != tt.ok {
				t.Errorf("Sum = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
			tally.Reset()
			if _, ok := tally.Sum(); ok {
				t.Error("Reset kept the tokens")
			}
		})
	}
	if u := SplitUsage(100, 5, 80, 30); *u != (Usage{Input: 0, Output: 5, CacheRead: 80, CacheWrite: 30}) {
		t.Errorf("SplitUsage past the prompt = %+v", *u)
	}
}

// TestTailSkipExisting: a log every run appends to is read from where it
// ended when the tail was made.
func TestTailSkipExisting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.log")
	if err := os.WriteFile(path, []byte("old 1\nold 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tail := NewTail(func() (string, bool) { return path, true }, func(line []byte) []Event {
		return []Event{{Kind: Text, Text: string(line)}}
	}).SkipExisting()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("new\n")
	f.Close()
	evs, err := tail.Poll()
	if err != nil || len(evs) != 1 || evs[0].Text != "new" {
		t.Errorf("events %+v, %v; want the new line only", evs, err)
	}
	tail.Close()
}
