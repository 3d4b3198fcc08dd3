package driver

import (
	"strings"

	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/modelerror"
)

// screenModelError is the model error the screen shows from this turn's
// prompt down (all of it when the prompt is not shown), not counting the
// rows of answers already emitted: in the words of a profile error rule
// (rule: true), else as the generic recogniser reads it; nil when none.
// The prompt is looked for from the bottom up: a TUI may echo it in its
// footer too (Codex: "GPT-5.5 default · DIR · make the file"), below the
// error.
func (d *driver) screenModelError() (e *modelerror.Error, rule bool) {
	all := d.screen.Lines()
	head := promptHead(d.t.prompt)
	found := false
	for i := len(all) - 1; i >= 0 && head != ""; i-- {
		if strings.Contains(normalText(all[i]), cutRunes(head, 16)) {
			found = true
			if e, rule := d.modelErrorIn(all[i+1:]); e != nil {
				return e, rule
			}
		}
	}
	if found {
		return nil, false
	}
	return d.modelErrorIn(all)
}

// modelErrorIn is screenModelError's reading of rows.
func (d *driver) modelErrorIn(rows []string) (e *modelerror.Error, rule bool) {
	text := strings.Join(rows, "\n")
	if e := d.ruleError(text); e != nil {
		return e, true
	}
	if modelerror.Find(text) == nil {
		return nil, false // the common case: no need to look at the answers
	}
	out := rows[:0:0]
	for _, r := range rows {
		if t := strings.TrimSpace(r); len(t) > 8 && d.emitted(t) {
			continue
		}
		out = append(out, r)
	}
	return modelerror.Find(strings.Join(out, "\n")), false
}

// lookForModelError takes the model error the screen shows, if any.
func (d *driver) lookForModelError() {
	e, rule := d.screenModelError()
	switch {
	case e != nil && rule:
		d.sawModelError(e, "rule")
	case e != nil:
		d.sawModelError(e, "screen")
	}
}

// ruleError is the first profile error rule's reading of text (its group
// text, else its match, each row trimmed), classified where the generic
// recogniser can; nil when none matches. The engine fires rules on
// settled screens only; a retrying program's spinner keeps its screen
// from settling, so the poll asks the error rules itself.
func (d *driver) ruleError(text string) *modelerror.Error {
	for _, r := range d.cfg.Profile.Rules {
		if r.Kind != heuristics.KindError || r.Match == nil {
			continue
		}
		m := r.Match.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		words := m[0]
		if i := r.Match.SubexpIndex("text"); i >= 0 && m[i] != "" {
			words = m[i]
		}
		return errorOf(words)
	}
	return nil
}

// errorOf is a program's words of an error, classified where the generic
// recogniser can, else an error of its own kind.
func errorOf(words string) *modelerror.Error {
	lines := strings.Split(words, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	words = strings.TrimSpace(strings.Join(lines, "\n"))
	if e := modelerror.Classify(words); e != nil {
		return e
	}
	return &modelerror.Error{Class: modelerror.Other, Text: words, Retrying: modelerror.SaysRetry(words)}
}

// emitted reports whether a row is part of an answer already emitted.
func (d *driver) emitted(row string) bool {
	row = normalText(row)
	for t := range d.texts {
		if strings.Contains(normalText(t), row) {
			return true
		}
	}
	return d.t.lastText != "" && strings.Contains(normalText(d.t.lastText), row)
}

// ruleModelError takes a profile error rule's detection: the program's
// own wording of a model error (group text, else the match).
func (d *driver) ruleModelError(det *heuristics.Detection) {
	text := det.Text
	if text == "" {
		text = det.Prompt
	}
	if d.st == stateIdle && d.t.begun {
		d.sawModelError(errorOf(text), "rule")
	}
}
