package recordings

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// maxLine bounds one line of a cast, so a corrupt file cannot make Read
// buffer without limit. A single output event of 64 MiB is far beyond what
// a terminal program prints in one read.
const maxLine = 64 << 20

// maxSeconds keeps event times inside time.Duration.
const maxSeconds = math.MaxInt64/int64(time.Second) - 1

// Read reads an asciicast v2 or v3 file into one model, with absolute event
// times. Input it cannot read gives a *FormatError naming the line (an I/O
// error from r is returned wrapped, as is). Policy, following asciinema:
// blank lines are skipped; "#" comment lines are skipped in v3 only; unknown
// event codes are kept; an empty code, a resize that is not COLSxROWS, a
// non-integer exit status, a negative time and (v2) a time before the
// previous event's are errors.
func Read(r io.Reader) (*Cast, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	if !sc.Scan() {
		if err := scanErr(sc, 1); err != nil {
			return nil, err
		}
		return nil, &FormatError{Line: 1, Msg: "the file is empty; an asciicast starts with a JSON header line"}
	}
	first := bytes.TrimSpace(sc.Bytes())
	if err := checkUTF8(first); err != nil {
		return nil, &FormatError{Line: 1, Msg: err.Error()}
	}
	h, err := parseHeader(first)
	if err != nil {
		if len(first) > 0 && first[0] == '{' && isV1(first, sc) {
			err = errors.New(v1Hint) // A pretty-printed v1 file spans many lines.
		}
		return nil, &FormatError{Line: 1, Msg: err.Error()}
	}
	c := &Cast{Header: h}
	var prev int64 // microseconds: the previous event's absolute time
	line := 1
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 || (h.Version == 3 && b[0] == '#') {
			continue
		}
		if err := checkUTF8(b); err != nil {
			return nil, &FormatError{Line: line, Msg: err.Error()}
		}
		e, us, err := parseEvent(b, h.Version, prev)
		if err != nil {
			return nil, &FormatError{Line: line, Msg: err.Error()}
		}
		prev = us
		c.Events = append(c.Events, e)
	}
	if err := scanErr(sc, line+1); err != nil {
		return nil, err
	}
	return c, nil
}

// scanErr turns the scanner's error into Read's: a line too long is a
// FormatError, anything else an I/O error.
func scanErr(sc *bufio.Scanner, line int) error {
	switch err := sc.Err(); {
	case err == nil:
		return nil
	case errors.Is(err, bufio.ErrTooLong):
		return &FormatError{Line: line, Msg: fmt.Sprintf("the line is longer than %d MiB; not an asciicast file?", maxLine>>20)}
	default:
		return fmt.Errorf("reading asciicast: %w", err)
	}
}

// checkUTF8 rejects a line that is not UTF-8, as asciinema does (Python
// opens casts with encoding="utf-8", Rust reads lines into a String):
// encoding/json would silently turn the bytes into U+FFFD instead.
func checkUTF8(b []byte) error {
	if utf8.Valid(b) {
		return nil
	}
	i := 0
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	return fmt.Errorf("invalid UTF-8 at byte %d (%q); an asciicast file is UTF-8 text", i+1, b[i:min(i+4, len(b))])
}

// isV1 reports whether the lines from the scanner on form one JSON object
// with "version": 1, i.e. a multi-line asciicast v1 file.
func isV1(first []byte, sc *bufio.Scanner) bool {
	var doc bytes.Buffer
	doc.Write(first)
	for sc.Scan() && doc.Len() < maxLine {
		doc.WriteByte('\n')
		doc.Write(sc.Bytes())
	}
	var v struct{ Version int }
	return json.Unmarshal(doc.Bytes(), &v) == nil && v.Version == 1
}

