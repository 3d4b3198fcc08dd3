package structured

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/internal/lastwords"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/transcript"
)

// Options says which provider to run and how.
type Options struct {
	Provider *providers.Provider
	Mode     string // json | acp | auto ("" = auto)
	Bin      string // override binary ("" = provider default name in PATH)
	Model    string
	Cwd      string
	// Dangers is the dangerous-command set: marked calls, and no auto
	// approval for them (nil: the embedded set, from the current directory).
	Dangers *permission.Dangers
	Prompt  string
	Resume  string // provider session id to continue
	// PermissionMode is default|interactive|auto|deny ("" = default).
	PermissionMode permission.Mode
	// Controls carries the GUI's frames (nil = no control channel: NoChannel
	// answers default mode's questions).
	Controls <-chan emit.Control
	// NoChannel answers for nobody ("": the guard).
	NoChannel permission.Fallback
	// Stderr receives the provider's stderr and yume-cli's logs, never stdout.
	Stderr  io.Writer
	Verbose bool
	Env     []string // extra environment for the provider
	// Command, when set, is the whole command line of the agent
	// (--provider acp -- CMD ARGS…): no version probe, no flags added.
	Command []string
	// APIBase is --api-base for a provider that takes it in its own
	// configuration (providers.Provider.APIBaseCheck).
	APIBase string
	// OnSession hears the provider's own session id: what --resume of
	// this conversation hands back to it.
	OnSession func(id string)
	// FirstRun says what else the provider needs before it can work in
	// Cwd (credentials missing), for an error before its first word;
	// called with screen "" (nil: nothing).
	FirstRun func(screen string) string
	// debugAt is the run as its debug log knows it (providers.DebugLog).
	debugAt providers.Launch
}

// Run runs one turn of a provider in a structured mode and emits it on w,
// from init to result. Cancelling ctx interrupts the provider: the turn
// then ends with an interrupt line and an error result. Every turn ends
// with exactly one result, also when the provider cannot be started.
func Run(ctx context.Context, opts Options, w *emit.Writer) error {
	return emit.Guard(w, func() error { return run(ctx, opts, w) })
}

func run(ctx context.Context, opts Options, w *emit.Writer) error {
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	if _, isFile := opts.Stderr.(*os.File); !isFile {
		// The provider's stderr is copied in by os/exec's goroutine while
		// yume-cli logs from its own: a writer that is not a file (a
		// test's buffer) takes one write at a time.
		opts.Stderr = &lockedWriter{w: opts.Stderr}
	}
	perm, err := permission.Parse(string(opts.PermissionMode))
	if err != nil {
		return err
	}
	opts.PermissionMode = perm
	p := opts.Provider
	if p == nil || len(p.Structured) == 0 {
		return fmt.Errorf("no structured mode for provider %v; use one of %s", p, strings.Join(providers.WithStructured(), ", "))
	}
	if strings.TrimSpace(opts.Prompt) == "" {
		return errors.New("no prompt: pass --prompt TEXT")
	}
	bin := p.Program(opts.Bin)
	if len(opts.Command) > 0 {
		bin = opts.Command[0]
	}
	if bin == "" {
		return fmt.Errorf("--provider %s needs the agent's command line: yume-cli --provider %s -- CMD ARGS…", p.Name, p.Name)
	}
	var acpMode providers.Mode
	if len(opts.Command) > 0 {
		if acpMode, err = commandMode(opts); err != nil {
			return err
		}
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		if strings.ContainsRune(bin, '/') || len(opts.Command) > 0 {
			return providers.NotFound(bin)
		}
		return fmt.Errorf("%s is not installed (%q not found in PATH): %s, or pass --bin PATH", p.Name, bin, p.InstallHint())
	}
	if len(opts.Command) > 0 {
		return runCommand(ctx, opts, w, acpMode, path, perm)
	}
	mode, version, err := chooseMode(ctx, p, path, opts.Mode, opts.Resume != "")
	if err != nil {
		return err
	}
	if mode.CannotAsk && (perm == permission.Default || perm == permission.Interactive) {
		return fmt.Errorf("%s's %s mode cannot ask before a command (it rejects what it would ask), and --permission-mode %s must ask: use --mode %s, or --permission-mode auto or deny",
			p.Name, mode.Name, perm, strings.Join(slices.DeleteFunc(p.Modes(version), func(m string) bool { return m == mode.Name }), " or --mode "))
	}
	if opts.Verbose {
		fmt.Fprintf(opts.Stderr, "yume-cli: %s %s at %s, mode %s, permission mode %s\n", p.Name, version, path, mode.Name, opts.PermissionMode)
	}
	// Yume shows which way the provider is driven right after init.
	if version == "" {
		version = "(unknown version)"
	}
	note := fmt.Sprintf("yume-cli: %s %s in %s mode", p.Name, version, mode.Name)
	w.SetDriveMode(mode.Name)
	probe, _ := providers.ProbeFor(ctx, path, p) // Best effort: no help, no detected flags.
	inv := mode.Command(providers.Request{Prompt: opts.Prompt, Model: opts.Model, Resume: opts.Resume,
		Auto: perm == permission.Auto, Help: probe.Help, APIBase: opts.APIBase})
	if inv.Session != "" && opts.OnSession != nil {
		opts.OnSession(inv.Session)
	}
	side, err := sideAgentsEnv(opts, p, perm, mode.WaitsForSideAgents)
	if err != nil {
		return err
	}
	opts.Env = slices.Concat(opts.Env, inv.Env, side)
	if d := p.DebugLog; d != nil {
		// Its retries of a failed model request go to a debug log only.
		opts.debugAt = providers.Launch{Cwd: opts.Cwd, Getenv: getenv(opts.Env), Started: time.Now()}
		path, _ := d.Path(opts.debugAt)
		opts.Env = append(opts.Env, d.Env(path)...)
	}
	if mode.Name == providers.ModeACP {
		return runACP(ctx, opts, w, mode, inv, path, note)
	}
	return runJSON(ctx, opts, w, mode, inv, path, note)
}

