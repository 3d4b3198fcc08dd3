package driver

import (
	"fmt"
	"path/filepath"

	"github.com/kballard/go-shellquote"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/internal/lastwords"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// A program that fails as it starts (a release that dropped a flag
// prints "error: unknown option '--x'", or its usage, and exits) says why
// on its screen: the turn's error quotes it (lastwords). What scrolls off
// the screen is kept while the program starts, since a complaint can sit
// above a usage longer than the screen (Gemini CLI's and Qwen Code's
// yargs print theirs above 50 lines of options); once more lines than
// that have scrolled off, the program has started, and the screen keeps
// only what the profile's rules read (the jump scroll needs nothing kept).

// keepStartLines has the screen keep what scrolls off while the program
// starts.
func (d *driver) keepStartLines() {
	d.screen.SetScrollbackLimit(max(scrollbackNeeded(d.cfg.Profile), lastwords.Kept))
	d.startLines = true
}

// startLinesKept gives up the lines kept for a failed start once more of
// them have scrolled off than a start prints.
func (d *driver) startLinesKept() {
	if d.startLines && d.screen.Retired() > lastwords.Kept {
		d.startLines = false
		d.screen.SetScrollbackLimit(scrollbackNeeded(d.cfg.Profile))
	}
}

// failedExit makes r, the error result of a program that exited having
// said nothing of its turn, say why in the program's words: how it
// ended, its last lines on the screen, and what to do (a login that
// yume-cli knows to be missing, where the words leave room for it).
// The same words go out as a system error, which Yume shows.
func (d *driver) failedExit(r *emit.Result, st ptyhost.ExitStatus) {
	note := ""
	if d.cfg.FirstRun != nil {
		note = d.cfg.FirstRun("") // it failed before it did anything: a first run's gap may be why
	}
	lines := d.screen.Scrollback(lastwords.Kept)
	if !d.screen.AltScreen() || len(lines) == 0 {
		lines = append(lines, d.screen.Lines()...)
	} else {
		lines = d.screen.Lines() // the alternate screen is not below what scrolled off
	}
	f := lastwords.Failure{Program: d.programName(), Ended: endedHow(st), Where: "on its screen", Lines: lastwords.NonBlank(lines...)}
	text := f.Text(note)
	d.tr.state("the program exited before its turn did anything: " + st.String())
	d.emitErr(d.out.SystemError(text))
	r.Text, r.Errors = text, []string{text}
}

// programName is the program's name in messages: its command's first
// word, without its folder ("" when there is none).
func (d *driver) programName() string {
	words, err := shellquote.Split(d.cfg.CommandLine)
	if err != nil || len(words) == 0 {
		return ""
	}
	return filepath.Base(words[0])
}

// endedHow says how a program ended, after its name.
func endedHow(st ptyhost.ExitStatus) string {
	switch {
	case st.Signal != "":
		return "was killed by " + st.Signal
	case st.Why != "":
		return "ended in a way yume-cli cannot tell (" + st.Why + ")"
	}
	return fmt.Sprintf("exited with status %d", st.Code)
}
