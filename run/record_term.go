package run

import (
	"fmt"
	"os"
	"time"

	"github.com/kballard/go-shellquote"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/ptyhost"
	"github.com/yume-cli/yume-cli/recordings"
)

// recordingTerm tees a live terminal into an asciinema cast: everything the
// program printed as "o", every key and query reply we typed as "i".
type recordingTerm struct {
	ptyhost.Terminal
	rec   *recordings.Recorder
	f     *os.File
	start time.Time
}

func startRecording(cfg *Config, argv []string, t ptyhost.Terminal) (*recordingTerm, error) {
	f, err := CreatePrivate(cfg.RecordFile)
	if err != nil {
		return nil, fmt.Errorf("--record: %w", err)
	}
	// The process's own start: output times count from it (ReadChunk), so
	// typed keys and markers must too, or a question's marker would not
	// line up with the screen it was asked on.
	start := time.Now()
	if p, ok := t.(interface{ Started() time.Time }); ok && !p.Started().IsZero() {
		start = p.Started()
	}
	h := recordings.Header{
		Version: 2, Width: cfg.Cols, Height: cfg.Rows, Timestamp: start.Unix(),
		Env:     map[string]string{"TERM": "xterm-256color"},
		Command: shellquote.Join(argv...),
	}
	rec, err := recordings.NewRecorder(f, h, start)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("--record: %w", err)
	}
	if cfg.RecordRaw {
		fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: --record-raw: %s keeps every byte, secrets included; do not share it as it is\n", cfg.RecordFile)
	} else {
		rec.Redact(emit.Redact)
	}
	return &recordingTerm{Terminal: t, rec: rec, f: f, start: start}, nil
}

// Unwrap is the terminal recorded: the driver reaches its program's exit
// and input wait through it, so recording changes nothing it decides.
func (r *recordingTerm) Unwrap() ptyhost.Terminal { return r.Terminal }

// CreatePrivate creates (or truncates) a file only its owner can read:
// casts, traces and sessions may hold secrets the filters missed.
func CreatePrivate(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	// An existing file keeps its mode on O_CREATE: make it private too.
	if err := f.Chmod(0o600); err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

func (r *recordingTerm) ReadChunk() ([]byte, time.Duration, error) {
	data, at, err := r.Terminal.ReadChunk()
	if len(data) > 0 {
		r.rec.Output(at, data)
	}
	return data, at, err
}

func (r *recordingTerm) Write(p []byte) (int, error) {
	r.rec.Input(time.Since(r.start), p)
	return r.Terminal.Write(p)
}

// Mark records a chapter marker where the driver asked a question, so a
// player can jump to it.
func (r *recordingTerm) Mark(label string) { r.rec.Marker(time.Since(r.start), label) }

func (r *recordingTerm) Resize(cols, rows int) error {
	r.rec.Resize(time.Since(r.start), cols, rows)
	return r.Terminal.Resize(cols, rows)
}

// finish writes the exit code and closes the file.
func (r *recordingTerm) finish(t ptyhost.Terminal) {
	st, _ := t.Wait()
	_ = r.rec.Close(st.Code) // Best effort: the session's result is already out.
	_ = r.f.Close()
}
