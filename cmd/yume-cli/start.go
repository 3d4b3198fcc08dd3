package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/kballard/go-shellquote"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
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
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if abs, err := filepath.Abs(o.Cwd); err == nil {
		o.Cwd = abs
	}
	proto, _ := emit.ParseProtocol(o.Protocol)
	w := emit.NewWriter(o.IO.Out, emit.Config{Protocol: proto, SessionID: o.SessionID, Model: o.Model, Cwd: o.Cwd})
	err := emit.Guard(w, func() error {
		if err := notYetSupported(o); err != nil {
			return err
		}
		mode, why := pickMode(ctx, o)
		if o.Verbose {
			fmt.Fprintf(o.IO.ErrOut, "yume-cli: %s mode (%s)\n", mode, why)
		}
		if mode == "pty" {
			return runPTY(ctx, o, w)
		}
		return runStructured(ctx, o, w, mode)
	})
	if err != nil {
		fmt.Fprintf(o.IO.ErrOut, "yume-cli: %v\n", err)
		return &exitError{1}
	}
	return nil
}

// notYetSupported rejects flags whose feature has not landed, clearly.
func notYetSupported(o *StartOptions) error {
	if o.HistoryFile != "" {
		return errors.New("--history-file is not yet supported: use --resume ID with a structured provider")
	}
	return nil
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
	case len(p.Structured) == 0 || len(o.Command) > 0:
		return "pty", p.Name + " has no machine-readable mode"
	}
	v, err := providers.DetectVersion(ctx, p.Program(o.Bin))
	if err != nil {
		return "auto", "version unknown (" + err.Error() + "); the structured runner reports it"
	}
	if len(p.Modes(v)) == 0 {
		return "pty", fmt.Sprintf("%s %s has no structured mode", p.Name, v)
	}
	return "auto", fmt.Sprintf("%s %s has %s", p.Name, v, strings.Join(p.Modes(v), ", "))
}

// runStructured translates the provider's own JSON or ACP stream.
func runStructured(ctx context.Context, o *StartOptions, w *emit.Writer, mode string) error {
	for flag, set := range map[string]bool{"--rules": o.RulesFile != "", "--record": o.RecordFile != "", "--trace": o.Trace || o.TraceFile != ""} {
		if set {
			fmt.Fprintf(o.IO.ErrOut, "yume-cli: %s applies to PTY sessions only; ignored in %s mode\n", flag, mode)
		}
	}
	return structured.Run(ctx, structured.Options{
		Provider: o.provider(), Mode: mode, Bin: o.Bin, Model: o.Model, Cwd: o.Cwd, Prompt: o.Prompt,
		Resume: o.Resume, PermissionMode: o.PermissionMode, Controls: readControls(ctx, o, w),
		Stderr: o.IO.ErrOut, Verbose: o.Verbose,
	}, w)
}

// runPTY drives the provider's interactive program in a pseudo-terminal.
func runPTY(ctx context.Context, o *StartOptions, w *emit.Writer) error {
	profile, err := loadProfile(o.provider().Profile, o.RulesFile)
	if err != nil {
		return err
	}
	argv, err := commandLine(o, profile)
	if err != nil {
		return err
	}
	w.SetDriveMode("pty")
	if err := w.Init(o.PermissionMode, []string{"Bash"}); err != nil {
		return err
	}
	proc, err := ptyhost.Start(ptyhost.Options{Argv: argv, Dir: o.Cwd, Cols: o.Cols, Rows: o.Rows})
	if err != nil {
		var nf *ptyhost.NotFoundError
		if errors.As(err, &nf) {
			return fmt.Errorf("provider binary %q not found in PATH: install it or pass --bin PATH", nf.Name)
		}
		return fmt.Errorf("starting %s: %w", argv[0], err)
	}
	defer proc.Close()
	var term ptyhost.Terminal = proc
	if o.RecordFile != "" {
		rec, err := startRecording(o, argv, proc)
		if err != nil {
			return err
		}
		defer rec.finish(proc)
		term = rec
	}
	trace, closeTrace, err := traceWriter(o)
	if err != nil {
		return err
	}
	defer closeTrace()
	outcome, err := ptyhost.Drive(ctx, ptyhost.DriverConfig{
		Term:        term,
		Profile:     profile,
		Out:         w,
		Controls:    readControls(ctx, o, w),
		Mode:        permission.Mode(o.PermissionMode),
		Prompt:      o.Prompt,
		CommandLine: shellquote.Join(argv...),
		Cols:        o.Cols,
		Rows:        o.Rows,
		Trace:       trace,
	})
	if o.Verbose {
		fmt.Fprintf(o.IO.ErrOut, "yume-cli: %d question(s), %d denied; %s\n", outcome.Questions, outcome.Denials, outcome.Exit)
	}
	if err != nil {
		return err
	}
	if outcome.Interrupted || !outcome.Exit.Success() {
		return &exitError{1}
	}
	return nil
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
	data, err := os.ReadFile(rulesFile)
	if err != nil {
		return nil, fmt.Errorf("reading --rules: %w", err)
	}
	over, err := heuristics.ParseProfile(rulesFile, data)
	if err != nil {
		return nil, err
	}
	return p.Merge(over), nil
}

// commandLine is the program to run: "-- CMD ARGS…" wins, else the
// profile's template with --bin as the program.
func commandLine(o *StartOptions, p *heuristics.Profile) ([]string, error) {
	if len(o.Command) > 0 {
		return o.Command, nil
	}
	if len(p.Command) == 0 {
		return nil, fmt.Errorf("the %s profile does not say how to start %s: pass -- CMD ARGS…", p.Name, o.provider().Name)
	}
	argv := make([]string, 0, len(p.Command))
	for _, a := range p.Command {
		a = strings.ReplaceAll(a, "{prompt}", o.Prompt)
		a = strings.ReplaceAll(a, "{model}", o.Model)
		argv = append(argv, a)
	}
	if o.Bin != "" {
		argv[0] = o.Bin
	}
	return argv, nil
}

func traceWriter(o *StartOptions) (io.Writer, func(), error) {
	switch {
	case o.TraceFile != "":
		f, err := os.Create(o.TraceFile)
		if err != nil {
			return nil, nil, fmt.Errorf("--trace-file: %w", err)
		}
		return f, func() { _ = f.Close() }, nil
	case o.Trace:
		return o.IO.ErrOut, func() {}, nil
	}
	return nil, func() {}, nil
}
