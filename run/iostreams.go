package run

import (
	"io"

	"github.com/yume-cli/yume-cli/ptyhost"
)

// IOStreams are the process's standard streams, injected so tests can run
// commands in memory (the GitHub CLI's pattern).
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// InIsTerminal reports whether In is a person's terminal rather than a
	// pipe: a terminal is not a control channel unless asked for.
	InIsTerminal bool
	// GUI says when the GUI has gone (stdout's reader closed, the parent
	// exited): the session then ends at once. nil in memory: never.
	GUI *ptyhost.GUIWatch
	// InIsNull reports whether In is /dev/null (an app started from the
	// Dock): nobody can ever answer, known before anything is asked.
	InIsNull bool
}

// watchedOut is the session's stdout, which tells the GUI watch when a
// write fails: its reader is gone.
func (s *IOStreams) watchedOut() io.Writer {
	if s.GUI == nil {
		return s.Out
	}
	return lossReporter{s.Out, s.GUI}
}

// lossReporter is a writer that tells the GUI watch when a write fails.
// (Not embedding the writer: one with Sync, an *os.File, would be synced
// after every line, which fails on a pipe.)
type lossReporter struct {
	w   io.Writer
	gui *ptyhost.GUIWatch
}

func (l lossReporter) Write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	if err != nil {
		l.gui.Lost("writing stdout failed: " + err.Error())
	}
	return n, err
}
