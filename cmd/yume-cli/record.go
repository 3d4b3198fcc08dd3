//go:build unix || windows

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/kballard/go-shellquote"
	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/ptyhost"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/run"
	"golang.org/x/term"
)

// RecordOptions is what `yume-cli record` was asked to do.
type RecordOptions struct {
	IO *run.IOStreams

	Output     string
	Title      string
	Overwrite  bool
	Raw        bool // keep secrets
	Cols, Rows int  // used when stdout is not a terminal
	Command    []string
}

// NewCmdRecord builds the record command; runF replaces runRecord in tests
// of flag parsing.
func NewCmdRecord(ios *run.IOStreams, runF func(*RecordOptions) error) *cobra.Command {
	o := &RecordOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "record [-o FILE] -- CMD ARGS…",
		Short: "Record a terminal session as an asciinema cast, for replay and bug reports",
		Long: `record runs CMD in a pseudo-terminal inside yours and stays out of the way:
you use the program as usual, and everything it prints, every key you type,
every window resize and its exit status go into an asciinema v2 .cast file.

Replay the file with "yume-cli replay FILE --trace" to see which rules fire,
play it with "asciinema play FILE", or attach it to a bug report. The file
holds what was on your screen and what you typed, with the secrets yume-cli
recognises redacted (--raw keeps them) and mode 0600: check it before you share it.`,
		Example: `  yume-cli record -o add.cast -- git add -p
  yume-cli replay add.cast --trace`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.Command = args
			if o.Output == "" {
				o.Output = "yume-" + time.Now().Format("20060102-150405") + ".cast"
			}
			if o.Cols < 1 || o.Rows < 1 || o.Cols > 1000 || o.Rows > 1000 {
				return usagef("window size %dx%d is out of range: --cols 1..1000, --rows 1..1000", o.Cols, o.Rows)
			}
			if runF != nil {
				return runF(o)
			}
			return runRecord(o)
		},
	}
	fs := cmd.Flags()
	fs.SetInterspersed(false) // flags after CMD belong to CMD
	fs.StringVarP(&o.Output, "output", "o", "", "cast file to write (default: yume-DATE-TIME.cast)")
	fs.StringVar(&o.Title, "title", "", "title stored in the recording")
	fs.BoolVar(&o.Overwrite, "overwrite", false, "replace FILE if it exists")
	fs.BoolVar(&o.Raw, "raw", false, "keep every byte, secrets included (by default secrets are redacted)")
	fs.IntVar(&o.Cols, "cols", 80, "window width when stdout is not a terminal")
	fs.IntVar(&o.Rows, "rows", 24, "window height when stdout is not a terminal")
	return cmd
}

