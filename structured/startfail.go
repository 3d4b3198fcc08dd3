package structured

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/internal/lastwords"
	"github.com/yume-cli/yume-cli/modelerror"
)

// A provider that fails as it starts (a release that dropped a flag, a
// value it no longer takes) prints its complaint on stderr, or its usage
// on stdout, and exits: the turn's error quotes it (lastwords), with its
// exit status and what to do.

// withWords is opts for the provider's process, its stderr kept in tail
// too (yume-cli's own lines on opts.Stderr are not its words).
func withWords(opts Options, tail *lastwords.Tail) Options {
	opts.Stderr = io.MultiWriter(opts.Stderr, tail.Writer())
	return opts
}

// setWords gives the turn the provider's last lines, for an error that
// ends a turn it said nothing in.
func (t *turn) setWords(tail *lastwords.Tail) { t.words = tail }

// saidNothing reports a turn in which the provider wrote no text and
// called no tool.
func (t *turn) saidNothing() bool {
	return t.last == "" && t.text.Len() == 0 && len(t.tools.pending) == 0 && len(t.tools.done) == 0
}

// failedStart is the error result of a turn whose provider (named name)
// ended having said nothing of it and reported no error: how it ended,
// its last lines on stderr (and stdout's lines that were not its
// protocol), and what to do: a login yume-cli knows to be missing where
// the words leave room for it, else what the words call for. ok is false
// where the turn is not such a turn (the caller says what it knows).
func (t *turn) failedStart(name string, exit error) (r emit.Result, ok bool) {
	if t.words == nil || !t.saidNothing() || len(t.errs) > 0 {
		return r, false
	}
	lines := t.words.Lines()
	if exit == nil && len(lines) == 0 {
		return r, false
	}
	note := ""
	if t.firstRun != nil && modelerror.Find(strings.Join(lines, "\n")) == nil {
		note = t.firstRun("") // a model error: past its first run (its key is not ours to see)
	}
	t.noted = true
	f := lastwords.Failure{Program: name, Ended: endedBy(exit), Where: t.words.Where(), Lines: lines}
	text := f.Text(note)
	return emit.Result{IsError: true, Text: text, Errors: []string{text}}, true
}

// endedBy says how a provider's process ended (exit: Wait's error), after
// its name.
func endedBy(exit error) string {
	var ee *exec.ExitError
	switch {
	case exit == nil:
		return "exited with status 0 without finishing the turn"
	case errors.As(exit, &ee) && ee.ExitCode() >= 0:
		return fmt.Sprintf("exited with status %d", ee.ExitCode())
	case errors.As(exit, &ee):
		return "was killed (" + ee.Error() + ")"
	}
	return fmt.Sprintf("ended (%v)", exit)
}
