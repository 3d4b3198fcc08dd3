package providers

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Which session of the workspace is this run's: the TUI's server or the
// CLI lists them, and the run claims one created after its launch, the
// running one, or the one whose first message is its prompt (claim).

// find looks for this run's session in the session list.
func (o *openCodeLog) find(srv *openCodeServer) (string, error) {
	if srv != nil {
		rows, err := srv.sessions()
		if err != nil {
			return "", fmt.Errorf("%s session list: %w", o.name, err)
		}
		return o.claim(listedSince(rows, o.dir, o.seen.since), srv.running, srv.firstPrompt), nil
	}
	out, err := o.run("session", "list", "--format", "json", "-n", "20")
	if err != nil {
		return "", fmt.Errorf("%s session list: %w", o.name, err)
	}
	rows, err := parseOpenCodeList(out)
	if err != nil {
		return "", fmt.Errorf("%s session list: %w", o.name, err)
	}
	// The CLI tells no session's status: the first message decides, as
	// through a server with none. The first created was a twin TUI's
	// under load (its server slow to answer, the CLI read instead).
	return o.claim(listedSince(rows, o.dir, o.seen.since), noStatus, o.firstPromptCLI), nil
}

// noStatus stands for the session status the CLI does not tell.
func noStatus() (map[string]bool, error) { return nil, errOpenCodeNotFound }

// firstPromptCLI is session's first message, read with the CLI's export
// ("" while it has none, or cannot be read).
func (o *openCodeLog) firstPromptCLI(session string) string {
	out, err := o.run("export", session)
	if err != nil {
		return ""
	}
	x, err := parseOpenCodeExport(out)
	if err != nil {
		return ""
	}
	return firstUserText(x)
}

// claim is the session of found (the workspace's, since the launch)
// this TUI is at work on, as its server's status says. Another TUI
// started in the same workspace at the same time lists its session too
// (they share the program's database), and may create it first, but it
// is never at work on this TUI's server. One none is at work on is taken
// only once openCodeClaim has passed since the list first held one (this
// TUI's turn may have ended between two reads; a server with no status at
// all, 404, at once): the first created whose first message is this run's
// prompt (first tells it: the other TUI's turn may have ended unseen too,
// and under load a TUI's session came 10 s after its twin's), or with no
// prompt known, the first created.
func (o *openCodeLog) claim(found []openCodeListed, running func() (map[string]bool, error), first func(id string) string) string {
	if len(found) == 0 {
		return ""
	}
	busy, err := running()
	for _, r := range found {
		if busy[r.ID] {
			return r.ID
		}
	}
	if o.listedAt.IsZero() {
		o.listedAt = time.Now()
	}
	if !errors.Is(err, errOpenCodeNotFound) && time.Since(o.listedAt) < openCodeClaim {
		return ""
	}
	if o.prompt == "" {
		return found[0].ID
	}
	for _, r := range found {
		if o.notOurs[r.ID] {
			continue
		}
		switch text := first(r.ID); {
		case strings.Contains(text, o.prompt):
			return r.ID
		case text != "": // another run's, for good: not read again
			if o.notOurs == nil {
				o.notOurs = map[string]bool{}
			}
			o.notOurs[r.ID] = true
		}
	}
	return ""
}