// runRecord records one session and exits with the program's status.
func runRecord(o *RecordOptions) error {
	in, inTTY := ttyOf(o.IO.In)
	out, outTTY := ttyOf(o.IO.Out)
	cols, rows := o.Cols, o.Rows
	if outTTY {
		if c, r, err := term.GetSize(int(out.Fd())); err == nil && c > 0 && r > 0 {
			cols, rows = c, r
		}
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if o.Overwrite {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(o.Output, flags, 0o600)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%s already exists: pass --overwrite to replace it, or -o another file", o.Output)
	}
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	defer f.Close()
	termName := os.Getenv("TERM")
	if termName == "" {
		termName = "xterm-256color"
	}
	start := time.Now()
	// Only TERM from the environment: SHELL, HOME and the rest name the
	// machine and the person, and a replay needs none of them.
	rec, err := recordings.NewRecorder(f, recordings.Header{
		Version: 2, Width: cols, Height: rows, Timestamp: start.Unix(),
		Env: map[string]string{"TERM": termName}, Command: shellquote.Join(o.Command...), Title: o.Title,
	}, start)
	if err != nil {
		return err
	}
	if !o.Raw {
		rec.Redact(emit.Redact)
	}
	// Catch signals before the program starts, so none can kill us between.
	sigs := notifySignals()
	defer signal.Stop(sigs)
	proc, err := ptyhost.Start(ptyhost.Options{Argv: o.Command, Cols: cols, Rows: rows})
	if err != nil {
		_ = rec.Close(127) // Best effort: the start error is what matters.
		return fmt.Errorf("record: %w", err)
	}
	defer proc.Close()
	fmt.Fprintf(o.IO.ErrOut, "yume-cli: recording %s to %s; the recording ends when the program exits\r\n", shellquote.Join(o.Command...), o.Output)
	if inTTY {
		// Raw mode: every key goes to the program as typed. The deferred
		// restore runs on every return and during a panic; signals end the
		// session below instead of killing us with the terminal raw.
		old, err := term.MakeRaw(int(in.Fd()))
		if err != nil {
			return fmt.Errorf("record: setting the terminal to raw mode: %w", err)
		}
		defer func() { _ = term.Restore(int(in.Fd()), old) }() // Best effort.
	}
	if outTTY {
		defer showsVT(out)() // Windows: the console draws conhost's VT output
	}
	stop := watchSignals(sigs, proc, rec, start, out, outTTY, cols, rows)
	defer stop()
	go copyKeys(o.IO.In, proc, rec, start)
	code := copyOutput(proc, o.IO.Out, rec, start)
	if err := rec.Close(code); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	stop()
	fmt.Fprintf(o.IO.ErrOut, "yume-cli: recorded to %s (%.1fs); see the rules at work with: yume-cli replay %s --trace\r\n",
		o.Output, time.Since(start).Seconds(), shellquote.Join(o.Output))
	if code != 0 {
		return &run.ExitError{Code: code}
	}
	return nil
}

// ttyOf returns the file behind a stream when it is a terminal.
func ttyOf(s any) (*os.File, bool) {
	f, ok := s.(*os.File)
	return f, ok && term.IsTerminal(int(f.Fd()))
}

// copyOutput shows and records what the program prints until it exits,
// and returns its exit status (128+N for a signal N, as shells report it).
func copyOutput(proc *ptyhost.Process, out io.Writer, rec *recordings.Recorder, start time.Time) int {
	for {
		data, _, err := proc.ReadChunk()
		if len(data) > 0 {
			rec.Output(time.Since(start), data)
			_, _ = out.Write(data) // Best effort: a closed stdout must not lose the recording.
		}
		if err != nil {
			break
		}
	}
	st, err := proc.Wait()
	switch {
	case err != nil:
		return 1
	case st.Signal != "":
		return 128 + signalNumber(st.Signal)
	}
	return st.Code
}

// copyKeys types and records what the person types. It ends at EOF; a
// read still blocked when the program exits ends with the process.
func copyKeys(in io.Reader, proc *ptyhost.Process, rec *recordings.Recorder, start time.Time) {
	buf := make([]byte, 4096)
	for {
		n, err := in.Read(buf)
		if n > 0 {
			rec.Input(time.Since(start), buf[:n])
			if _, werr := proc.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// watchSignals, given the channel notifySignals fills, forwards window
// resizes to the program (and records them) and ends the session on the
// signals that end a terminal session (SIGINT, SIGTERM, SIGHUP, SIGQUIT;
// Ctrl-C and closing the console on Windows) by stopping the program, so
// runRecord returns and restores the terminal. Where no signal tells of a
// resize (Windows), the window's size is looked at every resizePoll. stop
// undoes it and may be called more than once.
func watchSignals(sigs <-chan os.Signal, proc *ptyhost.Process, rec *recordings.Recorder, start time.Time, out *os.File, outTTY bool, cols, rows int) (stop func()) {
	done := make(chan struct{})
	resize := func(always bool) {
		c, r, err := term.GetSize(int(out.Fd()))
		if err != nil || c < 1 || r < 1 || !always && c == cols && r == rows {
			return
		}
		if proc.Resize(c, r) == nil {
			rec.Resize(time.Since(start), c, r)
			cols, rows = c, r
		}
	}
	go func() {
		var poll <-chan time.Time
		if outTTY && resizePoll > 0 {
			t := time.NewTicker(resizePoll)
			defer t.Stop()
			poll = t.C
		}
		for {
			select {
			case <-done:
				return
			case <-poll:
				resize(false)
			case s := <-sigs:
				if !isResize(s) {
					_ = proc.Close() // Best effort: ReadChunk ends, and runRecord with it.
					continue
				}
				if outTTY {
					resize(true)
				}
			}
		}
	}()
	var stopped bool
	return func() {
		if !stopped {
			stopped = true
			close(done)
		}
	}
}
