package permission

import "strings"

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
	// Alert is said as a system error: a call stopped that the person
	// must hear of (Yume shows only errors) ("" = nothing).
	Alert string
	// Message is a refusal's tool_result text.
	Message string
	// By is who decided, when it was yume-cli itself answering for
	// nobody (the guard): the tool_use's approved_by ("" = not said).
	By string
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

// Decide is what mode m decides about a call described by what (a command,
// a file), given what the dangerous set found in it and whether anyone can
// be asked; fb answers for nobody in default mode. Auto mode never
// approves a flagged call, and neither does the guard.
func Decide(m Mode, fb Fallback, what string, danger Danger, channel bool) Decision {
	switch {
	case m == Auto && danger.Flagged() && channel:
		return Decision{Verdict: Ask, Notice: DangerNotAuto(danger.Reason)}
	case m == Auto && danger.Flagged():
		return Decision{Verdict: Refuse, Message: DangerDenied(danger.Reason), Alert: DangerStopped(what, danger)}
	case m == Auto:
		return Decision{Verdict: Allow, Notice: AutoApproved(what)}
	case m == Deny:
		return Decision{Verdict: Refuse, Notice: DeniedNotice(what), Message: DeniedByMode}
	case channel:
		return Decision{Verdict: Ask}
	case m == Interactive:
		return Decision{Verdict: Refuse, Message: NoChannelInteractive}
	case fb == FallbackDeny:
		return Decision{Verdict: Refuse, Message: NoChannel}
	case fb == FallbackAuto:
		d := Decide(Auto, fb, what, danger, false)
		d.By = NoChannelAutoBy
		return d
	case danger.Flagged():
		return Decision{Verdict: Refuse, Message: GuardBlocked(danger), Alert: GuardAlert(what, danger), By: GuardBy}
	}
	by := GuardBy
	if danger.Allowed != "" {
		by += " (exception: " + danger.Allowed + ")"
	}
	return Decision{Verdict: Allow, Notice: GuardApproved(what), By: by}
}
