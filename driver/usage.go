package driver

import (
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/transcript"
)

// A turn's usage in the PTY path: the TUI shows no token counts a rule
// could trust, but the program's transcript (Config.Transcript) has each
// model request's tokens (transcript.Tokens). The result carries their
// sum; a turn whose transcript told none has no usage at all, never
// zeros (Yume takes a result of 0 input and 0 output for a compaction).

// withUsage is r with the turn's tokens (and their cost, where the
// program priced them), unless r already says.
func (d *driver) withUsage(r emit.Result) emit.Result {
	u, ok := d.t.usage.Sum()
	if !ok || r.Usage != nil {
		return r
	}
	r.Usage = &emit.Usage{InputTokens: u.Input, OutputTokens: u.Output,
		CacheReadInputTokens: u.CacheRead, CacheCreationInputTokens: u.CacheWrite}
	if u.CostUSD > 0 && r.CostUSD == nil {
		r.CostUSD = emit.Cost(u.CostUSD)
	}
	return r
}

// lastTokens reads what the transcript gained for its tokens only, just
// before the turn's result: the program may write its last request's
// tokens a moment after the screen (or the log) said the turn was over.
// The log's other late lines are not news: the turn has ended.
func (d *driver) lastTokens() {
	if d.cfg.Transcript == nil {
		return
	}
	evs, _ := d.cfg.Transcript.Poll() // Best effort: no log, no tokens.
	for _, e := range evs {
		if e.Kind == transcript.Tokens {
			d.t.usage.Add(e)
		}
	}
}
