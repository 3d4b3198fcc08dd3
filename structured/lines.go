package structured

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// lineReader reads newline-terminated lines of any length: provider lines
// carry whole files and base64 images, far past bufio.Scanner's 64 KiB.
type lineReader struct {
	r   *bufio.Reader
	buf []byte // holds a line longer than the bufio buffer
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// bigLine is the size past which the long-line buffer is dropped after use,
// so one 50 MiB line does not pin 50 MiB for the rest of the run.
const bigLine = 1 << 20

// next returns the next line without its newline (or a final unterminated
// line) and io.EOF at the end. The slice is valid until the next call.
func (lr *lineReader) next() ([]byte, error) {
	if cap(lr.buf) > bigLine {
		lr.buf = nil
	}
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		switch {
		case err == nil:
			if len(lr.buf) == 0 {
				return trimEOL(chunk), nil
			}
			lr.buf = append(lr.buf, chunk...)
			return trimEOL(lr.buf), nil
		case errors.Is(err, bufio.ErrBufferFull):
			lr.buf = append(lr.buf, chunk...)
		case errors.Is(err, io.EOF):
			lr.buf = append(lr.buf, chunk...)
			if len(lr.buf) > 0 {
				return trimEOL(lr.buf), nil
			}
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// pumpStats counts what pump read.
type pumpStats struct {
	Lines, Malformed int
}

// pump feeds every line of r to tr. Malformed lines are reported on logw
// with their line number and skipped; a translator error that is not
// ErrMalformed (stdout gone) stops the pump. after, if set, runs after
// each line.
func pump(r io.Reader, tr Translator, name string, logw io.Writer, after func()) (pumpStats, error) {
	var st pumpStats
	lr := newLineReader(r)
	for {
		line, err := lr.next()
		if errors.Is(err, io.EOF) {
			return st, nil
		}
		if err != nil {
			return st, fmt.Errorf("reading %s output: %w", name, err)
		}
		st.Lines++
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := tr.Line(line); err != nil {
			if !errors.Is(err, ErrMalformed) {
				return st, err
			}
			st.Malformed++
			fmt.Fprintf(logw, "yume-cli: skipped %s output line %d (%v): %s\n", name, st.Lines, err, preview(line))
		}
		if after != nil {
			after()
		}
	}
}

// preview shortens a line for a log message.
func preview(b []byte) string {
	const max = 120
	if len(b) > max {
		return fmt.Sprintf("%q… (%d bytes)", b[:max], len(b))
	}
	return fmt.Sprintf("%q", b)
}
