package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/ptyhost"
	"github.com/yume-cli/yume-cli/structured"
)

// runStart runs one session and guarantees the stream ends with exactly one
// result and message_stop, whatever happens.
func runStart(ctx context.Context, o *StartOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop, caught := withSignals(ctx)
	defer stop()
	// The GUI going away ends the session as a signal does, but at once
	// and approving nothing more (ptyhost.GUIGone tells the two apart).
	ctx, leave := o.IO.GUI.Context(ctx)
	defer leave()
	// --async: stdout and stderr never wait for a reader (Yume reads
	// neither while a background agent runs); ended last, once all is said.
	defer o.detachStreams()()
	if abs, err := filepath.Abs(o.Cwd); err == nil {
		o.Cwd = abs
	}
	proto, _ := emit.ParseProtocol(o.Protocol)
	o.startRecorder()
	conv := newConversation()
	conv.recorder = o.recorder
	id := o.SessionID
	if id == "" {
		id = o.Resume // Yume continues a chat under its first id
	}
	persistent := o.persistent()
	cfg := emit.Config{Protocol: proto, SessionID: id, Model: o.Model, Cwd: o.Cwd, Late: o.IO.ErrOut, Persistent: persistent}
	if o.IO.GUI != nil {
		cfg.GUIGone = o.IO.GUI.Gone
	}
	if answersInWords(o) {
		cfg.OnAsk = sayQuestion(o.IO.ErrOut)
	}
	out := conv.tee(o.IO.watchedOut())
	if o.recorder != nil {
		out = io.MultiWriter(out, o.recorder) // the AgentOutput's history, the progress lines
	}
	w := emit.NewWriter(out, cfg)
	o.drive(w)
	o.sayNewer(w)
	var handle string
	release := func() {}
	err := emit.Guard(w, func() error {
		if err := promptFromStdin(o); err != nil {
			return err
		}
		o.settleNoChannel()
		if err := conv.begin(o, w.SessionID()); err != nil {
			return err
		}
		if err := conv.withHistory(o); err != nil {
			return err
		}
		if strings.TrimSpace(o.Prompt) == "" && !persistent && len(o.Command) == 0 {
			return errors.New("no prompt: pass --prompt TEXT or pipe it on stdin (or start a persistent session with --session-id ID and send user frames)")
		}
		if err := o.findProgram(); err != nil {
			return err
		}
		if err := o.checkProfileKey(); err != nil {
			return err
		}
		free, err := o.takeBranch(ctx, w)
		if err != nil {
			return err
		}
		release = free
		mode, why := pickMode(ctx, o)
		if o.Verbose {
			fmt.Fprintf(o.IO.ErrOut, "yume-cli: %s mode (%s)\n", mode, why)
		}
		defer watchSelfUpdates(ctx, w)()
		if persistent {
			var err error
			handle, err = runTurns(ctx, o, w, mode, conv)
			return err
		}
		conv.said(conv.prompt(o))
		if mode == "pty" {
			handle, err = runPTY(ctx, o, w, conv, readControls(ctx, o, w))
		} else {
			handle, err = runStructured(ctx, o, w, mode, conv, readControls(ctx, o, w))
		}
		return err
	})
	release() // the provider has ended: the tree is free for the next agent
	if serr := conv.turnEnded(w.DriveMode(), handle); serr != nil {
		fmt.Fprintf(o.IO.ErrOut, "yume-cli: the session could not be stored: %v\n", serr)
	}
	if ptyhost.GUIGone(ctx) {
		fmt.Fprintf(o.IO.ErrOut, "yume-cli: %v: the session ended\n", context.Cause(ctx)) // Best effort: stderr's reader may be gone too.
	}
	if o.Verbose {
		fmt.Fprintf(o.IO.ErrOut, "yume-cli: %d secret(s) redacted (stream, trace, cast, session store)\n", emit.Redactions())
	}
	var exit error
	var ee *exitError
	errText := ""
	switch {
	case errors.As(err, &ee):
		exit = ee // the stream (and --verbose) said what happened
	case err != nil:
		if !ptyhost.GUIGone(ctx) { // else a write that failed: said above
			fmt.Fprintf(o.IO.ErrOut, "yume-cli: %v\n", err)
		}
		exit, errText = &exitError{1}, err.Error()
	case !persistent && w.LastResultFailed():
		exit = &exitError{1} // the turn failed (its result says why): a runtime error
	}
	if werr := o.writeOutput(w.SessionID(), exit == nil, errText); werr != nil && exit == nil {
		exit = &exitError{1} // Yume reads the file: without it the run is no success
	}
	if sig := caught(); sig != nil {
		exit = &exitError{sig.exitCode()} // as a shell reports a program a signal ended
	}
	return exit
}

