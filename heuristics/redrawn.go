package heuristics

import "slices"

// Redrawn is the question d asked, as v shows it now, when StillShows
// says no only because the program drew it again: the same rule reads
// the same prompt, command, file, content and context (or the same
// dialog's question, options and command), though rows it reads nothing
// from changed (a diff's rows drawn a moment after the choices) or the
// question moved. The detection it returns is marked fired and claimed,
// so it is not asked again; nil when v shows another question or none.
// What was approved is what the fields say, and they are unchanged: the
// approval stands.
func (e *Engine) Redrawn(v View, d *Detection) *Detection {
	if d == nil || d.Rule == nil {
		return nil
	}
	var now *Detection
	if dl := d.Dialog; dl != nil {
		found, _ := FindDialog(v)
		if found == nil || found.Question != dl.Question || found.Command != dl.Command ||
			found.File != dl.File || found.Content != dl.Content || !slices.Equal(found.Options, dl.Options) {
			return nil
		}
		r := dialogRule(v, found)
		if now, _ = detect(v, r, buildLook(v, r.Look)); now == nil {
			return nil
		}
		now.Dialog, now.Prompt, now.Command, now.Option = found, found.Question, found.Command, found.Options[found.Allow]
		now.File, now.Content, now.Context = found.File, found.Content, found.Context
		e.forgetDialogs(now.Key)
	} else {
		if now, _ = detect(v, d.Rule, buildLook(v, d.Rule.Look)); now == nil || !sameReading(now, d) {
			return nil
		}
	}
	e.fired[now.Key] = now.Rule.Name
	e.claimRow(v, now)
	return now
}

// sameReading: two matches of one rule read the same groups.
func sameReading(a, b *Detection) bool {
	return a.Kind == b.Kind && a.Prompt == b.Prompt && a.Command == b.Command &&
		a.Description == b.Description && a.Text == b.Text && a.Option == b.Option &&
		a.File == b.File && a.Content == b.Content && a.Context == b.Context
}