// modeAdvice lists the --mode values p can be started with, for an
// error that asks for one.
func modeAdvice(p *providers.Provider) string {
	var modes []string
	for _, m := range p.Modes("") {
		modes = append(modes, "--mode "+m)
	}
	if p.Profile != "" {
		modes = append(modes, "--mode pty")
	}
	if len(modes) > 1 {
		return strings.Join(modes[:len(modes)-1], ", ") + " or " + modes[len(modes)-1]
	}
	return strings.Join(modes, "")
}

// chooseMode resolves "auto" to the best structured mode of the installed
// version (acp, then json) that can do what the turn needs (a resume); PTY
// is the caller's fallback. An explicit mode is tried whatever the version.
func chooseMode(ctx context.Context, p *providers.Provider, path, mode string, resume bool) (chosen providers.Mode, version string, err error) {
	switch mode {
	case providers.ModeJSON, providers.ModeACP:
		v, _ := providers.DetectVersionFor(ctx, path, p) // Only reported; an explicit mode is tried regardless.
		m, ok := p.ModeFor(mode, "")
		if !ok {
			return m, v, fmt.Errorf("%s has no %s mode; use --mode %s", p.Name, strings.ToUpper(mode), strings.Join(p.Modes(""), " or --mode "))
		}
		if vm, ok := p.ModeFor(mode, v); ok {
			m = vm // the format this version speaks
		}
		return m, v, nil
	case "", "auto":
		v, err := providers.DetectVersionFor(ctx, path, p)
		if err != nil {
			return providers.Mode{}, "", fmt.Errorf("cannot tell which modes %s supports: %w; check that %s is %s (try `%s --version`), or pass %s",
				p.Name, err, path, p.Name, path, modeAdvice(p))
		}
		names := p.Modes(v)
		for _, name := range names {
			if m, _ := p.ModeFor(name, v); m.Resumes || !resume {
				return m, v, nil
			}
		}
		if len(names) > 0 {
			m, _ := p.ModeFor(names[0], v)
			return m, v, nil
		}
		return providers.Mode{}, v, fmt.Errorf("%s %s has no structured mode; use --mode pty or update it (%s)", p.Name, v, p.InstallHint())
	}
	return providers.Mode{}, "", fmt.Errorf("unknown structured mode %q; use json, acp or auto", mode)
}

