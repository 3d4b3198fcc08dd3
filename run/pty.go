package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/kballard/go-shellquote"
	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/ptyhost"
	"github.com/yume-cli/yume-cli/transcript"
)

// structuredHint says which structured modes could run this session where
// the PTY path is unavailable (an OS with neither PTY nor ConPTY).
func structuredHint(cfg *Config) string {
	p := cfg.provider()
	switch {
	case len(cfg.Command) > 0:
		return "a command after -- always runs in a PTY"
	case len(p.Structured) == 0:
		return p.Name + " has no structured mode: it needs the PTY path"
	}
	var names []string
	for _, m := range p.Structured {
		if !slices.Contains(names, m.Name) {
			names = append(names, m.Name)
		}
	}
	return fmt.Sprintf("%s has --mode %s", p.Name, strings.Join(names, " and --mode "))
}

// runPTY drives the provider's interactive program in a pseudo-terminal.
func runPTY(ctx context.Context, cfg *Config, w *emit.Writer, conv *conversation, controls <-chan emit.Control) (string, error) {
	profile, err := LoadProfile(cfg.provider().Profile, cfg.RulesFile)
	if err != nil {
		return "", err
	}
	persistent := cfg.persistent()
	if persistent && (profile.Ready == nil || len(cfg.Command) > 0) {
		return "", fmt.Errorf("profile %s has no ready screen (its input box): a persistent session cannot type the next prompt into it; run one turn per process with --prompt", profile.Name)
	}
	l, err := launchTUI(ctx, cfg, profile, conv)
	if err != nil {
		return "", err
	}
	argv := l.argv
	w.SetDriveMode("pty")
	if err := w.Init(string(cfg.Permission), []string{"Bash"}); err != nil {
		return "", err
	}
	var env []string
	if extra := append(l.env, cfg.providerEnv()...); len(extra) > 0 {
		env = append(os.Environ(), extra...)
	}
	start := func(argv []string, cols, rows int) (*ptyhost.Process, error) {
		return ptyhost.Start(ptyhost.Options{Argv: argv, Env: env, Dir: cfg.Cwd, Cols: cols, Rows: rows})
	}
	proc, err := start(argv, cfg.Cols, cfg.Rows)
	if err != nil {
		var nf *ptyhost.NotFoundError
		if errors.As(err, &nf) {
			if providers.IsPath(nf.Name) {
				return "", providers.NotFound(nf.Name)
			}
			return "", fmt.Errorf("provider binary %q not found in PATH: install it or pass --bin PATH", nf.Name)
		}
		if errors.Is(err, errors.ErrUnsupported) {
			return "", fmt.Errorf("starting %s: %w; %s", argv[0], err, structuredHint(cfg))
		}
		return "", fmt.Errorf("starting %s: %w", argv[0], err)
	}
	defer proc.Close()
	if c, ok := l.transcript.(io.Closer); ok {
		defer c.Close() // a log read through a subprocess (opencode's) stops it
	}
	var term ptyhost.Terminal = proc
	if l.probe != nil {
		g := newGuessedStart(proc, argv, cfg.Cols, cfg.Rows, l.probe)
		g.argvFor, g.start = l.argvFor, start
		g.restarted = func(own []string) {
			if cfg.Verbose {
				fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: %s did not take the flags guessed for its release; started again with its own: %s\n",
					argv[0], shellquote.Join(own[1:]...))
			}
		}
		defer g.Close()
		term = g
	}
	if cfg.RecordFile != "" {
		rec, err := startRecording(cfg, argv, term)
		if err != nil {
			return "", err
		}
		defer rec.finish(term)
		term = rec
		recordTranscript(rec, &l, cfg.Prompt, cfg.RecordRaw)
	}
	trace, closeTrace, err := traceWriter(cfg)
	if err != nil {
		return "", err
	}
	defer closeTrace()
	conv.checkpoint("pty", l.session)
	if persistent {
		// Each turn is stored as it ends: a session killed later keeps them.
		conv.tap.OnResult = func() { _ = conv.turnEnded("pty", l.session) } // Best effort; the last save reports.
	}
	outcome, err := driver.Drive(ctx, driver.Config{
		Dangers: cfg.Dangers,
		OnNote: func(m string) {
			if cfg.Verbose {
				fmt.Fprintln(cfg.IO.ErrOut, "yume-cli: "+m)
			}
		},
		Term:           term,
		Profile:        profile,
		Out:            w,
		Controls:       controls,
		Mode:           cfg.Permission,
		NoChannel:      cfg.NoChannel,
		TrustFolders:   cfg.TrustFolders,
		Prompt:         cfg.Prompt,
		TypePrompt:     l.typePrompt,
		CommandLine:    shellquote.Join(argv...),
		Cwd:            cfg.Cwd, // absolute: Start made it so
		Cols:           cfg.Cols,
		Rows:           cfg.Rows,
		Trace:          trace,
		Transcript:     l.transcript,
		UnaskedBy:      l.unaskedBy,
		UnaskedAfter:   l.unaskedAfter,
		LogAfterRun:    l.logAfterRun,
		LogEndsTurns:   l.logEndsTurns,
		IdleTimeout:    cfg.Bounds.Idle,
		TurnTimeout:    cfg.Bounds.Turn,
		ToolTimeout:    cfg.Bounds.Tool,
		Persistent:     persistent,
		OnTurn:         conv.said,
		EarlierAnswers: conv.earlierAnswers(),
		OnSession:      func(id string) { conv.checkpoint("pty", id) },
		FirstRun:       firstRunNote(cfg),
	})
	if cfg.Verbose {
		fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: %d question(s), %d denied; %s\n", outcome.Questions, outcome.Denials, outcome.Summary())
	}
	if l.probe != nil && err == nil && outcome.Succeeded() {
		// Asked now at the latest, for the cache: the next run needs no
		// guess (main waits for it). Not after a failed turn: its end
		// (a model error) is due at once, not after a --help that a
		// loaded machine takes seconds over; the next run asks again.
		l.probe.Start()
	}
	handle := l.session
	if outcome.ProviderSession != "" {
		handle = outcome.ProviderSession // the program picked it (Codex)
	}
	if err != nil {
		return handle, err
	}
	if persistent {
		if outcome.Failed || ctx.Err() != nil {
			return handle, &ExitError{Code: 1} // a turn it could not answer, or a signal ended the session
		}
		return handle, nil // each turn said how it ended; stdin's end ends the session
	}
	if !outcome.Succeeded() {
		return handle, &ExitError{Code: 1}
	}
	return handle, nil
}

