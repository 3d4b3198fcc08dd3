package recordings

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"
)

// roundTrip writes c and reads it back.
func roundTrip(t testing.TB, c *Cast) (*Cast, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, c); err != nil {
		t.Fatalf("Write: %v", err)
	}
	back, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("Read(Write(c)): %v\n%s", err, buf.String())
	}
	return back, buf.String()
}

func TestRoundTripFixtures(t *testing.T) {
	for _, name := range []string{"v2-minimal.cast", "v2-full.cast", "v2-nulls.cast", "v2-unknown-codes.cast", "v3-full.cast"} {
		t.Run(name, func(t *testing.T) {
			orig := readFixture(t, name)
			want := *orig
			if orig.Header.Version == 3 {
				// Written as v2: the terminal type moves into env TERM.
				want.Header.Version = 2
				want.Header.Env = maps.Clone(orig.Header.Env)
				want.Header.Env["TERM"] = orig.Header.TermType
			}
			back, text := roundTrip(t, orig)
			if !reflect.DeepEqual(back, &want) {
				t.Errorf("round trip changed the cast\n got %+v\nwant %+v\nfile:\n%s", back, &want, text)
			}
		})
	}
}

func TestRoundTripData(t *testing.T) {
	awkward := []string{
		"", "\x00\x01\x1f\x7f", `"quoted" \back\slash/`, "\t\n\r\b\f", "\u2028\u2029",
		"żółć €😀", "\x1b[?1049h\x1b[2J", "</script>&amp;", "\uFFFD",
	}
	c := &Cast{Header: Header{Width: 80, Height: 24, Title: "t\"\n", Command: "a\\b",
		Env: map[string]string{"TERM": "xterm", "X": "<&>"}}}
	for i, s := range awkward {
		at := time.Duration(i) * 1500 * time.Microsecond
		c.Events = append(c.Events, Event{at, 'o', s}, Event{at, 'i', s}, Event{at, 'm', s})
	}
	c.Events = append(c.Events, Event{time.Hour, 'x', "-1"})
	back, text := roundTrip(t, c)
	c.Header.Version, c.Header.TermType = 2, "xterm"
	if !reflect.DeepEqual(back, c) {
		t.Errorf("round trip changed the cast\n got %+v\nwant %+v\nfile:\n%s", back, c, text)
	}
	// Every line is one JSON value: nothing in the data may break a line.
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if !json.Valid([]byte(line)) {
			t.Errorf("line %d is not JSON: %q", i+1, line)
		}
	}
}

func TestWriteFormat(t *testing.T) {
	c := &Cast{
		Header: Header{Version: 3, Width: 80, Height: 24, Timestamp: 1700000000, IdleTimeLimit: 1.5,
			Command: "sh", Title: "demo", TermType: "xterm-256color", Env: map[string]string{"SHELL": "/bin/sh"},
			Extra: map[string]json.RawMessage{"theme": json.RawMessage("{\n \"fg\": \"#ffffff\"\n}"), "width": json.RawMessage("1")}},
		Events: []Event{
			{0, 'o', "a\"b"},
			{1500 * time.Millisecond, 'i', "\r"},
			{12*time.Second + 3*time.Microsecond + 999, 'r', "100x40"},
			{20 * time.Second, 'x', "0"},
		},
	}
	want := `{"version": 2, "width": 80, "height": 24, "timestamp": 1700000000, "idle_time_limit": 1.5, ` +
		`"command": "sh", "title": "demo", "env": {"SHELL": "/bin/sh", "TERM": "xterm-256color"}, "theme": {"fg":"#ffffff"}}
[0.0, "o", "a\"b"]
[1.5, "i", "\r"]
[12.000003, "r", "100x40"]
[20.0, "x", "0"]
`
	var buf bytes.Buffer
	if err := Write(&buf, c); err != nil {
		t.Fatal(err)
	}
	if buf.String() != want {
		t.Errorf("Write wrote\n%s\nwant\n%s", buf.String(), want)
	}
	if c.Header.Env["TERM"] != "" {
		t.Error("Write modified the caller's Env")
	}
}

func TestWriteRefuses(t *testing.T) {
	ok := Header{Width: 80, Height: 24}
	tests := []struct {
		name string
		c    Cast
		msg  string
	}{
		{"no size", Cast{}, "window size 0x0 is not positive"},
		{"time goes back", Cast{Header: ok, Events: []Event{{time.Second, 'o', "a"}, {0, 'o', "b"}}},
			"event 1 at 0s is before the previous event at 1s"},
		{"negative time", Cast{Header: ok, Events: []Event{{-time.Second, 'o', "a"}}}, "event 0 at -1s is before"},
		{"no code", Cast{Header: ok, Events: []Event{{0, 0, "a"}}}, "event 0: missing event code"},
		{"non-ASCII code", Cast{Header: ok, Events: []Event{{0, 0xC3, "a"}}}, "is not an ASCII character"},
		{"bad resize", Cast{Header: ok, Events: []Event{{0, 'r', "big"}}}, `resize event data "big"`},
		{"bad exit", Cast{Header: ok, Events: []Event{{0, 'x', ""}}}, `exit event data ""`},
		{"bad extra", Cast{Header: Header{Width: 1, Height: 1, Extra: map[string]json.RawMessage{"k": json.RawMessage("{")}}},
			`extra field "k" is not valid JSON`},
	}
	for _, tt := range tests {
		err := Write(&bytes.Buffer{}, &tt.c)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: Write = %v, want an error containing %q", tt.name, err, tt.msg)
		}
	}
	boom := errors.New("disk full")
	if err := Write(failWriter{boom}, &Cast{Header: ok}); !errors.Is(err, boom) {
		t.Errorf("Write to a failing writer = %v, want %v wrapped", err, boom)
	}
}

func TestWriteRepairsInvalidUTF8(t *testing.T) {
	c := &Cast{Header: Header{Width: 1, Height: 1}, Events: []Event{{0, 'o', "a\xe2\x82b\xff"}}}
	back, _ := roundTrip(t, c)
	if got := back.Events[0].Data; got != "a\uFFFDb\uFFFD" {
		t.Errorf("data = %q, want invalid bytes as U+FFFD per maximal subpart", got)
	}
}

// failWriter fails every write.
type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }
