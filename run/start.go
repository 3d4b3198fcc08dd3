package run

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

// Start runs one session and guarantees the stream ends with exactly one
// result and message_stop, whatever happens. An *ExitError says the exit
// code of a run whose end was already reported.
func Start(ctx context.Context, cfg *Config) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop, caught := withSignals(ctx)
	defer stop()
	// The GUI going away ends the session as a signal does, but at once
	// and approving nothing more (ptyhost.GUIGone tells the two apart).
	ctx, leave := cfg.IO.GUI.Context(ctx)
	defer leave()
	// --async: stdout and stderr never wait for a reader (Yume reads
	// neither while a background agent runs); ended last, once all is said.
	defer cfg.detachStreams()()
	if abs, err := filepath.Abs(cfg.Cwd); err == nil {
		cfg.Cwd = abs
	}
	cfg.startRecorder()
	conv := newConversation()
	conv.recorder = cfg.recorder
	id := cfg.SessionID
	if id == "" {
		id = cfg.Resume // Yume continues a chat under its first id
	}
	persistent := cfg.persistent()
	stream := emit.Config{Protocol: cfg.Protocol, SessionID: id, Model: cfg.Model, Cwd: cfg.Cwd, Late: cfg.IO.ErrOut, Persistent: persistent}
	if cfg.IO.GUI != nil {
		stream.GUIGone = cfg.IO.GUI.Gone
	}
	if answersInWords(cfg) {
		stream.OnAsk = sayQuestion(cfg.IO.ErrOut)
	}
	out := conv.tee(cfg.IO.watchedOut())
	if cfg.recorder != nil {
		out = io.MultiWriter(out, cfg.recorder) // the AgentOutput's history, the progress lines
	}
	w := emit.NewWriter(out, stream)
	cfg.drive(w)
	for _, note := range cfg.Newer {
		_ = w.SystemAfterInit("notice", note) // Best effort, as every notice.
	}
	var handle string
	release := func() {}
	err := emit.Guard(w, func() error {
		if err := promptFromStdin(cfg); err != nil {
			return err
		}
		cfg.settleNoChannel()
		if err := conv.begin(cfg, w.SessionID()); err != nil {
			return err
		}
		if err := conv.withHistory(cfg); err != nil {
			return err
		}
		if strings.TrimSpace(cfg.Prompt) == "" && !persistent && len(cfg.Command) == 0 {
			return errors.New("no prompt: pass --prompt TEXT or pipe it on stdin (or start a persistent session with --session-id ID and send user frames)")
		}
		if err := cfg.findProgram(); err != nil {
			return err
		}
		if err := cfg.checkProfileKey(); err != nil {
			return err
		}
		free, err := cfg.takeBranch(ctx, w)
		if err != nil {
			return err
		}
		release = free
		mode, why := pickMode(ctx, cfg)
		if cfg.Verbose {
			fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: %s mode (%s)\n", mode, why)
		}
		defer watchSelfUpdates(ctx, w)()
		if persistent {
			var err error
			handle, err = runTurns(ctx, cfg, w, mode, conv)
			return err
		}
		conv.said(conv.prompt(cfg))
		if mode == "pty" {
			handle, err = runPTY(ctx, cfg, w, conv, readControls(ctx, cfg, w))
		} else {
			handle, err = runStructured(ctx, cfg, w, mode, conv, readControls(ctx, cfg, w))
		}
		return err
	})
	release() // the provider has ended: the tree is free for the next agent
	if serr := conv.turnEnded(w.DriveMode(), handle); serr != nil {
		fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: the session could not be stored: %v\n", serr)
	}
	if ptyhost.GUIGone(ctx) {
		fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: %v: the session ended\n", context.Cause(ctx)) // Best effort: stderr's reader may be gone too.
	}
	if cfg.Verbose {
		fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: %d secret(s) redacted (stream, trace, cast, session store)\n", emit.Redactions())
	}
	var exit error
	var ee *ExitError
	errText := ""
	switch {
	case errors.As(err, &ee):
		exit = ee // the stream (and --verbose) said what happened
	case err != nil:
		if !ptyhost.GUIGone(ctx) { // else a write that failed: said above
			fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: %v\n", err)
		}
		exit, errText = &ExitError{Code: 1}, err.Error()
	case !persistent && w.LastResultFailed():
		exit = &ExitError{Code: 1} // the turn failed (its result says why): a runtime error
	}
	if werr := cfg.writeOutput(w.SessionID(), exit == nil, errText); werr != nil && exit == nil {
		exit = &ExitError{Code: 1} // Yume reads the file: without it the run is no success
	}
	if sig := caught(); sig != nil {
		exit = &ExitError{Code: sig.exitCode()} // as a shell reports a program a signal ended
	}
	return exit
}

