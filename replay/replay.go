// Package replay runs a recorded session through the production screen,
// rules and driver on the recording's own clock. It is the one replay
// setup: `yume-cli replay` and the corpus tests both call Run, so the
// golden corpus tests the command's own path.
package replay

import (
	"context"
	"io"
	"time"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/vt"
)

// Options is what a replay needs besides the recording.
type Options struct {
	Profile *heuristics.Profile
	// Out receives the events; Run writes init and exactly one result
	// (nothing when the recording's transcript markers cannot be read:
	// Result.Err says why).
	Out *emit.Writer
	// Answer decides question n (from 1); nil approves every question.
	Answer func(n int, d *heuristics.Detection) permission.Answer
	// AsRecorded answers every question the way the recording did.
	AsRecorded bool
	// Prompt is typed where a rule types <Prompt>; "" types what the
	// recording typed there.
	Prompt string
	// AnswerAfter is how long the GUI takes to answer a question, on the
	// recording's clock (0: at once); what the program drew meanwhile is
	// on screen when the answer comes.
	AnswerAfter time.Duration
	// InterruptAt interrupts the session, as a user would, at the first
	// recorded output at or after it; 0 = never.
	InterruptAt time.Duration
	// Trace receives the --trace lines; nil = off.
	Trace io.Writer
}

// Result is what a replay found.
type Result struct {
	Outcome driver.Outcome
	// Err is a driver fault: a *driver.KeysError at the first place the
	// rules typed other keys than the recording, or a dead stdout.
	Err error
	// Mismatches are the places where the keys differ.
	Mismatches []recordings.KeyMismatch
	// Pending is the recorded input no rule typed.
	Pending string
	// Prompts are the turns' prompts the recording typed at the program's
	// input box, in order (a person's own session).
	Prompts []string
}

// Run replays cast. Terminal-query replies are left out of the key
// comparison on both sides: a person's terminal answers them differently
// from yume-cli's screen model, and no rule types them.
func Run(ctx context.Context, cast *recordings.Cast, o Options) Result {
	rp := recordings.NewReplay(withoutReplies(cast))
	cfg := driver.Config{
		Profile: o.Profile, Out: o.Out, Prompt: o.Prompt, CommandLine: cast.Header.Command,
		Cols: cast.Header.Width, Rows: cast.Header.Height, Trace: o.Trace,
	}
	var r Result
	log, lc, err := recordedTranscript(cast)
	if err != nil {
		r.Err = err
		return r
	}
	if log != nil {
		// The live run's use of its transcript: the replay reads it alike.
		cfg.LogAfterRun, cfg.LogEndsTurns, cfg.UnaskedBy, cfg.UnaskedAfter = lc.AfterRun, lc.EndsTurns, lc.UnaskedBy, lc.unaskedAfter()
		if cfg.Prompt == "" {
			cfg.Prompt = lc.Prompt
		}
	}
	cfg.OnTurn = func(prompt string) { r.Prompts = append(r.Prompts, prompt) }
	_ = emit.Guard(o.Out, func() error { // Best effort: r.Err holds the fault.
		if err := o.Out.Init(string(permission.Default), []string{"Bash"}); err != nil {
			return err
		}
		r.Outcome, r.Err = driver.Replay(ctx, cfg, rp, driver.Script{Answer: o.Answer, AnswerAfter: o.AnswerAfter, InterruptAt: o.InterruptAt, AsRecorded: o.AsRecorded, Log: log})
		return r.Err
	})
	r.Mismatches, r.Pending = rp.Mismatches(), rp.PendingInput()
	if driver.OnlyQuits(o.Profile, r.Pending) {
		r.Pending = "" // the person's leaving, pressed once more than the program needed
	}
	return r
}

// withoutReplies is cast with the terminal-query replies taken out of its
// recorded input; cast itself is not changed.
func withoutReplies(cast *recordings.Cast) *recordings.Cast {
	c := *cast
	c.Events = make([]recordings.Event, len(cast.Events))
	for i, e := range cast.Events {
		if e.Code == recordings.CodeInput {
			e.Data = string(vt.StripQueryReplies([]byte(e.Data)))
		}
		c.Events[i] = e
	}
	return &c
}
