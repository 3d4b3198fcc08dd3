package recordings

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// hdr is a valid v2 header line for the bad-event cases.
const hdr = `{"version": 2, "width": 80, "height": 24}` + "\n"

func TestReadBadInput(t *testing.T) {
	tests := []struct {
		name string
		in   string
		line int
		msg  string // a substring of the error message
	}{
		{"empty file", "", 1, "the file is empty"},
		{"blank first line", "\n" + hdr, 1, "not a JSON object"},
		{"header not JSON", "hello world\n", 1, "not a JSON object"},
		{"header is an event", `[0.1, "o", "x"]` + "\n", 1, "header line is missing"},
		{"no version", `{"width": 80, "height": 24}` + "\n", 1, `no "version" field`},
		{"version is a string", `{"version": "2"}` + "\n", 1, `"version" must be an integer`},
		{"version 1 one line", `{"version": 1, "width": 80, "height": 24, "stdout": [[0.1, "x"]]}` + "\n",
			1, "asciicast v1 is not supported; convert it to v2 with asciinema 3"},
		{"version 1 pretty", "{\n  \"version\": 1,\n  \"width\": 80,\n  \"height\": 24,\n  \"stdout\": []\n}\n",
			1, "asciicast v1 is not supported"},
		{"version 1 half pretty", "{\"version\": 1,\n\"width\": 80, \"height\": 24, \"stdout\": []}\n", 1, "asciicast v1 is not supported"},
		{"broken object header", "{\"version\": 2,\n[0.1, \"o\", \"x\"]\n", 1, "not a JSON object"},
		{"version 4", `{"version": 4}` + "\n", 1, "asciicast version 4 is not supported"},
		{"no width", `{"version": 2, "height": 24}` + "\n", 1, `no "width" field`},
		{"zero height", `{"version": 2, "width": 80, "height": 0}` + "\n", 1, `"height" must be a positive integer`},
		{"v3 without term", `{"version": 3, "cols": 80}` + "\n", 1, `needs a "term" object`},
		{"v3 without rows", `{"version": 3, "term": {"cols": 80}}` + "\n", 1, `no "rows" field`},
		{"title not a string", `{"version": 2, "width": 1, "height": 1, "title": 5}` + "\n", 1, `"title" must be a string`},
		{"env not strings", `{"version": 2, "width": 1, "height": 1, "env": {"A": 1}}` + "\n", 1, `"env" must be an object`},
		{"bad timestamp", `{"version": 2, "width": 1, "height": 1, "timestamp": "now"}` + "\n", 1, `"timestamp" must be a number`},
		{"invalid UTF-8 in header", "{\"version\": 2, \"title\": \"\xff\"}\n", 1, "invalid UTF-8 at byte 26"},

		{"truncated event", hdr + `[0.1, "o", "hel`, 2, "the file looks truncated"},
		{"truncated later", hdr + "[0.1, \"o\", \"a\"]\n[0.2, \"o\"", 3, "the file looks truncated"},
		{"event not JSON", hdr + "oops\n", 2, "not a JSON array"},
		{"event is an object", hdr + `{"version": 2}` + "\n", 2, "two casts concatenated?"},
		{"comment in v2", hdr + "# note\n", 2, "comment lines are allowed in asciicast v3 only"},
		{"two elements", hdr + `[0.1, "o"]` + "\n", 2, "this one has 2"},
		{"time is a string", hdr + `["0.1", "o", "x"]` + "\n", 2, "time must be a non-negative number"},
		{"negative time", hdr + `[-0.1, "o", "x"]` + "\n", 2, "time must be a non-negative number"},
		{"huge time", hdr + `[1e300, "o", "x"]` + "\n", 2, "time must be a non-negative number"},
		{"code not a string", hdr + `[0.1, 111, "x"]` + "\n", 2, "code must be a JSON string"},
		{"empty code", hdr + `[0.1, "", "x"]` + "\n", 2, "missing event code"},
		{"non-ASCII code", hdr + `[0.1, "ö", "x"]` + "\n", 2, `event code "ö" is not an ASCII character`},
		{"data not a string", hdr + `[0.1, "o", 5]` + "\n", 2, "data must be a JSON string"},
		{"bad resize", hdr + `[0.1, "r", "80 by 24"]` + "\n", 2, `resize event data "80 by 24" is not COLSxROWS`},
		{"bad exit", hdr + `[0.1, "x", "ok"]` + "\n", 2, `exit event data "ok" is not an integer`},
		{"time goes back", hdr + "[2.0, \"o\", \"a\"]\n\n[1.5, \"o\", \"b\"]\n", 4,
			"time 1.5 is before the previous event's 2.0; v2 times are absolute"},
		{"invalid UTF-8 event", hdr + "[0.1, \"o\", \"a\xe2\x82\"]\n", 2, `invalid UTF-8 at byte 14 ("\xe2\x82\"]")`},
		{"v3 time overflow", `{"version": 3, "term": {"cols": 1, "rows": 1}}` + "\n" +
			"[9000000000, \"o\", \"a\"]\n[9000000000, \"o\", \"b\"]\n", 3, "adds up to more than"},
		{"line too long", hdr + `[0.1, "o", "` + strings.Repeat("a", maxLine) + "\"]\n", 2, "longer than 64 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Read(strings.NewReader(tt.in))
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("Read = %v, %v; want a *FormatError", c, err)
			}
			if fe.Line != tt.line || !strings.Contains(fe.Msg, tt.msg) {
				t.Errorf("error = %q (line %d); want line %d containing %q", fe.Error(), fe.Line, tt.line, tt.msg)
			}
			if !strings.HasPrefix(err.Error(), "asciicast line ") {
				t.Errorf("error %q does not start by naming the line", err)
			}
		})
	}
}

func TestReadIOError(t *testing.T) {
	boom := errors.New("disk on fire")
	_, err := Read(io.MultiReader(strings.NewReader(hdr), iotest.ErrReader(boom)))
	var fe *FormatError
	if !errors.Is(err, boom) || errors.As(err, &fe) {
		t.Errorf("Read = %v; want the I/O error wrapped, not a FormatError", err)
	}
}

func TestReadTolerates(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		events int
	}{
		{"blank lines and CRLF", hdr + "\r\n[0.1, \"o\", \"a\"]\r\n\r\n[0.2, \"o\", \"b\"]", 2},
		{"no final newline", hdr + `[0.1, "o", "a"]`, 1},
		{"header only", hdr, 0},
		{"v3 comments", `{"version": 3, "term": {"cols": 1, "rows": 1}}` + "\n# c\n  # indented\n[0.1, \"o\", \"a\"]\n", 1},
		{"equal times", hdr + "[1.0, \"o\", \"a\"]\n[1.0, \"i\", \"b\"]\n", 2},
		{"literal U+FFFD", hdr + "[0.1, \"o\", \"\xef\xbf\xbd\"]\n", 1},
	}
	for _, tt := range tests {
		c, err := Read(strings.NewReader(tt.in))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if len(c.Events) != tt.events {
			t.Errorf("%s: %d events, want %d", tt.name, len(c.Events), tt.events)
		}
	}
}
