package structured

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/yume-cli/yume-cli/emit"
)

// Options says which provider to run and how.
type Options struct {
	Provider string // codex | gemini | claude | copilot
	Mode     string // json | acp | auto ("" = auto)
	Bin      string // override binary ("" = provider default name in PATH)
	Model    string
	Cwd      string
	Prompt   string
	Resume   string // provider session id to continue
	// PermissionMode is default|interactive|auto|deny ("" = default).
	PermissionMode string
	// Controls carries the GUI's frames (nil = no control channel: approvals
	// are denials in default mode).
	Controls <-chan emit.Control
	// Stderr receives the provider's stderr and yume-cli's logs, never stdout.
	Stderr  io.Writer
	Verbose bool
	Env     []string // extra environment for the provider
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
	if opts.PermissionMode == "" {
		opts.PermissionMode = "default"
	}
	if !contains(emit.PermissionModes, opts.PermissionMode) {
		return fmt.Errorf("unknown permission mode %q; use one of %s", opts.PermissionMode, strings.Join(emit.PermissionModes, ", "))
	}
	p, ok := lookupProvider(opts.Provider)
	if !ok {
		return fmt.Errorf("unknown provider %q for structured mode; use one of %s", opts.Provider, strings.Join(Providers(), ", "))
	}
	if strings.TrimSpace(opts.Prompt) == "" {
		return errors.New("no prompt: pass --prompt TEXT")
	}
	bin := opts.Bin
	if bin == "" {
		bin = p.bin
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return fmt.Errorf("%s is not installed (%q not found in PATH): %s, or pass --bin PATH", p.name, bin, installHint(p.name))
	}
	mode, version, err := chooseMode(ctx, p.name, path, opts.Mode, opts.Resume != "")
	if err != nil {
		return err
	}
	if opts.Verbose {
		fmt.Fprintf(opts.Stderr, "yume-cli: %s %s at %s, mode %s, permission mode %s\n", p.name, version, path, mode, opts.PermissionMode)
	}
	// Yume shows which way the provider is driven right after init.
	if version == "" {
		version = "(unknown version)"
	}
	note := fmt.Sprintf("yume-cli: %s %s in %s mode", p.name, version, mode)
	w.SetDriveMode(mode)
	if mode == "acp" {
		return runACP(ctx, opts, w, p, path, note)
	}
	return runJSON(ctx, opts, w, p, path, note)
}

// chooseMode resolves "auto" to the best structured mode of the installed
// version (acp, then json); PTY is the caller's fallback. A resumed Gemini
// turn uses json: Gemini's ACP session/load finds no session (not even one
// its ACP server recorded, verified with 0.61.0), while `gemini --resume`
// continues both kinds.
func chooseMode(ctx context.Context, name, path, mode string, resume bool) (chosen, version string, err error) {
	switch mode {
	case "json", "acp":
		v, _ := DetectVersion(ctx, path) // Only reported; an explicit mode is tried regardless.
		if mode == "acp" && !Supports(name, "", "acp") {
			return "", v, fmt.Errorf("%s has no ACP mode; use --mode json", name)
		}
		return mode, v, nil
	case "", "auto":
		v, err := DetectVersion(ctx, path)
		if err != nil {
			return "", "", fmt.Errorf("cannot tell which modes %s supports: %w; pass --mode json or --mode pty", name, err)
		}
		m := Modes(name, v)
		if resume && name == "gemini" && contains(m, "json") {
			return "json", v, nil
		}
		if len(m) > 0 {
			return m[0], v, nil
		}
		return "", v, fmt.Errorf("%s %s has no structured mode; use --mode pty or update it (%s)", name, v, installHint(name))
	}
	return "", "", fmt.Errorf("unknown structured mode %q; use json, acp or auto", mode)
}

