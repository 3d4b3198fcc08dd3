package run

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
)

// A persistent session (`start --session-id ID` with no --prompt and no
// program): one init for the process, then a turn for each user frame on
// stdin, each ending with result + message_stop; stdin's end ends the
// session (exit 0). In the PTY the program stays open between turns (the
// driver types each prompt into its input box); a structured provider is
// run once per turn, resuming its own session.

// persistent reports whether the run is a persistent session
// (a program after -- runs once, except an ACP agent's, which is started
// for each turn like a named one).
func (cfg *Config) persistent() bool {
	return cfg.SessionID != "" && cfg.Prompt == "" && (len(cfg.Command) == 0 || cfg.Provider.Name == providers.ACP)
}

// runTurns runs a persistent session.
func runTurns(ctx context.Context, cfg *Config, w *emit.Writer, mode string, conv *conversation) (string, error) {
	frames := readControls(ctx, cfg, w)
	if frames == nil {
		return "", errors.New("a persistent session (--session-id without --prompt) reads its prompts as user frames on stdin, and stdin is not readable: pipe the frames in, or pass --prompt")
	}
	if mode == "pty" {
		return runPTY(ctx, cfg, w, conv, frames)
	}
	return runStructuredTurns(ctx, cfg, w, mode, conv, frames)
}

// runStructuredTurns runs the provider once per user frame, each run
// resuming the provider's session of the last, and hands the frames that
// come during a turn to it.
func runStructuredTurns(ctx context.Context, cfg *Config, w *emit.Writer, mode string, conv *conversation, frames <-chan emit.Control) (string, error) {
	w.SetDriveMode(mode)
	if err := w.Init(string(cfg.Permission), cfg.provider().Tools); err != nil {
		return "", err
	}
	policy := permission.New(cfg.Permission, true)
	handle := ""
	for {
		var f emit.Control
		var ok bool
		select {
		case f, ok = <-frames:
		case <-ctx.Done():
			return handle, &ExitError{Code: 1} // a signal ended the session
		}
		if !ok {
			return handle, nil // stdin ended: so does the session
		}
		switch f.Kind {
		case emit.ControlUser:
			if strings.TrimSpace(f.Text) == "" {
				_ = w.SystemError("user: the prompt is empty; nothing was sent") // Best effort, as every frame complaint.
				continue
			}
			for prompt := f.Text; prompt != ""; {
				var more bool
				handle, more, prompt = structuredTurn(ctx, cfg, w, mode, conv, prompt, frames)
				if !more {
					return handle, nil
				}
			}
		case emit.ControlSetMode:
			cfg.Permission = f.Mode
			_ = w.Notice(policy.SetMode(f.Mode))
		default:
			_ = w.SystemError(fmt.Sprintf("%s: no turn is running (the last one has its result); send a user frame first", f.Kind))
		}
	}
}

// structuredTurn runs one turn and forwards frames to it while it runs;
// more is false once stdin has ended. A prompt sent after the turn's
// result, while its provider is still exiting, is next.
func structuredTurn(ctx context.Context, cfg *Config, w *emit.Writer, mode string, conv *conversation, prompt string, frames <-chan emit.Control) (handle string, more bool, next string) {
	w.NewTurn()
	conv.said(prompt)
	turn := *cfg
	turn.Prompt = prompt
	in := make(chan emit.Control)
	type ended struct {
		handle string
		err    error
	}
	done := make(chan ended, 1)
	go func() {
		h, err := runStructured(ctx, &turn, w, mode, conv, in)
		done <- ended{h, err}
	}()
	more = true
	for {
		select {
		case f, ok := <-frames:
			if !ok {
				close(in) // the turn sees stdin's end: what waits is denied
				frames, more = nil, false
				continue
			}
			if f.Kind == emit.ControlUser {
				if w.TurnEnded() && next == "" && strings.TrimSpace(f.Text) != "" {
					next = f.Text // the result is out; the provider is exiting
					continue
				}
				_ = w.SystemError("user: a turn is running; send the next prompt after its result")
				continue
			}
			select {
			case in <- f:
			case e := <-done:
				_ = w.SystemError(fmt.Sprintf("%s: the turn ended before it took this frame", f.Kind))
				return finishTurn(w, conv, mode, e.handle, e.err), more, next
			}
		case e := <-done:
			return finishTurn(w, conv, mode, e.handle, e.err), more, next
		}
	}
}

// finishTurn makes sure the turn has its result and stores it.
func finishTurn(w *emit.Writer, conv *conversation, mode, handle string, err error) string {
	var ee *ExitError
	if err != nil && !errors.As(err, &ee) {
		_ = w.Fail(err) // Best effort: a no-op when the turn already ended.
	}
	if !w.TurnEnded() {
		_ = w.Result(emit.Result{})
	}
	if err := conv.turnEnded(mode, handle); err != nil {
		_ = w.Notice("the session could not be stored: " + err.Error())
	}
	return handle
}
