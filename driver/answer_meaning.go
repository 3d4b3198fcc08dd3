package driver

import (
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/heuristics"
)

// A person answers a question in more than one way that means the same:
// Y or yes for y, Enter for the default the question shows, arrows or
// typing to filter a menu before Enter. A replay of a person's recording
// compares what an answer means; only a different decision is a mismatch.

// answerWriter is a terminal that compares answers by meaning (a replay).
type answerWriter interface {
	WriteAnswer(p []byte, also [][]byte, anyLine, optional bool) (int, error)
	// TypedUntil is the recorded time of the last key the answers took.
	TypedUntil() time.Duration
}

// equivalents are the other answers that count as the keys typed.
type equivalents struct {
	also     [][]byte
	anyLine  bool // a menu choice: any keys up to Enter
	optional bool // the driver's own keys (a second try): may be missing
}

// Defaults a question shows: [Y/n] (yes), [y/N] (no), npm's (yes).
var (
	defaultYes = lazyre.New(`(?m)[\[(]Y/n[\])]|[\[(]yes[\])]\s*$|\(Y\)|\[Y\]`)
	defaultNo  = lazyre.New(`(?m)[\[(]y/N[\])]|[\[(]no[\])]\s*$|\(N\)|\[N\]`)
)

// equivalentsOf lists what else answers det the way why does: the rule's
// own approve_also/deny_also, and for a y/n confirm the other spellings
// and Enter for the default it shows; a menu's approval is any choice.
func (d *driver) equivalentsOf(det *heuristics.Detection, why string, optional bool) *equivalents {
	eq := &equivalents{optional: optional}
	r := det.Rule
	approve := strings.Contains(why, "approve")
	list, keys := r.DenyAlso, r.Deny
	if approve {
		list, keys = r.ApproveAlso, r.Approve
	}
	for _, k := range list {
		if b, err := k.Encode(d.screen); err == nil && len(b) > 0 {
			eq.also = append(eq.also, b)
		}
	}
	read, readOK := d.readAnswer(det)
	if readOK && read.means != meansOther && strings.Contains(why, read.means) {
		eq.also = append(eq.also, read.keys) // the person's keys take the program where the rule's would
	}
	walked, means := d.walkedAnswer()
	if means != "" && strings.Contains(why, means) {
		eq.also = append(eq.also, walked)
	}
	switch det.Kind {
	case heuristics.KindMenu:
		// A walk to No is no choice of an action, nor is a third option.
		eq.anyLine = approve && means != "deny" && (!readOK || read.means == meansApprove)
	case heuristics.KindConfirm:
		b, err := keys.Encode(d.screen)
		if err != nil {
			break
		}
		word := strings.ToLower(strings.TrimRight(string(b), "\r\n"))
		words := []string{"n", "no"}
		if approve {
			words = []string{"y", "yes"}
		}
		if word != words[0] && word != words[1] {
			break // a TUI's own keys (1, Enter on a highlighted option)
		}
		for _, w := range words {
			for _, v := range []string{w, strings.ToUpper(w[:1]) + w[1:], strings.ToUpper(w)} {
				eq.also = append(eq.also, []byte(v+"\r"), []byte(v+"\n"))
			}
		}
		question := d.questionRows(det)
		if approve && defaultYes.MatchString(question) || !approve && defaultNo.MatchString(question) {
			eq.also = append(eq.also, []byte("\r"), []byte("\n"))
		}
	}
	return eq
}

// questionRows is the text of the rows a question's match covered: the
// default a question shows ("(Y/n)") is often outside its prompt group.
func (d *driver) questionRows(det *heuristics.Detection) string {
	var b strings.Builder
	for _, r := range visibleRows(det.Rows) {
		b.WriteString(d.screen.Line(r))
		b.WriteByte('\n')
	}
	if b.Len() == 0 {
		return det.Prompt
	}
	return b.String()
}

// A person walks a dialog's options one arrow key at a time and presses
// Enter, or presses an option's number: the option they reach is their
// answer. Reaching the option the rule picks (the one that allows once,
// or the one that rejects) is the rule's answer; an option that says
// No, Quit, Cancel, Exit, Abort or Skip is a denial whatever the rule's
// deny keys are.

