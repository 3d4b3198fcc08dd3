package run

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
)

// maxStdinPrompt bounds a prompt read from stdin.
const maxStdinPrompt = 1 << 20

// promptFromStdin reads the turn's prompt from a piped stdin when there is
// no --prompt (the seed spec: "--prompt (or stdin)"). A first line that is
// a user frame is the prompt and the rest of stdin stays the control
// channel; otherwise all of stdin is the prompt, as text.
func promptFromStdin(cfg *Config) error {
	if cfg.Prompt != "" || len(cfg.Command) > 0 || cfg.persistent() || cfg.IO.In == nil || cfg.IO.InIsTerminal {
		return nil
	}
	r := bufio.NewReaderSize(cfg.IO.In, 64<<10)
	cfg.IO.In = r
	first, err := r.ReadBytes('\n')
	if err != nil && err != io.EOF {
		return fmt.Errorf("reading the prompt from stdin: %w", err)
	}
	if line := bytes.TrimSpace(first); len(line) > 0 && line[0] == '{' {
		if f, perr := emit.ParseControl(line); perr == nil && f.Kind == emit.ControlUser {
			cfg.Prompt = f.Text
			return nil
		}
	}
	rest, rerr := io.ReadAll(io.LimitReader(r, maxStdinPrompt))
	if rerr != nil {
		return fmt.Errorf("reading the prompt from stdin: %w", rerr)
	}
	cfg.Prompt = strings.TrimSpace(string(first) + string(rest))
	cfg.IO.In = nil // stdin was the prompt: there is no control channel
	return nil
}
