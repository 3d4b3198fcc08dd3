// Package recordings reads and writes asciinema casts (asciicast v2, and v3
// for reading), records a terminal session as one, and plays one back as the
// driver's terminal on a virtual clock.
//
// The format follows asciinema's own reader and writer (asciinema 2.x, the
// Python one Debian ships, and 3.x, the Rust one):
//
//   - The first line is a JSON object, the header. Every following non-empty
//     line is one event, a JSON array [time, code, data]. v2 times are
//     absolute seconds; v3 times are intervals since the previous event and
//     v3 allows "#" comment lines.
//   - Unknown event codes are kept, not rejected: both asciinema readers keep
//     them (Rust as EventData::Other, Python by passing every event through)
//     and the format says players ignore codes they do not understand. A code
//     longer than one character is cut to its first character, as asciinema's
//     Rust reader does. An empty code is an error ("missing event code").
//   - The exit status is an "x" event whose data is the decimal status
//     (asciicast v3). Read and Write keep it in v2 too: asciinema 2.2's
//     reader (`asciinema cat`, `play`) passes only "o" events to the
//     terminal and asciinema 3 keeps unknown v2 codes, so a trailing
//     [t, "x", "0"] is harmless to stock players and lets a replay know how
//     the child ended. A child killed by signal N is written as 128+N, the
//     shell convention asciinema 3 also uses.
//   - A cast file is UTF-8 text: a line with invalid UTF-8 is an error, as
//     in asciinema (Python opens casts with encoding="utf-8"), rather than
//     silently repaired. Blank lines are skipped (asciinema 3 does too).
//   - Output and input bytes become JSON strings, so they must be UTF-8. A
//     character split across two reads is kept whole (the incomplete tail
//     waits for the next read); invalid bytes become U+FFFD, one per
//     "maximal subpart" (Unicode 3.9 §3.9, Table 3-8), exactly as
//     asciinema's incremental decoder (Python codecs "replace", Rust
//     String::from_utf8_lossy) does.
package recordings

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Event codes of asciicast v2/v3.
const (
	CodeOutput byte = 'o' // bytes the program printed
	CodeInput  byte = 'i' // bytes typed into the program (keys, query replies)
	CodeResize byte = 'r' // new window size, data "COLSxROWS"
	CodeMarker byte = 'm' // a marker (chapter) with an optional label
	CodeExit   byte = 'x' // exit status of the program, data a decimal integer
)

// Header is a cast's metadata: the header line of the file, in one model for
// v2 and v3 (v3's "term" object is flattened into Width, Height, TermType).
type Header struct {
	// Version is the asciicast version the cast was read from (2 or 3).
	// Write always writes version 2, whatever this says.
	Version int
	// Width and Height are the initial window size in columns and rows.
	Width, Height int
	// Timestamp is the start of the recording in Unix seconds; 0 if unknown.
	Timestamp int64
	// IdleTimeLimit, in seconds, tells players to shorten longer pauses; 0
	// means no limit.
	IdleTimeLimit float64
	// Env holds captured environment variables, usually TERM and SHELL.
	Env map[string]string
	// Title and Command are free text: the recording's title and the
	// command that was recorded.
	Title, Command string
	// TermType is v3's term.type. A v2 header has no such field: Read fills
	// it from Env["TERM"], and Write stores it there when Env lacks TERM.
	TermType string
	// Extra keeps header fields this package does not model (theme,
	// duration, …) as compact raw JSON, so a read-then-written cast loses
	// nothing. v3's term.theme lands here as "theme", its v2 spelling.
	Extra map[string]json.RawMessage
}

// Event is one timed event of a cast.
type Event struct {
	// Time since the start of the recording (absolute, also for v3 casts,
	// whose relative times Read adds up). Files keep microseconds.
	Time time.Duration
	// Code is the event type: CodeOutput, CodeInput, CodeResize,
	// CodeMarker, CodeExit, or an unknown code kept as read.
	Code byte
	// Data is the event's payload as UTF-8 text.
	Data string
}

// Cast is a whole recording.
type Cast struct {
	Header Header
	Events []Event
}

// FormatError is what Read returns for input that is not a cast it can
// read. Line is 1-based and names the offending line.
type FormatError struct {
	Line int
	Msg  string
}

// Error names the line, so a person can open the file at the right place.
func (e *FormatError) Error() string {
	return fmt.Sprintf("asciicast line %d: %s", e.Line, e.Msg)
}

// Size parses a resize event's "COLSxROWS". ok is false for any other event
// or a malformed size.
func (e Event) Size() (cols, rows int, ok bool) {
	if e.Code != CodeResize {
		return 0, 0, false
	}
	return parseSize(e.Data)
}

// ExitStatus returns the numeric status of the cast's last exit event; ok is
// false when the cast has none (asciinema 2 never writes one) or its data is
// not a number.
func (c *Cast) ExitStatus() (status int, ok bool) {
	for i := len(c.Events) - 1; i >= 0; i-- {
		if c.Events[i].Code == CodeExit {
			n, err := strconv.Atoi(c.Events[i].Data)
			return n, err == nil
		}
	}
	return 0, false
}

// Duration is the time of the last event, or 0 for a cast without events.
func (c *Cast) Duration() time.Duration {
	if len(c.Events) == 0 {
		return 0
	}
	return c.Events[len(c.Events)-1].Time
}

// parseSize parses "COLSxROWS" with both parts positive decimal integers.
func parseSize(s string) (cols, rows int, ok bool) {
	cs, rs, found := strings.Cut(s, "x")
	if !found {
		return 0, 0, false
	}
	c, err1 := strconv.Atoi(cs)
	r, err2 := strconv.Atoi(rs)
	if err1 != nil || err2 != nil || c <= 0 || r <= 0 {
		return 0, 0, false
	}
	return c, r, true
}
