package structured

import (
	"slices"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/modelerror"
)

// setFirstRun sets what an error before the provider's first word adds:
// the first-run problems yume-cli sees on its own (Options.FirstRun).
func (t *turn) setFirstRun(f func(screen string) string) { t.firstRun = f }

// withFirstRun adds the first-run findings to an error result that ends a
// turn in which the provider said nothing and called no tool (it exited
// at once, or reported only an error): a CLI not logged in, say.
func (t *turn) withFirstRun(r emit.Result) emit.Result {
	if !r.IsError || t.firstRun == nil || t.noted || t.last != "" || t.text.Len() > 0 ||
		len(t.tools.pending) > 0 || len(t.tools.done) > 0 {
		return r
	}
	if modelerror.Find(r.Text+"\n"+strings.Join(r.Errors, "\n")+"\n"+strings.Join(t.errs, "\n")) != nil {
		return r // it reached the model: past its first run (and its key is not ours to see)
	}
	note := t.firstRun("")
	if note == "" {
		return r
	}
	if len(r.Errors) == 0 {
		r.Errors = t.errs
	}
	text := r.Text
	if text == "" {
		text = strings.Join(r.Errors, "; ")
	}
	if text != "" {
		text = strings.TrimRight(text, ". ") + ". "
	}
	r.Text = text + note
	r.Errors = append(slices.Clone(r.Errors), note)
	return r
}
