package transcript

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
)

// maxLine bounds one transcript line; a longer one (a huge tool output) is
// skipped whole rather than held in memory.
const maxLine = 64 << 20

// Tail follows a JSONL file that another process appends to. It finds the
// file with locate, which it asks again on every Poll until it answers,
// and reads only complete lines: a line still being written waits for the
// next Poll.
type Tail struct {
	locate  func() (string, bool)
	parse   Parser
	path    string
	f       *os.File
	partial []byte
	skip    bool  // dropping the rest of an over-long line
	from    int64 // where reading starts in the file (SkipExisting)
}

// NewTail follows the file locate finds, parsing lines with parse.
func NewTail(locate func() (string, bool), parse Parser) *Tail {
	return &Tail{locate: locate, parse: parse}
}

// SkipExisting starts the tail at the end of the file as it is now, if
// there is one: a log every run of a program appends to, whose earlier
// lines are no news to this run.
func (t *Tail) SkipExisting() *Tail {
	if path, ok := t.locate(); ok {
		if fi, err := os.Stat(path); err == nil {
			t.from = fi.Size()
		}
	}
	return t
}

// Path is the file being read, "" until found.
func (t *Tail) Path() string { return t.path }

// Poll implements Source.
func (t *Tail) Poll() ([]Event, error) {
	if t.f == nil {
		path, ok := t.locate()
		if !ok {
			return nil, nil
		}
		f, err := os.Open(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil // located, not created yet
		}
		if err != nil {
			return nil, err
		}
		if t.from > 0 {
			if _, err := f.Seek(t.from, io.SeekStart); err != nil {
				f.Close()
				return nil, err
			}
		}
		t.f, t.path = f, path
	}
	var events []Event
	buf := make([]byte, 64<<10)
	for {
		n, err := t.f.Read(buf)
		events = t.lines(buf[:n], events)
		if err == io.EOF || n == 0 {
			return events, nil
		}
		if err != nil {
			return events, err
		}
	}
}

// lines parses the complete lines in p, keeping an unfinished one.
func (t *Tail) lines(p []byte, events []Event) []Event {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if !t.skip {
				t.partial = append(t.partial, p...)
				if len(t.partial) > maxLine {
					t.partial, t.skip = t.partial[:0], true
				}
			}
			return events
		}
		line := p[:i]
		p = p[i+1:]
		if t.skip || len(t.partial)+len(line) > maxLine {
			t.skip, t.partial = false, t.partial[:0]
			continue
		}
		if len(t.partial) > 0 {
			line = append(t.partial, line...)
			t.partial = t.partial[:0]
		}
		if len(bytes.TrimSpace(line)) > 0 {
			events = append(events, t.parse(line)...)
		}
	}
	return events
}

// Close releases the file.
func (t *Tail) Close() error {
	if t.f == nil {
		return nil
	}
	return t.f.Close()
}