// pickMode resolves --mode: structured (acp > json) where the installed
// provider version has it, the PTY otherwise. It says why, for --verbose.
func pickMode(ctx context.Context, cfg *Config) (mode, why string) {
	p := cfg.provider()
	switch {
	case cfg.Mode == "pty":
		return "pty", "asked for"
	case cfg.Mode != "auto":
		return cfg.Mode, "asked for"
	case p.Name == providers.ACP:
		return providers.ModeACP, "the agent after -- speaks ACP"
	case len(p.Structured) == 0 || len(cfg.Command) > 0:
		return "pty", p.Name + " has no machine-readable mode"
	}
	bin := p.Program(cfg.Bin)
	// A release read from its package, or probed before, is known: no
	// process runs. One not probed yet whose package says nothing is
	// taken to be the one the path held before, or the newest: where that
	// picks the PTY the program starts at once (its TUI's start does not
	// wait for a probe either, and asks it later); the structured runner
	// needs the version itself.
	if v := providers.InstalledRelease(bin, p); v != "" {
		return modeOf(p, v, cfg)
	}
	if probe, exact, err := providers.KnownProbe(bin, p); err == nil && !exact {
		if mode, why := modeOf(p, probe.Version, cfg); mode == "pty" {
			return mode, why + " (guessed: its version is read later)"
		}
	}
	v, err := providers.DetectVersion(ctx, bin)
	if err != nil {
		return "auto", "version unknown (" + err.Error() + "); the structured runner reports it"
	}
	return modeOf(p, v, cfg)
}

// modeOf is pickMode's choice for version v of p's program.
func modeOf(p *providers.Provider, v string, cfg *Config) (mode, why string) {
	name := p.Name + " " + v
	if v == "" {
		name = p.Name + " (newest)"
	}
	if len(p.Modes(v)) == 0 {
		return "pty", fmt.Sprintf("%s has no structured mode", name)
	}
	if m, _ := p.ModeFor(p.Modes(v)[0], v); m.AsksNothing && p.Profile != "" && cfg.guardAnswers() {
		return "pty", fmt.Sprintf("%s's %s mode never asks, and nobody can answer: its TUI asks, and the guard answers", name, m.Name)
	} else if m.AsksNothing && p.Profile != "" && cfg.guardsAuto() {
		return "pty", fmt.Sprintf("%s's %s mode never asks, and auto mode keeps the guard's list: its TUI asks, and yume-cli answers", name, m.Name)
	}
	return "auto", fmt.Sprintf("%s has %s", name, strings.Join(p.Modes(v), ", "))
}

// runStructured translates the provider's own JSON or ACP stream, and
// returns the provider's session id.
func runStructured(ctx context.Context, cfg *Config, w *emit.Writer, mode string, conv *conversation, controls <-chan emit.Control) (string, error) {
	for flag, set := range map[string]bool{"--rules": cfg.RulesFile != "", "--record": cfg.RecordFile != "", "--trace": cfg.Trace || cfg.TraceFile != ""} {
		if set {
			fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: %s applies to PTY sessions only; ignored in %s mode\n", flag, mode)
		}
	}
	p := cfg.provider()
	handle := conv.handle()
	if handle != "" && p.TUI != nil && p.TUI.Transcript != nil {
		src := p.TUI.Transcript(providers.Launch{Session: handle, Resume: true, Cwd: cfg.Cwd, Getenv: os.Getenv})
		if err := conv.providerSessionThere(p, src); err != nil {
			return "", err
		}
	}
	err := structured.Run(ctx, structured.Options{
		Provider: p, Mode: mode, Bin: cfg.Bin, Model: cfg.Model, Cwd: cfg.Cwd, Prompt: cfg.Prompt,
		Resume: handle, PermissionMode: cfg.Permission, NoChannel: cfg.NoChannel, Controls: controls, Dangers: cfg.Dangers,
		Stderr: cfg.IO.ErrOut, Verbose: cfg.Verbose, OnSession: func(id string) { handle = id; conv.checkpoint(mode, id) }, Env: cfg.providerEnv(),
		Command: cfg.Command, APIBase: cfg.APIBase,
		FirstRun: firstRunNote(cfg),
	}, w)
	return handle, err
}

// LoadProfile returns the provider's embedded profile merged with --rules.
func LoadProfile(name, rulesFile string) (*heuristics.Profile, error) {
	p, err := heuristics.LoadProfile(name)
	if err != nil {
		return nil, fmt.Errorf("the %s provider has no PTY profile yet: %w", name, err)
	}
	if rulesFile == "" {
		return p, nil
	}
	over, err := ReadRules(rulesFile)
	if err != nil {
		return nil, err
	}
	return p.Merge(over), nil
}

// ReadRules parses a rule file given with --rules.
func ReadRules(file string) (*heuristics.Profile, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading --rules: %w", err)
	}
	return heuristics.ParseProfile(file, data)
}

func traceWriter(cfg *Config) (io.Writer, func(), error) {
	switch {
	case cfg.TraceFile != "":
		f, err := CreatePrivate(cfg.TraceFile)
		if err != nil {
			return nil, nil, fmt.Errorf("--trace-file: %w", err)
		}
		return f, func() { _ = f.Close() }, nil
	case cfg.Trace:
		return cfg.IO.ErrOut, func() {}, nil
	}
	return nil, func() {}, nil
}
