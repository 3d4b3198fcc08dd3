// Package permission is yume-cli's one permission policy: the modes, what
// each decides about a tool call, and the words the stream uses for it.
// The PTY driver and every structured path ask it, so the same event reads
// the same on every path.
package permission

import (
	"fmt"
	"strings"
)

// Mode says who decides whether a tool call runs.
type Mode string

// The permission modes of --permission-mode and set_permission_mode.
const (
	Default     Mode = "default"     // ask the GUI; with nobody to ask, the no-channel setting answers (the guard)
	Interactive Mode = "interactive" // ask the GUI, a terminal on stdin too; with nobody to ask, deny
	Auto        Mode = "auto"        // approve (never what the guard flags), and say so
	Deny        Mode = "deny"        // deny, and say so
)

// Modes lists every mode; the first is the default.
var Modes = []Mode{Default, Interactive, Auto, Deny}

// Names lists the modes as strings, for help and errors.
func Names() []string {
	out := make([]string, len(Modes))
	for i, m := range Modes {
		out[i] = string(m)
	}
	return out
}

// Parse reads a mode; "" is Default.
func Parse(s string) (Mode, error) {
	if s == "" {
		return Default, nil
	}
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown permission mode %q: use one of %s", s, strings.Join(Names(), ", "))
}

// Asks reports whether the mode puts questions to the GUI.
func (m Mode) Asks() bool { return m != Auto && m != Deny }

// Fallback is what answers default mode's questions when nobody can be
// asked (no control channel): the settings file's no_channel.
type Fallback string

// The no_channel values; the first is the default.
const (
	// FallbackGuard approves, except what the guard blocks, as Yume Guard
	// does for Claude.
	FallbackGuard Fallback = "guard"
	// FallbackDeny denies every question.
	FallbackDeny Fallback = "deny"
	// FallbackAuto is auto mode: approve, never what the guard flags; a
	// run that knows at its start that nobody can answer runs as
	// --permission-mode auto (the program's own allow-all included).
	FallbackAuto Fallback = "auto"
)

// Fallbacks lists the no_channel values; the first is the default.
var Fallbacks = []Fallback{FallbackGuard, FallbackDeny, FallbackAuto}

// ParseFallback reads a no_channel value; "" is FallbackGuard.
func ParseFallback(s string) (Fallback, error) {
	if s == "" {
		return FallbackGuard, nil
	}
	for _, f := range Fallbacks {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, len(Fallbacks))
	for i, f := range Fallbacks {
		names[i] = string(f)
	}
	return "", fmt.Errorf("unknown no_channel value %q: use one of %s", s, strings.Join(names, ", "))
}
