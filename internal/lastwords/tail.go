package lastwords

import (
	"bytes"
	"io"
	"strings"
	"sync"
)

// Tail keeps the last Kept non-blank lines a program printed on its
// streams, cleaned (Clean): its stderr (Writer) and the lines of its
// stdout that are not its protocol's JSON (Reader). Safe for concurrent
// use: each stream is written from its own goroutine.
type Tail struct {
	mu      sync.Mutex
	lines   []string // oldest first, at most Kept
	streams []*stream
}

// NewTail returns an empty Tail.
func NewTail() *Tail { return &Tail{} }

// stream is one stream's line being written: its first MaxLine bytes.
type stream struct {
	t    *Tail
	name string // "stderr", "stdout"
	kept bool   // a line of it was kept
	part []byte
	// json: lines that open a JSON value are the protocol, not words.
	json bool
}

// Writer is a stream whose every line is kept (stderr).
func (t *Tail) Writer() io.Writer { return t.add("stderr", false) }

// Reader is r, with each line read that does not open a JSON value kept
// (a JSON or ACP mode's stdout: the usage a program prints there).
func (t *Tail) Reader(r io.Reader) io.Reader { return io.TeeReader(r, t.add("stdout", true)) }

func (t *Tail) add(name string, json bool) *stream {
	s := &stream{t: t, name: name, json: json}
	t.mu.Lock()
	t.streams = append(t.streams, s)
	t.mu.Unlock()
	return s
}

// Write keeps p's lines; it never fails.
func (s *stream) Write(p []byte) (int, error) {
	n := len(p)
	s.t.mu.Lock()
	defer s.t.mu.Unlock()
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if room := MaxLine + 4 - len(s.part); room > 0 {
			s.part = append(s.part, chunk[:min(room, len(chunk))]...)
		}
		if i < 0 {
			break
		}
		s.endLine()
		p = p[i+1:]
	}
	return n, nil
}

// endLine keeps the line written so far, unless it is blank or JSON.
func (s *stream) endLine() {
	line := s.part
	s.part = s.part[:0]
	if s.json {
		if t := bytes.TrimLeft(line, " \t\r"); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
			return
		}
	}
	l := Clean(string(line))
	if len(bytes.TrimSpace([]byte(l))) == 0 {
		return
	}
	s.kept = true
	t := s.t
	if len(t.lines) == Kept {
		copy(t.lines, t.lines[1:])
		t.lines = t.lines[:Kept-1]
	}
	t.lines = append(t.lines, l)
}

// Lines is the lines kept, oldest first, with each stream's unfinished
// last line (a program that exits mid-line) ended.
func (t *Tail) Lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range t.streams {
		if len(s.part) > 0 {
			s.endLine()
		}
	}
	return append([]string(nil), t.lines...)
}

// Where says where the lines kept were printed: "on stderr", "on stdout",
// "on stderr and stdout" ("" for none). Call it after Lines.
func (t *Tail) Where() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var names []string
	for _, s := range t.streams {
		if s.kept {
			names = append(names, s.name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "on " + strings.Join(names, " and ")
}
