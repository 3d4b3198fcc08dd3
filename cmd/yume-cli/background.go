package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/yume-cli/yume-cli/background"
	"github.com/yume-cli/yume-cli/emit"
)

// Yume's background agents start yume-cli as
//
//	yume-cli --provider anthropic --model M --cwd DIR --session-id ID --prompt P
//	         --permission-mode auto --agent-type TYPE --output-file F --async --git-branch B
//
// with stdin /dev/null and stdout and stderr piped, and read the output
// file F once the process has exited (0: completed). What that takes,
// besides the run itself, is here; package background does the work.

// streamsIdle is how long the end of a run waits for a reader of stdout or
// stderr that takes nothing (--async: Yume reads neither while it runs).
const streamsIdle = 2 * time.Second

// detachStreams makes stdout and stderr never wait for their reader
// (--async): it returns what ends them, waiting for a reader that reads.
func (o *StartOptions) detachStreams() (end func()) {
	if !o.Async {
		return func() {}
	}
	ios := *o.IO
	out, errOut := background.Detach(o.IO.Out, 0), background.Detach(o.IO.ErrOut, 0)
	ios.Out, ios.ErrOut = out, errOut
	o.IO = &ios
	return func() {
		out.Close(streamsIdle)
		errOut.Close(streamsIdle)
	}
}

// startRecorder starts what keeps the AgentOutput (--output-file) and
// says progress on stderr (--async).
func (o *StartOptions) startRecorder() {
	if o.OutputFile == "" && !o.Async {
		return
	}
	var progress = o.IO.ErrOut
	if !o.Async {
		progress = nil
	}
	o.recorder = background.NewRecorder(progress)
}

// takeBranch switches the working tree to --git-branch before the turn
// and holds the tree for this run: a second agent in the same working tree
// is refused at its start (it would switch this one's files), with the
// holder's pid and branch; a tree whose holder died is free. A switch
// that cannot be made (uncommitted changes, git's refusal, no repository)
// is said in the branch_switch line and a system notice, and the turn goes
// on where the tree is. It returns what lets the tree go.
func (o *StartOptions) takeBranch(ctx context.Context, w *emit.Writer) (release func(), err error) {
	if o.GitBranch == "" {
		return func() {}, nil
	}
	lock, err := background.LockTree(ctx, o.Cwd, background.Holder{PID: os.Getpid(), Branch: o.GitBranch,
		Session: w.SessionID(), Started: time.Now().UnixMilli()})
	if err != nil {
		_, _ = o.IO.ErrOut.Write(background.BranchLine(background.Branch{Name: o.GitBranch, Err: err.Error()}, time.Now())) // Best effort: the error says it too.
		return func() {}, fmt.Errorf("--git-branch %s: %w", o.GitBranch, err)
	}
	b := background.SwitchBranch(ctx, o.Cwd, o.GitBranch)
	_, _ = o.IO.ErrOut.Write(background.BranchLine(b, time.Now())) // Best effort: stderr is a courtesy.
	switch {
	case !b.Success:
		_ = w.SystemAfterInit("notice", b.Notice()) // Best effort, as every notice.
	case o.Verbose && b.Already:
		fmt.Fprintf(o.IO.ErrOut, "yume-cli: --git-branch %s: the working tree is on it already\n", b.Name)
	case o.Verbose:
		made := ""
		if b.Created {
			made = " (made from " + b.From + "'s HEAD)"
		}
		fmt.Fprintf(o.IO.ErrOut, "yume-cli: --git-branch %s: switched from %s%s\n", b.Name, b.From, made)
	}
	return lock.Release, nil
}

// writeOutput writes --output-file once, at the end of the run: what the
// recorder kept, success as the run ended (ok), and why not (errText).
// It reports a file it could not write.
func (o *StartOptions) writeOutput(session string, ok bool, errText string) error {
	if o.OutputFile == "" || o.outputDone {
		return nil
	}
	o.outputDone = true
	rec := o.recorder
	if rec == nil { // the run stopped before it started
		rec = background.NewRecorder(nil)
	}
	if !rec.Said() { // it stopped before the prompt went out
		rec.Unsent(emit.Redact(o.Prompt))
	}
	if session == "" {
		session = o.SessionID
	}
	out := rec.Output(session, ok, time.Since(o.started), emit.Redact(errText))
	if err := background.WriteOutput(o.OutputFile, out); err != nil {
		fmt.Fprintf(o.IO.ErrOut, "yume-cli: %v\n", err)
		return err
	}
	return nil
}

// failOutput writes --output-file for a run that stopped before it
// started (bad settings, a usage error): success false, and why.
func (o *StartOptions) failOutput(err error) {
	if o.OutputFile == "" || err == nil {
		return
	}
	if o.started.IsZero() {
		o.started = time.Now()
	}
	_ = o.writeOutput(o.SessionID, false, err.Error()) // Best effort: said on stderr.
}