// runJSON runs a provider's JSON mode and translates its output.
func runJSON(ctx context.Context, opts Options, w *emit.Writer, mode providers.Mode, inv providers.Invocation, path, note string) error {
	p := opts.Provider
	input := inv.Stdin
	started := time.Now()
	watch := newErrorWatch(w, p.Name) // model errors (modelerror.go)
	opts.Stderr = watch.tee(opts.Stderr)
	words := lastwords.NewTail() // its stderr, for a failed start (startfail.go)
	pr, err := startProvider(withWords(opts, words), path, inv.Args, input != "" || inv.KeepStdin)
	if err != nil {
		return err
	}
	tr, err := NewTranslator(p, mode, w, string(opts.PermissionMode))
	if err != nil {
		pr.interrupt()
		_ = pr.wait() // The translator error is the one to report.
		return err
	}
	tr.setWords(words)
	tr.setDangers(opts.Dangers)
	tr.setNote(note)
	tr.setFirstRun(opts.FirstRun)
	var session atomic.Value // the provider's session id, once known
	tr.onProviderSession(func(id string) {
		session.Store(id)
		if opts.OnSession != nil {
			opts.OnSession(id)
		}
	})
	tr.watch = watch
	watch.beginWith(tr.ensureInit)
	watch.followDebugLog(p.DebugLog, opts.debugAt, func() string {
		id, _ := session.Load().(string)
		return cmp.Or(id, inv.Session, opts.Resume)
	})
	var ends []func() error
	if mode.TranscriptFillsGaps && p.TUI != nil && p.TUI.Transcript != nil {
		src := p.TUI.Transcript(providers.Launch{Cwd: opts.Cwd, Getenv: getenv(opts.Env), Started: started})
		ends = append(ends, func() error {
			evs, _ := src.Poll() // Best effort: no transcript, nothing to add.
			return tr.fillGaps(evs)
		})
	}
	if mode.UsageFromTranscript && p.TUI != nil && p.TUI.Transcript != nil {
		ends = append(ends, func() error {
			if tr.usage != nil {
				return nil // the stream told them
			}
			src := p.TUI.Transcript(providers.Launch{Session: cmp.Or(tr.providerSession, inv.Session, opts.Resume),
				Cwd: opts.Cwd, Getenv: getenv(opts.Env), Started: started})
			tally := transcript.Tally{Since: started}
			if u, ok := pollUsage(src, &tally); ok {
				tr.setUsage(u)
			}
			if c, ok := src.(io.Closer); ok {
				_ = c.Close() // Best effort: read once.
			}
			return nil
		})
	}
	if len(ends) > 0 {
		tr.beforeEnding(func() error {
			for _, f := range ends {
				if err := f(); err != nil {
					return err
				}
			}
			return nil
		})
	}
	tr.reportSideCalls(nil, func() providers.Launch {
		return providers.Launch{Cwd: opts.Cwd, Getenv: getenv(opts.Env), Started: started}
	})
	pr.watch(ctx, pr.interrupt)
	defer pr.release()
	watch.start(pr.stop)
	defer watch.close()
	ap := pr.approver(w, opts)

	var stdinMu sync.Mutex
	closeStdin := func() {}
	if pr.stdin != nil {
		var once sync.Once
		closeStdin = func() { once.Do(func() { stdinMu.Lock(); _ = pr.stdin.Close(); stdinMu.Unlock() }) }
		stdinMu.Lock()
		_, werr := io.WriteString(pr.stdin, input)
		stdinMu.Unlock()
		if werr != nil {
			fmt.Fprintf(opts.Stderr, "yume-cli: writing the prompt to %s: %v\n", p.Name, werr)
		}
		if !inv.KeepStdin {
			closeStdin() // Only a permission relay keeps stdin open.
		}
	}
	if c := tr.claude; c != nil {
		relay := &claudeRelay{ctx: ctx, t: c, ap: ap, write: func(v any) error {
			b, _ := json.Marshal(v)
			stdinMu.Lock()
			defer stdinMu.Unlock()
			_, err := pr.stdin.Write(append(b, '\n'))
			return err
		}}
		c.control = relay.handle
	}
	// Once interrupted, the provider's further output is dropped: the turn
	// ends as interrupted whatever the provider says while shutting down.
	gated := &gatedTranslator{Translator: tr, interrupted: &pr.interrupted}
	stats, perr := pump(words.Reader(pr.stdout), gated, p.Name, opts.Stderr, func() {
		if w.TurnEnded() {
			closeStdin() // Claude waits for more input after its result.
		}
	})
	closeStdin()
	if perr != nil {
		pr.interrupt()
	}
	exit := pr.wait()
	if opts.Verbose {
		fmt.Fprintf(opts.Stderr, "yume-cli: %s: %d lines, %d malformed, exit %v\n", p.Name, stats.Lines, stats.Malformed, exit)
	}

	if perr != nil {
		return perr
	}
	if pr.interrupted.Load() {
		return tr.abort()
	}
	return tr.Finish(exit)
}

// getenv reads the provider's environment: ours, with env's entries on top.
func getenv(env []string) func(string) string {
	return func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], k+"="); ok {
				return v
			}
		}
		return os.Getenv(k)
	}
}

// gatedTranslator drops lines once the run was interrupted.
type gatedTranslator struct {
	Translator
	interrupted *atomic.Bool
}

func (g *gatedTranslator) Line(line []byte) error {
	if g.interrupted.Load() {
		return nil
	}
	return g.Translator.Line(line)
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
