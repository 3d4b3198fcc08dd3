package run

import (
	"bufio"
	"bytes"
	"context"
	"fmt"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/permission"
)

// readControls reads the GUI's control frames from stdin. Yume's spawner
// does not write stdin (it may be /dev/null, or a terminal if Yume was
// started from one), so a terminal is a control channel only when the
// person asked for --permission-mode interactive, or for a persistent
// session (whose prompts come as frames).
// The goroutine stops handing frames on once ctx ends (the session is
// over and nobody reads the channel).
func readControls(ctx context.Context, cfg *Config, w *emit.Writer) <-chan emit.Control {
	if !hasControlChannel(cfg) {
		return nil
	}
	ch := make(chan emit.Control)
	go func() {
		defer close(ch)
		r := bufio.NewReaderSize(cfg.IO.In, 64<<10)
		words := answersInWords(cfg)
		for n := 1; ; n++ {
			line, long, err := readLine(r, maxControlLine)
			switch {
			case long:
				// Said, skipped, and the channel stays open: one bad line
				// must not deny what waits and ignore every later answer.
				_ = w.SystemError(fmt.Sprintf("stdin line %d: a control frame longer than %d bytes; it was skipped", n, maxControlLine)) // Best effort.
			case len(line) > 0 || words && err == nil && waiting(w): // Enter takes the default: no
				f, perr := readFrame(line, words, w)
				if perr != nil {
					_ = w.SystemError(fmt.Sprintf("stdin line %d: %v", n, perr)) // Best effort.
					if words {
						fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: %v\n", perr)
					}
					break
				}
				select {
				case ch <- f:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				return // EOF (or a read error): the channel closes
			}
		}
	}()
	return ch
}

// readFrame reads one line of stdin: a JSON control frame, or, from a
// person at a terminal, an answer in words. A malformed frame's error
// shows one that would be accepted now.
func readFrame(line []byte, words bool, w *emit.Writer) (emit.Control, error) {
	if words {
		if c, ok, err := answerInWords(string(line), w); ok {
			return c, err
		}
	}
	f, err := emit.ParseControl(line)
	if err != nil {
		return f, fmt.Errorf("%w; a valid frame now: %s", err, validFrame(w))
	}
	return f, nil
}

func waiting(w *emit.Writer) bool { _, ok := w.Waiting(); return ok }

// hasControlChannel reports whether stdin may carry control frames: not
// when there is none, when it is /dev/null (a one-turn run), nor when it
// is a terminal that was not asked for.
func hasControlChannel(cfg *Config) bool {
	switch {
	case cfg.IO.In == nil:
		return false
	case cfg.persistent():
		return true
	case cfg.IO.InIsNull:
		return false
	}
	return !cfg.IO.InIsTerminal || cfg.Permission == permission.Interactive
}

// maxControlLine bounds one control frame (a user prompt may be long).
const maxControlLine = 16 << 20

// readLine reads one line without its newline. A line longer than max is
// read to its end and dropped (long is true), so the next line is whole.
func readLine(r *bufio.Reader, max int) (line []byte, long bool, err error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)+len(chunk) > max+2 { // +2: the line's own "\r\n"
			long, buf = true, nil
		} else if !long {
			buf = append(buf, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		line = bytes.TrimRight(buf, "\r\n")
		if len(line) > max {
			line, long = nil, true
		}
		return line, long, err
	}
}
