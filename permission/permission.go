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
	Default     Mode = "default"     // ask the GUI; no channel means deny
	Interactive Mode = "interactive" // the same, and a terminal on stdin is a channel
	Auto        Mode = "auto"        // approve, and say so
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

// Verdict is what the policy decided about one tool call.
type Verdict int

const (
	// Ask: put the question to the GUI and wait for its answer.
	Ask Verdict = iota
	// Allow: let it run.
	Allow
	// Refuse: deny it.
	Refuse
)

// Decision is a verdict with what to say about it.
type Decision struct {
	Verdict Verdict
	// Notice is said in the stream as a system notice ("" = nothing).
	Notice string
	// Message is a refusal's tool_result text.
	Message string
}

// Answer is the GUI's (or a replay's) answer to one question.
type Answer struct {
	Allow bool
	// Message says why it was denied ("" = UserDenied).
	Message string
	// Revise asks for a changed command instead, where the program has a
	// revise action; elsewhere it is a denial. Feedback is what to ask for
	// ("" in a replay: the recording typed it).
	Revise   bool
	Feedback string
}

// Denial is the tool_result text of a denied answer.
func (a Answer) Denial() string {
	switch {
	case a.Message != "":
		return a.Message
	case a.Revise && a.Feedback != "":
		return strings.TrimSuffix(Revised, ".") + ": " + a.Feedback
	case a.Revise:
		return Revised
	}
	return UserDenied
}

// The words for each event, once.
const (
	UserDenied   = "Denied by the user."
	DeniedByMode = "Denied: the permission mode is deny."
	NoChannel    = "Denied: there is no approval channel (no control frames on stdin); use --permission-mode auto to let tools run."
	StdinClosed  = "Denied: stdin closed before a decision (no approval channel)."
	Revised      = "Not run: the user asked for a revision."
	GUIGone      = "Denied: the GUI went away (stdout's reader closed, or yume-cli's parent exited) before the call ran; the session ends."
)

// AutoApproved is the notice for a call that runs because the mode is auto.
func AutoApproved(what string) string { return "auto-approved (permission mode auto): " + what }

// DeniedNotice is the notice for a call denied because the mode is deny.
func DeniedNotice(what string) string { return "denied (permission mode deny): " + what }

// ModeChanged is the notice for a set_permission_mode frame.
func ModeChanged(m Mode) string { return "permission mode is now " + string(m) }

// Decide is what mode m decides about a call described by what (a command,
// a file), given why it is dangerous ("" if it is not) and whether anyone
// can be asked. Auto mode never approves a dangerous call.
func Decide(m Mode, what, danger string, channel bool) Decision {
	switch {
	case m == Auto && danger != "" && channel:
		return Decision{Verdict: Ask, Notice: DangerNotAuto(danger)}
	case m == Auto && danger != "":
		return Decision{Verdict: Refuse, Message: DangerDenied(danger)}
	case m == Auto:
		return Decision{Verdict: Allow, Notice: AutoApproved(what)}
	case m == Deny:
		return Decision{Verdict: Refuse, Notice: DeniedNotice(what), Message: DeniedByMode}
	case !channel:
		return Decision{Verdict: Refuse, Message: NoChannel}
	}
	return Decision{Verdict: Ask}
}
