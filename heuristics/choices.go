package heuristics

import (
	"slices"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// Choices are the options of the bottom-most menu or dialog on a screen,
// as drawn, and the one highlighted: what a key that moves a highlight is
// checked against before the next key goes (PlanAnswer, and the driver's
// keying), so that Enter is pressed only on the option it means.
type Choices struct {
	Options   []string
	Highlight int
	// Horizontal: the options sit on one row (Left/Right move between them).
	Horizontal bool
}

// Highlighted is the highlighted option's text.
func (c *Choices) Highlighted() string { return c.Options[c.Highlight] }

// Same reports whether o lists the same options as c, in the same order:
// the same menu, wherever its highlight is now.
func (c *Choices) Same(o *Choices) bool {
	return c != nil && o != nil && c.Horizontal == o.Horizontal && slices.Equal(c.Options, o.Options)
}

// Grows reports whether c is o drawn further: the same options first, more
// after them (a menu read while its rows were still being drawn).
func (c *Choices) Grows(o *Choices) bool {
	return c != nil && o != nil && c.Horizontal == o.Horizontal && len(c.Options) > len(o.Options) &&
		slices.Equal(c.Options[:len(o.Options)], o.Options)
}

// Index is the one option rx matches (-1: none, or more than one).
func (c *Choices) Index(match func(string) bool) int {
	found := -1
	for i, o := range c.Options {
		if match(o) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// ReadChoices reads the bottom-most list of options with exactly one
// highlighted: a dialog's (numbered options, choice words, a row of
// choices: FindDialog's readers), else any block of aligned rows with one
// row marked (select:'s menu). Always in that order, so that two reads of
// one screen agree on which list they mean.
func ReadChoices(v View) (*Choices, bool) {
	lines := make([]string, v.Rows())
	for r := range lines {
		lines[r] = v.Line(r)
	}
	if d := findVertical(v, lines); d != nil {
		return &Choices{Options: d.Options, Highlight: d.Highlight}, true
	}
	if d := findHorizontal(v, lines); d != nil {
		return &Choices{Options: d.Options, Highlight: d.Highlight, Horizontal: true}, true
	}
	block, hi, err := findMenu(v)
	if err != nil {
		return nil, false
	}
	c := &Choices{Highlight: hi}
	for _, m := range block {
		c.Options = append(c.Options, m.text)
	}
	return c, true
}

// quits marks an option that leaves without doing anything ("Exit", "Quit").
var quits = lazyre.New(`(?i)^(?:quit|exit|leave|back|none|nothing)\b`)

// Meaning is what choosing an option does, read from its own words.
type Meaning int

const (
	MeansOther  Meaning = iota // neither (a third option, "Tell me more")
	MeansAllow                 // allows (once or more widely)
	MeansReject                // rejects, cancels, quits
)

// OptionMeaning reads what an option means from its words: "2. Yes, and
// don't ask again" allows, "3. No, and tell Claude…" rejects.
func OptionMeaning(option string) Meaning {
	o := optionLabel(option)
	switch {
	case rejects.MatchString(o) || quits.MatchString(o):
		return MeansReject
	case allows.MatchString(o):
		return MeansAllow
	}
	return MeansOther
}
