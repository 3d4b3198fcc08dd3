package permission

// The words for each event, once: the PTY driver and every structured
// path say these and nothing else (docs/protocol.md lists them).

// Denials: a refused call's tool_result.
const (
	UserDenied   = "Denied by the user."
	DeniedByMode = "Denied: the permission mode is deny."
	// NoChannel: default mode, nobody to ask, and no_channel is deny.
	NoChannel = "Denied: there is no approval channel (no control frames on stdin), and no_channel is deny (YUME_NO_CHANNEL or settings.yaml)."
	// NoChannelInteractive: interactive mode waits for a person, and
	// there is none; the guard never answers for them.
	NoChannelInteractive = "Denied: --permission-mode interactive waits for a person's answer, and there is no approval channel (no control frames on stdin, or stdin ended)."
	Revised              = "Not run: the user asked for a revision."
	// GUIGone: nobody reads the stream any more; nothing is approved.
	GUIGone = "Denied: the GUI went away (stdout's reader closed, or yume-cli's parent exited) before the call ran; the session ends."
)

// GuardBy is the approved_by of every call the guard decides.
const GuardBy = "yume-cli guard: no approval channel"

// NoChannelAutoBy is the approved_by of a call decided by no_channel: auto.
const NoChannelAutoBy = "yume-cli: no approval channel, no_channel is auto"

// settingsHint says where an exception goes.
const settingsHint = "an exception under guard.allow in ~/.yume/settings.yaml ($YUME_HOME/settings.yaml) lets it run"

// GuardApproved is the notice for a call the guard let run.
func GuardApproved(what string) string {
	return "approved by yume-cli's guard (no approval channel): " + what
}

// GuardBlocked is the tool_result of a call the guard blocked: the agent
// reads it, so it says not to try again another way.
func GuardBlocked(d Danger) string {
	return "Blocked by yume-cli's guard (rule " + d.Rule() + ": " + d.Reason + "). Nobody can approve it here (no approval channel): do not retry it or work around it; tell the user, who can run it themselves or add an exception under guard.allow in ~/.yume/settings.yaml."
}

// GuardAlert is the system error of a call the guard blocked: what the
// person sees.
func GuardAlert(what string, d Danger) string {
	return "yume-cli guard blocked " + what + " (rule " + d.Rule() + ": " + d.Reason + "); run it yourself if you meant it, or " + settingsHint + "."
}

// DangerWarning is the system warning for a dangerous call.
func DangerWarning(what, reason string) string {
	return "dangerous command (" + reason + "): " + what
}

// DangerNotAuto is said when auto mode asks about a dangerous call.
func DangerNotAuto(reason string) string {
	return "permission mode auto does not approve a dangerous command (" + reason + "): asking"
}

// DangerDenied is the tool_result of a dangerous call in auto mode with
// nobody to ask.
func DangerDenied(reason string) string {
	return "Denied: a dangerous command (" + reason + ") is never auto-approved, and there is no approval channel to ask; approve it from the GUI, or run it yourself."
}

// DangerStopped is the system error of a dangerous call auto mode did
// not run for want of anyone to ask.
func DangerStopped(what string, d Danger) string {
	return "yume-cli did not run " + what + " (rule " + d.Rule() + ": " + d.Reason + "): auto mode never approves it and nobody can be asked; run it yourself if you meant it, or " + settingsHint + "."
}

// AutoApproved is the notice for a call that runs because the mode is auto.
func AutoApproved(what string) string { return "auto-approved (permission mode auto): " + what }

// DeniedNotice is the notice for a call denied because the mode is deny.
func DeniedNotice(what string) string { return "denied (permission mode deny): " + what }

// ModeChanged is the notice for a set_permission_mode frame.
func ModeChanged(m Mode) string { return "permission mode is now " + string(m) }