// walk is a recorded answer to a dialog: the keys, and the option they reach.
type walk struct {
	keys   []byte
	option int
	text   string
}

// arrowKeys are the cursor keys in both cursor-key modes; +1 moves down
// (or right), -1 up (or left).
var arrowKeys = map[string]int{"\x1b[B": 1, "\x1b[A": -1, "\x1bOB": 1, "\x1bOA": -1, "\x1b[C": 1, "\x1b[D": -1, "\x1bOC": 1, "\x1bOD": -1}

// recordedWalk reads the recording's next keys as a walk through the
// dialog on screen: arrows then Enter, or a number key. false when the
// screen shows no dialog or the keys are something else.
func (d *driver) recordedWalk() (walk, bool) {
	rec := d.src.recording()
	if rec == nil {
		return walk{}, false
	}
	dl, _ := heuristics.FindDialog(d.screen)
	if dl == nil || len(dl.Options) == 0 {
		return walk{}, false
	}
	return walkOf(dl, rec.PendingInput())
}

// walkOf reads in as a walk through dl's options.
func walkOf(dl *heuristics.Dialog, in string) (walk, bool) {
	i, n, moved := dl.Highlight, 0, false
	for n < len(in) {
		if in[n] >= '1' && in[n] <= '9' && !moved {
			for k, o := range dl.Options {
				if strings.HasPrefix(strings.TrimLeft(o, " ❯›>●○◉*"), in[n:n+1]+".") {
					return walk{keys: []byte(in[:n+1]), option: k, text: dl.Options[k]}, true
				}
			}
			return walk{}, false
		}
		if in[n] == '\r' || in[n] == '\n' {
			if !moved {
				return walk{}, false // Enter alone: the rule's own keys say it
			}
			return walk{keys: []byte(in[:n+1]), option: i, text: dl.Options[i]}, true
		}
		step, ok := 0, false
		if n+3 <= len(in) {
			step, ok = arrowKeys[in[n:n+3]]
		}
		if !ok {
			return walk{}, false
		}
		i = min(max(i+step, 0), len(dl.Options)-1)
		n, moved = n+3, true
	}
	return walk{}, false
}

// refuses is an option that declines: No, Quit, Cancel, Exit, Abort, Skip,
// Reject, Deny (its number and marks aside).
var refuses = lazyre.New(`(?i)^[\s❯›>●○◉*]*(?:\d+[.)]\s*)?(?:no|quit|cancel|exit|abort|skip|reject|deny|decline)\b`)

// walkMeans is what reaching w's option means at dl: allow (approve),
// deny, or neither ("").
func walkMeans(dl *heuristics.Dialog, w walk) string {
	switch {
	case w.option == dl.Reject || refuses.MatchString(w.text):
		return "deny"
	case w.option == dl.Allow:
		return "approve"
	}
	return ""
}

// walkedAnswer is the recording's walk through the dialog on screen and
// what it means ("approve", "deny", or "" for neither or no walk).
func (d *driver) walkedAnswer() ([]byte, string) {
	w, ok := d.recordedWalk()
	if !ok {
		return nil, ""
	}
	dl, _ := heuristics.FindDialog(d.screen)
	return w.keys, walkMeans(dl, w)
}

// ownKeys reports, in a replay, keys an input rule types that are not a
// prompt (Copilot's Ctrl-O that unfolds a command's output) where the
// recorded program did not need them: at its ready input box (it waits
// for the next prompt, not for them, so a person may never have typed
// them), or in a recording that holds the provider's transcript (the
// live run took the output from the log, and whether it also unfolded the
// screen was a matter of when its screen settled). They are optional:
// taken where the recording has them, no difference where it does not.
func (d *driver) ownKeys(det *heuristics.Detection) bool {
	if d.src.recording() == nil || det.Rule.Approve.NeedsPrompt() {
		return false
	}
	re := d.cfg.Profile.Ready
	return d.logFound() || re != nil && re.MatchString(d.screen.String())
}

// skippedOwn reports that optional keys just typed (eq) were not in the
// recording: the program never got them, so nothing waits for them to
// take.
func (d *driver) skippedOwn(eq *equivalents) bool {
	rec := d.src.recording()
	return eq.optional && rec != nil && rec.skipped
}
