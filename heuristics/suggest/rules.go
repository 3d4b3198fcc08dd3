// Making rules from answers: each answer's kind (menu, confirm or input) and
// its approve and deny keys, a second answer to a question joined to its
// rule, and the replay --approve value that repeats the person's answers.

package suggest

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/yume-cli/yume-cli/heuristics"
)

// add turns one typed answer into a rule, or joins it to the rule of the
// same question.
func (p *Profile) add(pe *pending) {
	a := &Answer{At: pe.at}
	p.Answers = append(p.Answers, a)
	keys, err := heuristics.KeyNotation(pe.keys)
	a.Keys = keys
	if pe.q != nil {
		a.Question = pe.q.text
	}
	switch {
	case err != nil:
		a.Skipped = err.Error()
		return
	case keys == "<C-c>" || keys == "<C-d>":
		a.Skipped = "the person typed " + keys + " to leave, not to answer"
		return
	case pe.q == nil:
		a.Skipped = pe.why
		return
	}
	q := pe.q
	r := &Rule{Match: q.match(), CursorEnd: q.cursorEnd, body: q.body}
	typed := string(bytes.TrimRight(pe.keys, "\r\n"))
	enter := bytes.HasSuffix(pe.keys, []byte("\r"))
	switch {
	case q.menu != noMenu:
		r.Kind, r.Approve, r.Deny = heuristics.KindMenu, keys, "<C-c>"
		if q.quitOption != "" && !strings.Contains(keys, q.quitOption+"<") {
			r.Deny = q.quitOption + "<Enter>"
		}
		a.Approved = true
	case isYesNo(typed, enter) && (q.hint || strings.HasSuffix(strings.TrimSpace(q.prompt), "?") && typed != ""):
		r.Kind = heuristics.KindConfirm
		yes := answersYes(typed, q)
		other := opposite(typed, yes, q)
		if yes {
			r.Approve, r.Deny = keys, other
		} else {
			r.Approve, r.Deny = other, keys
		}
		a.Approved = yes
	default:
		r.Kind, r.Approve, r.Deny = heuristics.KindInput, keys, "<C-c>"
		a.Approved = true
	}
	a.Asks = r.Kind != heuristics.KindInput
	r.Notes = []string{fmt.Sprintf("Answer %d at %.2fs: the person typed %s at %q.", len(p.Answers), pe.at.Seconds(),
		quoteKeys(keys), q.text)}
	if old := p.sameQuestion(r.body); old != nil {
		a.Rule = old
		p.join(old, r, a)
		return
	}
	r.Name = p.uniqueName(q.name)
	p.Rules = append(p.Rules, r)
	a.Rule = r
}

// join merges a second answer to the same question into its rule: a "no"
// to a question once answered "yes" gives the rule its deny keys, and an
// input typed differently each time becomes the prompt.
func (p *Profile) join(old, r *Rule, a *Answer) {
	old.Notes = append(old.Notes, r.Notes...)
	if old.Match != r.Match { // the rows above differ: no context
		old.Match = "(?m)" + old.body
	}
	switch {
	case old.Kind == heuristics.KindConfirm && r.Kind == heuristics.KindConfirm:
		if a.Approved {
			old.Approve = r.Approve
		} else {
			old.Deny = r.Deny
		}
	case old.Kind == heuristics.KindInput && r.Kind == heuristics.KindInput && old.Approve != r.Approve:
		if strings.HasSuffix(old.Approve, "<Enter>") && strings.HasSuffix(r.Approve, "<Enter>") {
			old.Approve = "<Prompt><Enter>"
			old.Notes = append(old.Notes, "Answered differently each time: approve types the prompt (a replay types what was recorded).")
		} else {
			old.Notes = append(old.Notes, "Answered differently each time: the keys of the first answer are kept.")
		}
	case old.Kind != r.Kind || old.Approve != r.Approve:
		old.Notes = append(old.Notes, "Answered differently each time: the keys of the first answer are kept.")
	}
}

// sameQuestion is the rule made for the same question, whatever the row
// above it said.
func (p *Profile) sameQuestion(body string) *Rule {
	for _, r := range p.Rules {
		if r.body == body {
			return r
		}
	}
	return nil
}

// ApproveFlag is the replay --approve value that answers the recording's
// questions as the person did: all, none, or the numbers approved.
func (p *Profile) ApproveFlag() string {
	var yes []string
	n, no := 0, 0
	for _, a := range p.Answers {
		if a.Rule == nil || !a.Asks {
			continue
		}
		n++
		if a.Approved {
			yes = append(yes, strconv.Itoa(n))
		} else {
			no++
		}
	}
	switch {
	case no == 0:
		return "all"
	case len(yes) == 0:
		return "none"
	}
	return strings.Join(yes, ",")
}
