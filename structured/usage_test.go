package structured

import (
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/transcript"
)

// fakeTranscript hands out its events in batches, one batch per Poll.
type fakeTranscript struct{ batches [][]transcript.Event }

func (f *fakeTranscript) Poll() ([]transcript.Event, error) {
	if len(f.batches) == 0 {
		return nil, nil
	}
	b := f.batches[0]
	f.batches = f.batches[1:]
	return b, nil
}

func (f *fakeTranscript) Path() string { return "fake" }

func tokens(id string, at time.Time, in, out, read, write int) transcript.Event {
	return transcript.Event{Kind: transcript.Tokens, ID: id, At: at,
		Usage: &transcript.Usage{Input: in, Output: out, CacheRead: read, CacheWrite: write}}
}

func TestPollUsage(t *testing.T) {
	start := time.Date(2026, 11, 26, 14, 0, 0, 0, time.UTC)
	before, after := start.Add(-time.Minute), start.Add(time.Second)
	tests := []struct {
		name    string
		batches [][]transcript.Event
		want    emit.Usage
		ok      bool
	}{
		{"none", nil, emit.Usage{}, false},
		{"one request", [][]transcript.Event{{tokens("a", after, 302, 11, 1001, 0)}},
			emit.Usage{InputTokens: 302, OutputTokens: 11, CacheReadInputTokens: 1001}, true},
		// A request told twice (a message written again with its calls)
		// counts once, as last told.
		{"told twice", [][]transcript.Event{{tokens("a", after, 302, 1, 1001, 0), {Kind: transcript.Text, Text: "hi"}, tokens("a", after, 302, 11, 1001, 0), tokens("b", after, 304, 12, 1002, 7)}},
			emit.Usage{InputTokens: 606, OutputTokens: 23, CacheReadInputTokens: 2003, CacheCreationInputTokens: 7}, true},
		// An earlier run's requests in a resumed session's transcript do not count.
		{"earlier run", [][]transcript.Event{{tokens("old", before, 5000, 500, 0, 0), tokens("new", after, 10, 2, 0, 0)}},
			emit.Usage{InputTokens: 10, OutputTokens: 2}, true},
		// Written a moment after the answer: the second read finds it.
		{"late", [][]transcript.Event{nil, {tokens("a", time.Time{}, 1, 2, 3, 4)}},
			emit.Usage{InputTokens: 1, OutputTokens: 2, CacheReadInputTokens: 3, CacheCreationInputTokens: 4}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, wrapped := range []bool{false, true} {
				tally := transcript.Tally{Since: start}
				var src transcript.Source = &fakeTranscript{batches: tt.batches}
				if wrapped {
					src = &tallied{Source: src, tally: &tally}
				}
				got, ok := pollUsage(src, &tally)
				if got != tt.want || ok != tt.ok {
					t.Errorf("wrapped %v: pollUsage = %+v, %v; want %+v, %v", wrapped, got, ok, tt.want, tt.ok)
				}
			}
		})
	}
}

// A transcript read by another reader first (the outputs ACP leaves out)
// still counts its tokens once it is tallied.
func TestTalliedSharesReads(t *testing.T) {
	var tally transcript.Tally
	src := &tallied{Source: &fakeTranscript{batches: [][]transcript.Event{{tokens("a", time.Time{}, 1, 1, 0, 0)}}}, tally: &tally}
	if _, err := src.Poll(); err != nil { // the other reader
		t.Fatal(err)
	}
	if u, ok := pollUsage(src, &tally); !ok || u.InputTokens != 1 {
		t.Errorf("pollUsage after another read = %+v, %v", u, ok)
	}
	if got, ok := transcript.As[*fakeTranscript](src); !ok || got == nil {
		t.Error("the tallied transcript hides the transcript under it")
	}
}
