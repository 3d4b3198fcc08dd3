package run

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
func (cfg *Config) detachStreams() (end func()) {
	if !cfg.Async {
		return func() {}
	}
	ios := *cfg.IO
	out, errOut := background.Detach(cfg.IO.Out, 0), background.Detach(cfg.IO.ErrOut, 0)
	ios.Out, ios.ErrOut = out, errOut
	cfg.IO = &ios
	return func() {
		out.Close(streamsIdle)
		errOut.Close(streamsIdle)
	}
}

// startRecorder starts what keeps the AgentOutput (--output-file) and
// says progress on stderr (--async).
func (cfg *Config) startRecorder() {
	if cfg.OutputFile == "" && !cfg.Async {
		return
	}
	var progress = cfg.IO.ErrOut
	if !cfg.Async {
		progress = nil
	}
	cfg.recorder = background.NewRecorder(progress)
}

// takeBranch switches the working tree to --git-branch before the turn
// and holds the tree for this run: a second agent in the same working tree
// is refused at its start (it would switch this one's files), with the
// holder's pid and branch; a tree whose holder died is free. A switch
// that cannot be made (uncommitted changes, git's refusal, no repository)
// is said in the branch_switch line and a system notice, and the turn goes
// on where the tree is. It returns what lets the tree go.
func (cfg *Config) takeBranch(ctx context.Context, w *emit.Writer) (release func(), err error) {
	if cfg.GitBranch == "" {
		return func() {}, nil
	}
	lock, err := background.LockTree(ctx, cfg.Cwd, background.Holder{PID: os.Getpid(), Branch: cfg.GitBranch,
		Session: w.SessionID(), Started: time.Now().UnixMilli()})
	if err != nil {
		_, _ = cfg.IO.ErrOut.Write(background.BranchLine(background.Branch{Name: cfg.GitBranch, Err: err.Error()}, time.Now())) // Best effort: the error says it too.
		return func() {}, fmt.Errorf("--git-branch %s: %w", cfg.GitBranch, err)
	}
	b := background.SwitchBranch(ctx, cfg.Cwd, cfg.GitBranch)
	_, _ = cfg.IO.ErrOut.Write(background.BranchLine(b, time.Now())) // Best effort: stderr is a courtesy.
	switch {
	case !b.Success:
		_ = w.SystemAfterInit("notice", b.Notice()) // Best effort, as every notice.
	case cfg.Verbose && b.Already:
		fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: --git-branch %s: the working tree is on it already\n", b.Name)
	case cfg.Verbose:
		made := ""
		if b.Created {
			made = " (made from " + b.From + "'s HEAD)"
		}
		fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: --git-branch %s: switched from %s%s\n", b.Name, b.From, made)
	}
	return lock.Release, nil
}

// writeOutput writes --output-file once, at the end of the run: what the
// recorder kept, success as the run ended (ok), and why not (errText).
// It reports a file it could not write.
func (cfg *Config) writeOutput(session string, ok bool, errText string) error {
	if cfg.OutputFile == "" || cfg.outputDone {
		return nil
	}
	cfg.outputDone = true
	rec := cfg.recorder
	if rec == nil { // the run stopped before it started
		rec = background.NewRecorder(nil)
	}
	if !rec.Said() { // it stopped before the prompt went out
		rec.Unsent(emit.Redact(cfg.Prompt))
	}
	if session == "" {
		session = cfg.SessionID
	}
	out := rec.Output(session, ok, time.Since(cfg.Started), emit.Redact(errText))
	if err := background.WriteOutput(cfg.OutputFile, out); err != nil {
		fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: %v\n", err)
		return err
	}
	return nil
}

// FailOutput writes --output-file for a run that stopped before it
// started (bad settings, a usage error): success false, and why.
func (cfg *Config) FailOutput(err error) {
	if cfg.OutputFile == "" || err == nil {
		return
	}
	if cfg.Started.IsZero() {
		cfg.Started = time.Now()
	}
	_ = cfg.writeOutput(cfg.SessionID, false, err.Error()) // Best effort: said on stderr.
}
