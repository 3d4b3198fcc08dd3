package permission

import (
	"fmt"
	"regexp"
	"strings"
)

// Exception is an exception to the dangerous set: a command line, one simple
// command of it, or a file tool's path that Match matches as a whole is
// not flagged (the guard lets it run, auto mode approves it). Matching
// the whole of a simple command means an exception for
// "rm -rf node_modules" lets "cd web && rm -rf node_modules" run, and
// never "rm -rf node_modules; sudo reboot" or "sudo rm -rf node_modules".
type Exception struct {
	Match  string `yaml:"match"`
	Reason string `yaml:"reason"`

	re *regexp.Regexp
}

// Compile checks the exception and readies its pattern.
func (a *Exception) Compile() error {
	switch {
	case strings.TrimSpace(a.Match) == "":
		return fmt.Errorf("match: needed (a regexp the whole command or path must match)")
	case strings.TrimSpace(a.Reason) == "":
		return fmt.Errorf("reason: needed (why it may run: it is said with every call it lets through)")
	}
	re, err := regexp.Compile(`^(?:` + a.Match + `)$`)
	if err != nil {
		if _, perr := regexp.Compile(a.Match); perr != nil {
			err = perr // the user's own pattern's error, not the anchored one's
		}
		return fmt.Errorf("match: %w", err)
	}
	a.re = re
	return nil
}

// Matches reports whether text, trimmed, is all the exception's pattern.
func (a *Exception) Matches(text string) bool {
	return a.re != nil && a.re.MatchString(strings.TrimSpace(text))
}

// allowFor returns the first exception that matches one of texts, or nil.
func (s *Dangers) allowFor(texts ...string) *Exception {
	for i := range s.allows {
		for _, t := range texts {
			if t != "" && s.allows[i].Matches(t) {
				return &s.allows[i]
			}
		}
	}
	return nil
}
