package structured

import (
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/transcript"
)

// Usage from the program's own transcript, for a mode whose stream tells no
// tokens or none split by the cache (providers.Mode.UsageFromTranscript).

// tallied is a transcript whose reads also count the tokens it holds, so
// that every reader of the one transcript (the outputs ACP leaves out, the
// usage) sees each event.
type tallied struct {
	transcript.Source
	tally *transcript.Tally
}

// Poll implements transcript.Source.
func (t *tallied) Poll() ([]transcript.Event, error) {
	evs, err := t.Source.Poll()
	for _, e := range evs {
		t.tally.Add(e)
	}
	return evs, err
}

// Unwrap implements transcript.Wrapper.
func (t *tallied) Unwrap() transcript.Source { return t.Source }

// usageRetry is how long after a first read that found no tokens the
// transcript is read once more: a program may write its last request's
// tokens just after its answer.
const usageRetry = 250 * time.Millisecond

// pollUsage reads src and returns the tokens tally counted of the run;
// ok is false when the transcript holds none.
func pollUsage(src transcript.Source, tally *transcript.Tally) (emit.Usage, bool) {
	read := func() (transcript.Usage, bool) {
		evs, _ := src.Poll() // Best effort: no transcript, no tokens.
		if _, counts := src.(*tallied); !counts {
			for _, e := range evs {
				tally.Add(e)
			}
		}
		return tally.Sum()
	}
	u, ok := read()
	if !ok {
		time.Sleep(usageRetry) // Polling: the transcript gives no event to wait on.
		u, ok = read()
	}
	return usageOf(u), ok
}

// usageOf is a transcript's usage as the stream's.
func usageOf(u transcript.Usage) emit.Usage {
	return emit.Usage{InputTokens: u.Input, OutputTokens: u.Output, CacheReadInputTokens: u.CacheRead, CacheCreationInputTokens: u.CacheWrite}
}
