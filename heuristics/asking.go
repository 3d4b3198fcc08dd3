package heuristics

import "strings"

// Asks reports that on v, settled, the first rule to fire would ask the
// GUI (a confirm or a menu; a suggestion before one is read on): the
// driver need not wait out the quiet period for a question already whole
// on screen when the program is at rest. Nothing is remembered.
func (e *Engine) Asks(v View) bool { return e.Asking(v) != nil }

// Asking is the question Asks sees on v (its rule and rows), or nil.
// Nothing is remembered.
func (e *Engine) Asking(v View) *Detection {
	looks := make(map[Look]*lookText, 2)
	for _, r := range e.p.Rules {
		lt := looks[r.Look]
		if lt == nil {
			lt = buildLook(v, r.Look)
			looks[r.Look] = lt
		}
		var step TraceStep
		if d, why, _ := e.try(v, r, lt, true, &step); d != nil && why == "" {
			switch r.Kind {
			case KindSuggestion:
				continue
			case KindConfirm, KindMenu:
				return d
			}
			return nil
		}
	}
	return nil
}

// DialogEnd finds the end of the dialog a question's detection d read
// on v: where the profile's dialog_end matches, from the start of d's
// last matched row, the row it ends on. ok is false where the profile
// has none, d has no row on screen, or the rest is not drawn (yet): a
// frame written in pieces, the footer still to come.
func (p *Profile) DialogEnd(v View, d *Detection) (row int, ok bool) {
	if p.DialogEndMatch == nil || len(d.Rows) == 0 || d.Rows[len(d.Rows)-1] < 0 {
		return 0, false
	}
	last := d.Rows[len(d.Rows)-1]
	var b strings.Builder
	for r := last; r < v.Rows(); r++ {
		b.WriteString(strings.TrimRight(v.Line(r), " "))
		b.WriteByte('\n')
	}
	rest := b.String()
	loc := p.DialogEndMatch.FindStringIndex(rest)
	if loc == nil || loc[0] != 0 {
		return 0, false
	}
	return last + strings.Count(rest[:loc[1]], "\n"), true
}