// jsonArgs builds the provider's command line for its JSON mode, and the
// text to write on its stdin (empty = no stdin).
func jsonArgs(opts Options) (args []string, stdin string) {
	switch opts.Provider {
	case "claude":
		args = []string{"-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
			"--permission-prompt-tool", "stdio"}
		args = appendFlag(args, "--model", opts.Model)
		args = appendFlag(args, "--resume", opts.Resume)
		msg, _ := json.Marshal(map[string]any{"type": "user", "session_id": "", "parent_tool_use_id": nil,
			"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": opts.Prompt}}}})
		return args, string(msg) + "\n"
	case "codex":
		// codex exec cannot ask for approvals: the sandbox is chosen up front.
		sandbox := "read-only"
		if opts.PermissionMode == "auto" {
			sandbox = "workspace-write"
		}
		args = []string{"exec", "--json", "--skip-git-repo-check", "--sandbox", sandbox}
		args = appendFlag(args, "--model", opts.Model)
		if opts.Resume != "" {
			args = append(args, "resume", opts.Resume)
		}
		return append(args, "-"), opts.Prompt
	case "gemini":
		args = []string{"--output-format", "stream-json", "--prompt=" + opts.Prompt}
		if opts.PermissionMode == "auto" {
			args = append(args, "--approval-mode", "yolo")
		}
		args = appendFlag(args, "--model", opts.Model)
		return appendFlag(args, "--resume", opts.Resume), ""
	case "copilot":
		args = []string{"--prompt=" + opts.Prompt, "--output-format", "json"}
		if opts.PermissionMode == "auto" {
			args = append(args, "--allow-all-tools")
		}
		args = appendFlag(args, "--model", opts.Model)
		return appendFlag(args, "--resume", opts.Resume), ""
	}
	return nil, ""
}

func appendFlag(args []string, flag, value string) []string {
	if value == "" {
		return args
	}
	return append(args, flag, value)
}

// runJSON runs a provider's JSON mode and translates its output.
func runJSON(ctx context.Context, opts Options, w *emit.Writer, p provider, path, note string) error {
	args, input := jsonArgs(opts)
	pr, err := startProc(p.name, path, args, opts.Cwd, opts.Env, input != "", opts.Stderr)
	if err != nil {
		return err
	}
	tr, err := NewTranslator(p.name, w, opts.PermissionMode)
	if err != nil {
		pr.interrupt()
		_ = pr.wait() // The translator error is the one to report.
		return err
	}
	tr.(noter).setNote(note)
	var interrupted atomic.Bool
	stop := func() { interrupted.Store(true); pr.interrupt() }
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			stop()
		case <-done:
		}
	}()
	ap := newApprover(w, opts.PermissionMode, opts.Controls, stop, done)

	var stdinMu sync.Mutex
	closeStdin := func() {}
	if pr.stdin != nil {
		var once sync.Once
		closeStdin = func() { once.Do(func() { stdinMu.Lock(); _ = pr.stdin.Close(); stdinMu.Unlock() }) }
		stdinMu.Lock()
		_, werr := io.WriteString(pr.stdin, input)
		stdinMu.Unlock()
		if werr != nil {
			fmt.Fprintf(opts.Stderr, "yume-cli: writing the prompt to %s: %v\n", p.name, werr)
		}
		if p.name != "claude" {
			closeStdin() // Only Claude keeps stdin open, for control responses.
		}
	}
	if c, ok := tr.(*claudeTranslator); ok {
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
	gated := &gatedTranslator{Translator: tr, interrupted: &interrupted}
	stats, perr := pump(pr.stdout, gated, p.name, opts.Stderr, func() {
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
		fmt.Fprintf(opts.Stderr, "yume-cli: %s: %d lines, %d malformed, exit %v\n", p.name, stats.Lines, stats.Malformed, exit)
	}
	if perr != nil {
		return perr
	}
	if interrupted.Load() {
		return tr.(aborter).abort()
	}
	return tr.Finish(exit)
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

// installHint says how to install a provider.
func installHint(name string) string {
	switch name {
	case "claude":
		return "install it with `npm install -g @anthropic-ai/claude-code`"
	case "codex":
		return "install it with `npm install -g @openai/codex`"
	case "copilot":
		return "install it with `npm install -g @github/copilot`"
	case "gemini":
		return "install it with `npm install -g @google/gemini-cli`"
	}
	return "install it"
}