// pickMode resolves --mode: structured (acp > json) where the installed
// provider version has it, the PTY otherwise. It says why, for --verbose.
func pickMode(ctx context.Context, o *StartOptions) (mode, why string) {
	p := o.provider()
	switch {
	case o.Mode == "pty":
		return "pty", "asked for"
	case o.Mode != "auto":
		return o.Mode, "asked for"
	case p.Name == providers.ACP:
		return providers.ModeACP, "the agent after -- speaks ACP"
	case len(p.Structured) == 0 || len(o.Command) > 0:
		return "pty", p.Name + " has no machine-readable mode"
	}
	bin := p.Program(o.Bin)
	// A release read from its package, or probed before, is known: no
	// process runs. One not probed yet whose package says nothing is
	// taken to be the one the path held before, or the newest: where that
	// picks the PTY the program starts at once (its TUI's start does not
	// wait for a probe either, and asks it later); the structured runner
	// needs the version itself.
	if v := providers.InstalledRelease(bin, p); v != "" {
		return modeOf(p, v, o)
	}
	if probe, exact, err := providers.KnownProbe(bin, p); err == nil && !exact {
		if mode, why := modeOf(p, probe.Version, o); mode == "pty" {
			return mode, why + " (guessed: its version is read later)"
		}
	}
	v, err := providers.DetectVersion(ctx, bin)
	if err != nil {
		return "auto", "version unknown (" + err.Error() + "); the structured runner reports it"
	}
	return modeOf(p, v, o)
}

// modeOf is pickMode's choice for version v of p's program.
func modeOf(p *providers.Provider, v string, o *StartOptions) (mode, why string) {
	name := p.Name + " " + v
	if v == "" {
		name = p.Name + " (newest)"
	}
	if len(p.Modes(v)) == 0 {
		return "pty", fmt.Sprintf("%s has no structured mode", name)
	}
	if m, _ := p.ModeFor(p.Modes(v)[0], v); m.AsksNothing && p.Profile != "" && o.guardAnswers() {
		return "pty", fmt.Sprintf("%s's %s mode never asks, and nobody can answer: its TUI asks, and the guard answers", name, m.Name)
	} else if m.AsksNothing && p.Profile != "" && o.guardsAuto() {
		return "pty", fmt.Sprintf("%s's %s mode never asks, and auto mode keeps the guard's list: its TUI asks, and yume-cli answers", name, m.Name)
	}
	return "auto", fmt.Sprintf("%s has %s", name, strings.Join(p.Modes(v), ", "))
}

// runStructured translates the provider's own JSON or ACP stream, and
// returns the provider's session id.
func runStructured(ctx context.Context, o *StartOptions, w *emit.Writer, mode string, conv *conversation, controls <-chan emit.Control) (string, error) {
	for flag, set := range map[string]bool{"--rules": o.RulesFile != "", "--record": o.RecordFile != "", "--trace": o.Trace || o.TraceFile != ""} {
		if set {
			fmt.Fprintf(o.IO.ErrOut, "yume-cli: %s applies to PTY sessions only; ignored in %s mode\n", flag, mode)
		}
	}
	p := o.provider()
	handle := conv.handle()
	if handle != "" && p.TUI != nil && p.TUI.Transcript != nil {
		src := p.TUI.Transcript(providers.Launch{Session: handle, Resume: true, Cwd: o.Cwd, Getenv: os.Getenv})
		if err := conv.providerSessionThere(p, src); err != nil {
			return "", err
		}
	}
	err := structured.Run(ctx, structured.Options{
		Provider: p, Mode: mode, Bin: o.Bin, Model: o.Model, Cwd: o.Cwd, Prompt: o.Prompt,
		Resume: handle, PermissionMode: o.PermissionMode, NoChannel: o.noChannel, Controls: controls, Dangers: o.dangers,
		Stderr: o.IO.ErrOut, Verbose: o.Verbose, OnSession: func(id string) { handle = id; conv.checkpoint(mode, id) }, Env: o.providerEnv(),
		Command: o.Command, APIBase: o.APIBase,
		FirstRun: firstRunNote(o),
	}, w)
	return handle, err
}

// loadProfile returns the provider's embedded profile merged with --rules.
func loadProfile(name, rulesFile string) (*heuristics.Profile, error) {
	p, err := heuristics.LoadProfile(name)
	if err != nil {
		return nil, fmt.Errorf("the %s provider has no PTY profile yet: %w", name, err)
	}
	if rulesFile == "" {
		return p, nil
	}
	over, err := readRules(rulesFile)
	if err != nil {
		return nil, err
	}
	return p.Merge(over), nil
}

// readRules parses a rule file given with --rules.
func readRules(file string) (*heuristics.Profile, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading --rules: %w", err)
	}
	return heuristics.ParseProfile(file, data)
}

func traceWriter(o *StartOptions) (io.Writer, func(), error) {
	switch {
	case o.TraceFile != "":
		f, err := createPrivate(o.TraceFile)
		if err != nil {
			return nil, nil, fmt.Errorf("--trace-file: %w", err)
		}
		return f, func() { _ = f.Close() }, nil
	case o.Trace:
		return o.IO.ErrOut, func() {}, nil
	}
	return nil, func() {}, nil
}
