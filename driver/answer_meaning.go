package driver

import (
	"regexp"
	"strings"
	"time"

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
	defaultYes = regexp.MustCompile(`(?m)[\[(]Y/n[\])]|[\[(]yes[\])]\s*$|\(Y\)|\[Y\]`)
	defaultNo  = regexp.MustCompile(`(?m)[\[(]y/N[\])]|[\[(]no[\])]\s*$|\(N\)|\[N\]`)
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
	switch det.Kind {
	case heuristics.KindMenu:
		eq.anyLine = approve
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
