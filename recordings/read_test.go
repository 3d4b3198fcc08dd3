package recordings

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// sec turns seconds into a Duration for expected values, to the microsecond.
func sec(s float64) time.Duration { return time.Duration(math.Round(s*1e6)) * time.Microsecond }

// readFixture reads testdata/casts/name or fails the test.
func readFixture(t testing.TB, name string) *Cast {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "casts", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := Read(f)
	if err != nil {
		t.Fatalf("Read(%s): %v", name, err)
	}
	return c
}

func TestReadFixtures(t *testing.T) {
	palette := `"#000000:#aa0000:#00aa00:#aa5500:#0000aa:#aa00aa:#00aaaa:#aaaaaa"`
	tests := []struct {
		file string
		want Cast
	}{
		{"v2-minimal.cast", Cast{
			Header: Header{Version: 2, Width: 100, Height: 30},
			Events: []Event{{sec(0.5), 'o', "hello"}},
		}},
		{"v2-full.cast", Cast{
			Header: Header{
				Version: 2, Width: 80, Height: 24, Timestamp: 1700000000, IdleTimeLimit: 2.5,
				Command: "gh copilot suggest", Title: "suggest demo", TermType: "xterm-256color",
				Env: map[string]string{"SHELL": "/bin/bash", "TERM": "xterm-256color"},
				Extra: map[string]json.RawMessage{
					"theme": json.RawMessage(`{"fg":"#d0d0d0","bg":"#212121","palette":` + palette + `}`),
				},
			},
			Events: []Event{
				{sec(0.01), 'o', "\x1b[1mRun this?\x1b[0m (y/n) "},
				{sec(0.8), 'i', "y"},
				{sec(0.81), 'o', "y\r\n"},
				{sec(1.2), 'm', "approved"},
				{sec(1.5), 'r', "100x40"},
				{2*time.Second + time.Microsecond, 'o', "żółć €\r\n"},
				{sec(2.5), 'o', "\x1b[6n"},
				{sec(2.5), 'i', "\x1b[5;1R"},
				{sec(3), 'x', "0"},
			},
		}},
		{"v3-full.cast", Cast{
			Header: Header{
				Version: 3, Width: 90, Height: 30, Timestamp: 1700000100, Title: "v3 demo",
				TermType: "xterm-256color", Env: map[string]string{"SHELL": "/bin/zsh"},
				Extra: map[string]json.RawMessage{
					"theme": json.RawMessage(`{"fg":"#ffffff","bg":"#000000","palette":` + palette + `}`),
				},
			},
			// Intervals added up: 0.25, 1.25, 1.3, 2.0, 2.000001, 2.200001, 2.300001.
			Events: []Event{
				{sec(0.25), 'o', "Proceed? [Y/n] "},
				{sec(1.25), 'i', "n"},
				{sec(1.3), 'o', "n\r\n"},
				{sec(2), 'r', "120x40"},
				{2*time.Second + time.Microsecond, 'm', ""},
				{2200001 * time.Microsecond, 'o', "Bye!\r\n"},
				{2300001 * time.Microsecond, 'x', "130"},
			},
		}},
		{"v2-nulls.cast", Cast{
			Header: Header{Version: 2, Width: 100, Height: 50, Env: map[string]string{"SHELL": "/bin/bash"}},
			Events: []Event{{sec(1.23), 'o', "hello"}},
		}},
		{"v2-unknown-codes.cast", Cast{
			Header: Header{Version: 2, Width: 80, Height: 24},
			Events: []Event{
				{sec(0.1), 'o', "a"},
				{sec(0.2), 'z', "future event"},
				{sec(0.3), 's', "long code"}, // asciinema keeps the first character.
				{sec(0.4), 'o', "b"},
			},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got := readFixture(t, tt.file)
			if !reflect.DeepEqual(got.Header, tt.want.Header) {
				t.Errorf("header\n got %+v\nwant %+v", got.Header, tt.want.Header)
			}
			if !reflect.DeepEqual(got.Events, tt.want.Events) {
				t.Errorf("events\n got %q\nwant %q", got.Events, tt.want.Events)
			}
		})
	}
}

func TestCastHelpers(t *testing.T) {
	v2 := readFixture(t, "v2-full.cast")
	v3 := readFixture(t, "v3-full.cast")
	minimal := readFixture(t, "v2-minimal.cast")
	tests := []struct {
		name     string
		c        *Cast
		status   int
		ok       bool
		duration time.Duration
	}{
		{"v2 exit 0", v2, 0, true, sec(3)},
		{"v3 exit 130", v3, 130, true, 2300001 * time.Microsecond},
		{"no exit event", minimal, 0, false, sec(0.5)},
		{"empty", &Cast{}, 0, false, 0},
	}
	for _, tt := range tests {
		status, ok := tt.c.ExitStatus()
		if status != tt.status || ok != tt.ok || tt.c.Duration() != tt.duration {
			t.Errorf("%s: ExitStatus() = %d, %v; Duration() = %v; want %d, %v; %v",
				tt.name, status, ok, tt.c.Duration(), tt.status, tt.ok, tt.duration)
		}
	}
	sizes := []struct {
		e          Event
		cols, rows int
		ok         bool
	}{
		{Event{Code: 'r', Data: "100x40"}, 100, 40, true},
		{Event{Code: 'r', Data: "100x"}, 0, 0, false},
		{Event{Code: 'r', Data: "0x5"}, 0, 0, false},
		{Event{Code: 'o', Data: "100x40"}, 0, 0, false},
	}
	for _, s := range sizes {
		cols, rows, ok := s.e.Size()
		if cols != s.cols || rows != s.rows || ok != s.ok {
			t.Errorf("%q.Size() = %d, %d, %v; want %d, %d, %v", s.e, cols, rows, ok, s.cols, s.rows, s.ok)
		}
	}
}

func TestReadTimes(t *testing.T) {
	tests := []struct {
		raw  string
		want time.Duration
	}{
		{"0", 0},
		{"1", time.Second}, // Current asciinema reads whole seconds too.
		{"0.5", 500 * time.Millisecond},
		{"1.000001", time.Second + time.Microsecond},
		{"1.1234569", sec(1.123456)}, // Truncated past microseconds, as asciinema.
		{"12.3", sec(12.3)},
		{"1e-3", time.Millisecond},
		{"2.5E1", 25 * time.Second},
	}
	for _, tt := range tests {
		in := "{\"version\": 2, \"width\": 1, \"height\": 1}\n[" + tt.raw + ", \"o\", \"x\"]\n"
		c, err := Read(strings.NewReader(in))
		if err != nil {
			t.Errorf("time %s: %v", tt.raw, err)
			continue
		}
		if got := c.Events[0].Time; got != tt.want {
			t.Errorf("time %s = %v, want %v", tt.raw, got, tt.want)
		}
	}
}