// parseEvent parses one event line. prev is the previous event's absolute
// time in microseconds; us is this one's.
func parseEvent(b []byte, version int, prev int64) (e Event, us int64, err error) {
	rawTime, code, data, ok := decodeEventFast(b)
	if !ok {
		if rawTime, code, data, err = decodeEventJSON(b); err != nil {
			return e, 0, err
		}
	}
	t, err := parseMicros(rawTime)
	if err != nil {
		return e, 0, err
	}
	if code != "" {
		// asciinema keeps the first character of a longer code.
		if r, _ := utf8.DecodeRuneInString(code); r >= utf8.RuneSelf {
			return e, 0, fmt.Errorf("event code %q is not an ASCII character", code)
		}
		e.Code = code[0]
	}
	if err := checkEvent(e.Code, data); err != nil {
		return e, 0, err
	}
	switch {
	case version == 3:
		if t > maxSeconds*1e6-prev {
			return e, 0, fmt.Errorf("the time adds up to more than %d seconds", maxSeconds)
		}
		us = prev + t // v3 times are intervals since the previous event.
	case t < prev:
		return e, 0, fmt.Errorf("time %s is before the previous event's %s; v2 times are absolute and must not decrease",
			rawTime, appendTime(nil, time.Duration(prev)*time.Microsecond))
	default:
		us = t
	}
	e.Time = time.Duration(us) * time.Microsecond
	e.Data = data
	return e, us, nil
}

// decodeEventJSON decodes an event line with encoding/json: the general
// path, for lines decodeEventFast does not take, with errors that explain.
func decodeEventJSON(b []byte) (rawTime []byte, code, data string, err error) {
	var parts []json.RawMessage
	if err := json.Unmarshal(b, &parts); err != nil {
		return nil, "", "", eventJSONError(b, err)
	}
	if len(parts) != 3 {
		return nil, "", "", fmt.Errorf("an event is a JSON array of 3 elements [time, code, data], this one has %d", len(parts))
	}
	if json.Unmarshal(parts[1], &code) != nil {
		return nil, "", "", fmt.Errorf("the event code must be a JSON string, got %s", parts[1])
	}
	if json.Unmarshal(parts[2], &data) != nil {
		return nil, "", "", fmt.Errorf("the event data must be a JSON string, got %.40s", parts[2])
	}
	return parts[0], code, data, nil
}

// eventJSONError explains a line that is not a JSON array.
func eventJSONError(b []byte, err error) error {
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn) && syn.Offset >= int64(len(b)):
		return fmt.Errorf("the event is cut short (%v); the file looks truncated, was the recording interrupted?", err)
	case b[0] == '#':
		return fmt.Errorf("\"#\" comment lines are allowed in asciicast v3 only")
	case b[0] == '{':
		return fmt.Errorf("a JSON object where an event [time, code, data] belongs; two casts concatenated?")
	default:
		return fmt.Errorf("the event is not a JSON array [time, code, data]: %v", err)
	}
}

// parseMicros parses a JSON number of seconds into microseconds, keeping
// the first six decimals exactly (not through a float), as asciinema does.
func parseMicros(raw json.RawMessage) (int64, error) {
	s := string(raw)
	bad := func() (int64, error) {
		return 0, fmt.Errorf("the event time must be a non-negative number of seconds, got %.40s", s)
	}
	if s == "" || s[0] < '0' || s[0] > '9' { // Also refuses a minus sign.
		return bad()
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if bytes.ContainsAny(raw, "eE") {
		// Exponent notation: rare, so a float is precise enough.
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f < 0 || f > float64(maxSeconds) {
			return bad()
		}
		return int64(math.Round(f * 1e6)), nil
	}
	secs, err := strconv.ParseInt(intPart, 10, 64)
	if err != nil || secs > maxSeconds {
		return bad()
	}
	var micros int64
	for i := range 6 {
		micros *= 10
		if i < len(frac) {
			d := frac[i]
			if d < '0' || d > '9' {
				return bad()
			}
			micros += int64(d - '0')
		}
	}
	return secs*1e6 + micros, nil
}
