package main

import (
	"bufio"
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
func readControls(ctx context.Context, o *StartOptions, w *emit.Writer) <-chan emit.Control {
	if o.IO.In == nil || (o.IO.InIsTerminal && o.PermissionMode != string(permission.Interactive) && !o.persistent()) {
		return nil
	}
	ch := make(chan emit.Control)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(o.IO.In)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		n := 0
		for sc.Scan() {
			n++
			line := sc.Bytes()
			if len(line) == 0 {
				continue
			}
			f, err := emit.ParseControl(line)
			if err != nil {
				_ = w.SystemError(fmt.Sprintf("stdin line %d: %v", n, err)) // Best effort.
				continue
			}
			select {
			case ch <- f:
			case <-ctx.Done():
				return
			}
		}
	}()
	return ch
}
