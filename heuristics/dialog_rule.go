package heuristics

import (
	"regexp"
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// DialogRule names the detections of dialogs found by their shape.
const DialogRule = "dialog"

// Dialog is the engine's last resort on a settled screen where no rule
// fired: a dialog found by its shape (FindDialog) as a menu question,
// under a rule made for it, so that it fires once, is claimed like any
// other question and is re-read (StillShows) before it is answered. nil
// with a trace step saying why when there is none, or it fired already.
func (e *Engine) Dialog(v View) (*Detection, TraceStep) {
	step := TraceStep{Rule: DialogRule, Of: &Rule{Name: DialogRule, Source: "the dialog's shape (heuristics.FindDialog)"}}
	dl, why := FindDialog(v)
	if dl == nil {
		e.forgetDialogs("")
		step.Why = why
		return nil, step
	}
	r := dialogRule(v, dl)
	det, _ := detect(v, r, buildLook(v, r.Look))
	if det == nil {
		step.Why = "the dialog's rows did not read back" // a soft wrap the quoting missed
		return nil, step
	}
	e.forgetDialogs(det.Key)
	det.Dialog, det.Prompt, det.Command, det.Option = dl, dl.Question, dl.Command, dl.Options[dl.Allow]
	det.File, det.Content, det.Context = dl.File, dl.Content, dl.Context
	step.Rows, step.Groups = det.Rows, groupsOf(det)
	if _, done := e.fired[det.Key]; done {
		step.Why = "already fired"
		return nil, step
	}
	if c := e.claimedBy(v, det); c != nil {
		step.Why = "already answered (rule " + c.rule + " fired on these rows)"
		return nil, step
	}
	step.Fired, step.Why = true, "fired: a dialog no rule knows, read by its shape"
	e.fired[det.Key] = DialogRule
	e.claimRow(v, det)
	e.lastIdle = false
	return det, step
}

// forgetDialogs lets a dialog that left the screen fire again if it comes
// back; keep is the one on screen now.
func (e *Engine) forgetDialogs(keep string) {
	for k, rule := range e.fired {
		if rule == DialogRule && k != keep {
			delete(e.fired, k)
		}
	}
}

// dialogRule is a rule that matches exactly the dialog's rows, from its
// top to its last option, and answers it: the arrows from the highlighted
// option to the one that allows once (or rejects), then Enter. Without an
// option that rejects, Esc denies.
func dialogRule(v View, dl *Dialog) *Rule {
	var rows []string
	for r := dl.Top; r <= dl.Bottom; r++ {
		rows = append(rows, regexp.QuoteMeta(v.Line(r)))
	}
	// A soft-wrapped row is joined to the next in the engine's text.
	match := regexp.MustCompile(`(?m)^` + strings.Join(rows, `\n?`) + `$`)
	r := &Rule{Name: DialogRule, Match: match, Kind: KindMenu, Tool: dl.Tool, Source: "the dialog's shape"}
	if dl.Keys != nil {
		// Options that name their own keys are answered with them: one
		// keystroke, the option's own, nothing walked.
		enter := ""
		if dl.LineKeys {
			enter = "<Enter>"
		}
		r.Approve = MustParseKeys(keyName(dl.Keys[dl.Allow]) + enter)
		r.Deny = MustParseKeys("<Esc>")
		if dl.Reject >= 0 {
			r.Deny = MustParseKeys(keyName(dl.Keys[dl.Reject]) + enter)
		}
		return r
	}
	r.Approve = MustParseKeys(moves(dl, dl.Allow) + "<Enter>")
	r.Deny = MustParseKeys("<Esc>")
	if dl.Reject >= 0 && !escRejects.MatchString(dl.Options[dl.Reject]) {
		r.Deny = MustParseKeys(moves(dl, dl.Reject) + "<Enter>")
	}
	return r
}

// keyName is a key an option names, in the keys notation (a letter is
// itself; "<" would open a named key).
func keyName(k string) string {
	if k == "<" {
		return "<lt>"
	}
	return k
}

// escRejects: an option that says Esc picks it ("No, … (esc)").
var escRejects = lazyre.New(`(?i)\(esc\b|\besc to (?:stop|cancel|reject)`)

// moves are the arrow keys from the highlighted option to option i.
func moves(dl *Dialog, i int) string {
	fwd, back := "<Down>", "<Up>"
	if dl.Horizontal {
		fwd, back = "<Right>", "<Left>"
	}
	n := i - dl.Highlight
	if n < 0 {
		return strings.Repeat(back, -n)
	}
	return strings.Repeat(fwd, n)
}
