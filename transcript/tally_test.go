package transcript

import (
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
