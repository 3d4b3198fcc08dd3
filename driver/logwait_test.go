package driver

import (
	"slices"
	"testing"
	"time"
)

// TestLogWaitSchedule: a question that waits for its call reads the log
// 1 ms after it was asked, then after waits twice as long each time, up
// to logWaitEvery: a call logged a few milliseconds after its dialog is
// read about a millisecond after, not up to 10 ms after.
func TestLogWaitSchedule(t *testing.T) {
	var got []time.Duration
	for step, i := logWaitFirst, 0; i < 7; step, i = nextLogWait(step), i+1 {
		got = append(got, step)
	}
	ms := time.Millisecond
	if want := []time.Duration{1 * ms, 2 * ms, 4 * ms, 8 * ms, 10 * ms, 10 * ms, 10 * ms}; !slices.Equal(got, want) {
		t.Fatalf("waits %v, want %v", got, want)
	}
}
