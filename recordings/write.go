package recordings

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/yume-cli/yume-cli/internal/jsonfast"
)

// Write writes c to w as an asciicast v2 file (whatever c.Header.Version
// says): the header line, then one line per event with absolute times in
// seconds with microsecond precision. It refuses a cast that Read would
// refuse (a time before the previous one, a bad resize or exit event), so
// what Write writes Read reads back equal, up to sub-microsecond times and
// invalid UTF-8, which becomes U+FFFD.
func Write(w io.Writer, c *Cast) error {
	if c.Header.Width <= 0 || c.Header.Height <= 0 {
		return fmt.Errorf("writing cast: window size %dx%d is not positive; set Header.Width and Header.Height",
			c.Header.Width, c.Header.Height)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	line, err := appendHeader(nil, c.Header)
	if err != nil {
		return fmt.Errorf("writing cast: %w", err)
	}
	if _, err := bw.Write(line); err != nil {
		return fmt.Errorf("writing cast header: %w", err)
	}
	var prev time.Duration
	for i, e := range c.Events {
		if e.Time < prev {
			return fmt.Errorf("writing cast: event %d at %v is before the previous event at %v; v2 times must not decrease",
				i, e.Time, prev)
		}
		prev = e.Time
		if err := checkEvent(e.Code, e.Data); err != nil {
			return fmt.Errorf("writing cast: event %d: %w", i, err)
		}
		line = appendEvent(line[:0], e.Time, e.Code, e.Data)
		if _, err := bw.Write(line); err != nil {
			return fmt.Errorf("writing cast event %d: %w", i, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing cast: %w", err)
	}
	return nil
}

// checkEvent applies the rules both Read and Write enforce on one event.
func checkEvent(code byte, data string) error {
	switch {
	case code == 0:
		return fmt.Errorf("missing event code")
	case code >= utf8.RuneSelf:
		return fmt.Errorf("event code %q is not an ASCII character", code)
	case code == CodeResize:
		if _, _, ok := parseSize(data); !ok {
			return fmt.Errorf("resize event data %q is not COLSxROWS (e.g. \"80x24\")", data)
		}
	case code == CodeExit:
		if _, err := strconv.Atoi(data); err != nil {
			return fmt.Errorf("exit event data %q is not an integer exit status", data)
		}
	}
	return nil
}

// appendEvent appends one v2 event line, with its newline, formatted as
// asciinema writes it: [1.5, "o", "text"].
func appendEvent(b []byte, at time.Duration, code byte, data string) []byte {
	b = append(b, '[')
	b = appendTime(b, at)
	b = append(b, ", "...)
	b = jsonfast.AppendString(b, string(rune(code))) // ASCII: checkEvent saw to it.
	b = append(b, ", "...)
	b = jsonfast.AppendString(b, validString(data))
	return append(b, "]\n"...)
}

// appendTime appends seconds with up to six decimals, trailing zeros
// trimmed but one kept ("0.0", "1.5", "12.000003"): asciinema's format_time.
// Never a bare "1": early asciinema 3 readers refused a time without a point.
func appendTime(b []byte, at time.Duration) []byte {
	us := int64(at / time.Microsecond)
	b = strconv.AppendInt(b, us/1e6, 10)
	frac := us % 1e6
	digits := 6
	for digits > 1 && frac%10 == 0 {
		frac /= 10
		digits--
	}
	b = append(b, '.')
	s := strconv.AppendInt(nil, frac, 10)
	for range digits - len(s) {
		b = append(b, '0')
	}
	return append(b, s...)
}
