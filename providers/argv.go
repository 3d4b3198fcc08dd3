package providers

import (
	"fmt"
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// Text is never an option: on a program's command line the user's prompt
// comes after "--", as the value glued to its flag (--interactive=TEXT),
// or on stdin; a flag's value that starts with '-' is glued to its flag
// (appendFlag); and a session id must have the provider's id shape before
// it is put there (a stored session's file may have been changed, and
// `claude --resume -x` would read -x as an option).

// uuidShape is a UUID, the shape of the session ids Claude Code, Codex,
// Copilot CLI and Gemini CLI make and take.
var uuidShape = lazyre.New(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// sessionShapes are the providers whose session ids have a known shape.
var sessionShapes = map[string]*lazyre.Regexp{
	"claude": uuidShape, "codex": uuidShape, "copilot": uuidShape, "gemini": uuidShape,
}

// CheckSession reports whether id can be given to the provider's program
// as its own session id: the provider's id shape, or for a provider
// without one, at least no option (a leading '-') and no control
// character or space.
func (p *Provider) CheckSession(id string) error {
	return checkSession(p.Name, id)
}

func checkSession(provider, id string) error {
	if shape := sessionShapes[provider]; shape != nil {
		if !shape.MatchString(id) {
			return fmt.Errorf("%q is not a %s session id (a UUID, like 01a20093-4bdd-77c1-a518-78676408a977)", id, provider)
		}
		return nil
	}
	if id == "" || strings.HasPrefix(id, "-") || strings.IndexFunc(id, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return fmt.Errorf("%q is not a %s session id", id, provider)
	}
	return nil
}

// checkLaunchSession checks a launch's session id, when it has one.
func checkLaunchSession(provider string, l Launch) error {
	if l.Session == "" {
		return nil
	}
	if err := checkSession(provider, l.Session); err != nil {
		return fmt.Errorf("%s not started: %w", provider, err)
	}
	return nil
}

// appendFlag adds "flag value" when value is set; a value that starts
// with '-' is glued to the flag ("--model=-x"), so it is never read as an
// option of its own.
func appendFlag(args []string, flag, value string) []string {
	switch {
	case value == "":
		return args
	case strings.HasPrefix(value, "-"):
		return append(args, flag+"="+value)
	}
	return append(args, flag, value)
}