// tuiLaunch is how one PTY turn starts: the command line, the program's
// transcript, and who approves what it runs unasked.
type tuiLaunch struct {
	argv       []string
	transcript transcript.Source
	unaskedBy  string
	// unaskedAfter: a program in its own auto mode asks nothing, so a
	// call in its transcript is reported as soon as it is seen to run.
	unaskedAfter time.Duration
	logAfterRun  bool     // the transcript holds a call only once it ran
	logEndsTurns bool     // the transcript marks each turn's end
	env          []string // on top of yume-cli's environment
	session      string   // the provider's session id
	typePrompt   bool     // the command line does not carry the prompt
	// probe, when not nil, is the program's --help still to be read: argv
	// holds the flags guessed for its release, argvFor makes them from
	// its own --help (guessedStart).
	probe   *providers.PendingProbe
	argvFor func(help string) ([]string, bool)
}

// probeError says that bin cannot be asked what it is, and how to fix it.
func probeError(p *providers.Provider, bin string, err error) error {
	if providers.IsPath(bin) {
		return fmt.Errorf("%s: %w", p.Name, err)
	}
	return fmt.Errorf("%s: %w; %s, or pass --bin PATH", p.Name, err, p.InstallHint())
}

// launchTUI builds the command line: "-- CMD ARGS…" as given; else the
// provider's TUI descriptor (its permission mode set from ours, detected
// from its --help; the prompt after "--"); else the profile's template.
func launchTUI(ctx context.Context, cfg *Config, profile *heuristics.Profile, conv *conversation) (tuiLaunch, error) {
	if len(cfg.Command) > 0 {
		// A program yume-cli knows by name keeps its side agents off, as
		// in its own TUI: yume-cli would cut them off too.
		env, err := providers.SideAgentsEnv(providers.ByCommand(cfg.Command), false, false, os.Getenv)
		// A prompt the command line does not carry is typed into the
		// program's input box, if it shows one before it asks anything.
		return tuiLaunch{argv: cfg.Command, env: env, typePrompt: cfg.Prompt != "" && !carries(cfg.Command, cfg.Prompt)}, err
	}
	p := cfg.provider()
	if p.TUI == nil {
		argv, err := commandLine(cfg, profile)
		return tuiLaunch{argv: argv}, err
	}
	bin := p.Program(cfg.Bin)
	// No probe on the way to the program's start: this binary's cached
	// answers, or its release's flags (read from its package, listed by
	// the provider or learned before); else the flags guessed for its
	// release while its own are read in the background (guessedStart
	// starts it again if they differ: only a release nobody listed).
	probe, exact, err := providers.KnownProbe(bin, p)
	if err != nil {
		return tuiLaunch{}, probeError(p, bin, err)
	}
	// Auto mode under the guard starts the program asking (cliMode):
	// every call then reaches the driver's policy, in auto mode.
	l := providers.Launch{Prompt: cfg.Prompt, Model: cfg.Model, APIBase: cfg.APIBase, Mode: cfg.cliMode(),
		Cwd: cfg.Cwd, Getenv: os.Getenv, Help: probe.Help, Started: time.Now(), Bin: bin}
	switch {
	case conv.handle() != "":
		l.Session, l.Resume = conv.handle(), true
	case p.TUI.NewSession != nil:
		l.Session = p.TUI.NewSession()
	}
	var later *providers.PendingProbe
	if !exact {
		later = providers.LaterProbe(ctx, bin) // started by guessedStart or after the turn
	}
	args, err := p.TUI.Args(l)
	if err != nil && later != nil {
		// Nothing guessed starts it: its own --help must say.
		probe, perr := later.Wait(ctx)
		if perr != nil {
			return tuiLaunch{}, probeError(p, bin, perr)
		}
		later, l.Help = nil, probe.Help
		args, err = p.TUI.Args(l)
	}
	if err != nil {
		return tuiLaunch{}, err
	}
	if p.TUI.Cols > 0 && !cfg.ColsSet {
		cfg.Cols = p.TUI.Cols
	}
	t := tuiLaunch{argv: append([]string{bin}, args...), session: l.Session, logAfterRun: p.TUI.LogAfterRun,
		logEndsTurns: p.TUI.LogEndsTurns, probe: later}
	if later != nil {
		t.argvFor = func(help string) ([]string, bool) {
			own := l
			own.Help = help
			args, err := p.TUI.Args(own)
			return append([]string{bin}, args...), err == nil
		}
	}
	if p.TUI.Transcript != nil {
		t.transcript = p.TUI.Transcript(l)
		if l.Resume {
			if err := conv.providerSessionThere(p, t.transcript); err != nil {
				return tuiLaunch{}, err
			}
		}
	}
	if p.TUI.Env != nil {
		t.env = p.TUI.Env(l)
	}
	// yume-cli quits the TUI after a turn: its side agents would be cut off.
	side, err := providers.SideAgentsEnv(p, l.Mode == permission.Auto, false, l.Getenv)
	if err != nil {
		return tuiLaunch{}, err
	}
	t.env = append(t.env, side...)
	t.typePrompt = p.TUI.PromptTyped != nil && p.TUI.PromptTyped(l)
	if p.TUI.ModeName != nil {
		t.unaskedBy = p.TUI.ModeName(l)
		if l.Mode != permission.Auto {
			t.unaskedBy += " (it did not ask: a read-only tool, or allowed by its settings)"
		} else {
			t.unaskedAfter = 1500 * time.Millisecond
		}
	}
	return t, nil
}

// carries reports that argv holds the prompt (its first line) already.
func carries(argv []string, prompt string) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(prompt), "\n")
	for _, a := range argv[1:] {
		if strings.Contains(a, first) {
			return true
		}
	}
	return false
}

// commandLine is the program to run: "-- CMD ARGS…" wins, else the
// profile's template with --bin as the program.
func commandLine(cfg *Config, p *heuristics.Profile) ([]string, error) {
	if len(cfg.Command) > 0 {
		return cfg.Command, nil
	}
	if len(p.Command) == 0 {
		return nil, fmt.Errorf("the %s profile does not say how to start %s: pass -- CMD ARGS…", p.Name, cfg.provider().Name)
	}
	argv := p.CommandLine(cfg.Prompt, cfg.Model) // one pass: a prompt's "{model}" stays text
	if cfg.Bin != "" {
		argv[0] = cfg.Bin
	}
	return argv, nil
}
