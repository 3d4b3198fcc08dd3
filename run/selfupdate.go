package run

import (
	"context"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// selfUpdateEvery is how often the process tree is looked at for an
// agent updating itself (providers.NoSelfUpdate turns off those that
// have a switch).
const selfUpdateEvery = time.Second

// watchSelfUpdates says, as a system error Yume shows, each self-update
// a program under yume-cli starts ("npm update -g …"): the program it
// drives changes under it. It returns the function that stops watching.
func watchSelfUpdates(ctx context.Context, w *emit.Writer) func() {
	ctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		seen := map[string]bool{}
		tick := time.NewTicker(selfUpdateEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			for _, cmd := range ptyhost.SelfUpdates() {
				if !seen[cmd] {
					seen[cmd] = true
					_ = w.TurnError("yume-cli: the program started a self-update (" + cmd + "): it changes the installed program while yume-cli drives it; turn its automatic updates off in its own settings") // Best effort: the stream may be closed.
				}
			}
		}
	}()
	return func() { stop(); <-done }
}
