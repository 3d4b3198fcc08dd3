package recordings

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// The driver's view of a terminal (ptyhost.Terminal, with ExitCode for
// Wait): Replay must keep this method set.
var _ interface {
	ReadChunk() ([]byte, time.Duration, error)
	Write([]byte) (int, error)
	Resize(cols, rows int) error
	ExitCode() (int, string)
	Close() error
	Live() bool
} = (*Replay)(nil)

// ms is a duration in milliseconds, for short fixtures.
func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func TestReplayChunks(t *testing.T) {
	c := &Cast{Header: Header{Width: 80, Height: 24}, Events: []Event{
		{ms(100), 'o', "first"},
		{ms(150), 'i', "k"},
		{ms(200), 'r', "100x40"},
		{ms(250), 'm', "marker"},
		{ms(300), 'o', "second"},
		{ms(300), 'o', "same time"},
		{ms(900), 'z', "unknown code"},
		{ms(950), 'x', "2"},
	}}
	r := NewReplay(c)
	if r.Live() || r.Cast() != c {
		t.Fatal("Live() must be false and Cast() the cast replayed")
	}
	if cols, rows := r.Size(); cols != 80 || rows != 24 {
		t.Errorf("initial Size = %dx%d, want the header's 80x24", cols, rows)
	}
	want := []struct {
		data       string
		at         time.Duration
		cols, rows int
	}{
		{"first", ms(100), 80, 24},
		{"second", ms(300), 100, 40}, // The resize before it has been passed.
		{"same time", ms(300), 100, 40},
	}
	for i, w := range want {
		data, at, err := r.ReadChunk()
		if err != nil || string(data) != w.data || at != w.at {
			t.Fatalf("chunk %d = %q at %v, %v; want %q at %v", i, data, at, err, w.data, w.at)
		}
		if cols, rows := r.Size(); cols != w.cols || rows != w.rows {
			t.Errorf("chunk %d: Size = %dx%d, want %dx%d", i, cols, rows, w.cols, w.rows)
		}
	}
	for range 2 {
		if data, _, err := r.ReadChunk(); err != io.EOF || data != nil {
			t.Errorf("ReadChunk at the end = %q, %v; want io.EOF", data, err)
		}
	}
	if code, signal := r.ExitCode(); code != 2 || signal != "" {
		t.Errorf("ExitCode = %d, %q; want 2, \"\"", code, signal)
	}
	if err := r.Resize(120, 50); err != nil {
		t.Errorf("Resize(120, 50) = %v", err)
	}
	if err := r.Resize(0, 50); err == nil {
		t.Error("Resize(0, 50) = nil, want an error")
	}
	if cols, rows := r.Size(); cols != 100 || rows != 40 {
		t.Errorf("Size after the driver's Resize = %dx%d, want the recorded 100x40", cols, rows)
	}
}

func TestReplayNoExitEvent(t *testing.T) {
	r := NewReplay(&Cast{Header: Header{Width: 1, Height: 1}})
	if code, signal := r.ExitCode(); code != 0 || signal != "" {
		t.Errorf("ExitCode without an exit event = %d, %q; want 0, \"\"", code, signal)
	}
}

// step is one driver action in a key-matching script: read a chunk, or
// write keys.
type step struct {
	read     bool
	write    string
	mismatch bool // the write must fail with a *KeyMismatch
}

// R reads a chunk; W writes keys that must match; X writes keys that must not.
var R = step{read: true}

func W(s string) step { return step{write: s} }
func X(s string) step { return step{write: s, mismatch: true} }

func TestReplayKeys(t *testing.T) {
	confirm := []Event{
		{ms(100), 'o', "Run this? (y/n) "},
		{ms(500), 'i', "y\r"},
		{ms(600), 'o', "running\r\n"},
		{ms(1000), 'o', "done\r\n"},
	}
	splitKeys := []Event{
		{ms(100), 'o', "Run this? (y/n) "},
		{ms(500), 'i', "y"},
		{ms(520), 'i', "\r"},
		{ms(600), 'o', "running\r\n"},
	}
	filter := []Event{ // A person typed a filter character, then Enter.
		{ms(100), 'o', "> list"},
		{ms(300), 'i', "f"},
		{ms(400), 'o', "> filtered"},
		{ms(800), 'i', "\r"},
		{ms(900), 'o', "chosen"},
	}
	twoPrompts := []Event{
		{ms(100), 'o', "A? "},
		{ms(200), 'i', "1"},
		{ms(300), 'o', "B? "},
		{ms(400), 'i', "2"},
		{ms(500), 'o', "end"},
	}
	query := []Event{
		{ms(100), 'o', "\x1b[6n"},
		{ms(101), 'i', "\x1b[5;1R"},
		{ms(200), 'o', "ready> "},
		{ms(900), 'i', "q"},
	}
	tests := []struct {
		name    string
		events  []Event
		script  []step
		want    []KeyMismatch
		pending string
	}{
		{"exact", confirm, []step{R, W("y\r"), R, R, R}, nil, ""},
		{"split across writes", confirm, []step{R, W("y"), W("\r"), R, R, R}, nil, ""},
		{"merged recorded events", splitKeys, []step{R, W("y\r"), R, R}, nil, ""},
		{"typed early", confirm, []step{W("y\r"), R, R, R}, nil, ""},
		{"typed after peeking at the next chunk", confirm, []step{R, R, W("y\r"), R, R}, nil, ""},
		{"query reply", query, []step{R, W("\x1b[5;1R"), R, W("q"), R}, nil, ""},
		{"wrong key", confirm, []step{R, X("n\r"), R, R, R},
			[]KeyMismatch{{At: ms(500), Want: `"y\r"`, Got: `"n\r"`, Index: 0}}, ""},
		{"right prefix, wrong rest", confirm, []step{R, X("yes\r"), R},
			[]KeyMismatch{{At: ms(500), Want: `"y\r"`, Got: `"yes\r"`, Index: 0}}, ""},
		{"resynchronises after a mismatch", twoPrompts, []step{R, X("x"), R, W("2"), R},
			[]KeyMismatch{{At: ms(200), Want: `"1"`, Got: `"x"`, Index: 0}}, ""},
		{"typed more than recorded", confirm, []step{R, W("y\r"), R, X("!"), R},
			[]KeyMismatch{{At: ms(600), Want: `""`, Got: `"!"`, Index: 2}}, ""},
		{"filter character not typed", filter, []step{R, R, X("\r"), R},
			[]KeyMismatch{{At: ms(300), Want: `"f\r"`, Got: `"\r"`, Index: 0}}, ""},
		{"missing input found by ReadChunk", filter, []step{R, R, R, R},
			[]KeyMismatch{
				{At: ms(300), Want: `"f"`, Got: `""`, Index: 0},  // Before "> filtered", found reading "chosen".
				{At: ms(800), Want: `"\r"`, Got: `""`, Index: 1}, // Before "chosen", found at the end.
			}, ""},
		{"half typed", confirm, []step{R, W("y"), R, R},
			[]KeyMismatch{{At: ms(500), Want: `"\r"`, Got: `""`, Index: 1}}, ""},
		{"input after the last output stays pending", query, []step{R, W("\x1b[5;1R"), R, R}, nil, "q"},
		{"nothing typed at all", confirm, nil, nil, "y\r"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReplay(&Cast{Header: Header{Width: 80, Height: 24}, Events: tt.events})
			for i, s := range tt.script {
				if s.read {
					if _, _, err := r.ReadChunk(); err != nil && err != io.EOF {
						t.Fatalf("step %d: ReadChunk: %v", i, err)
					}
					continue
				}
				n, err := r.Write([]byte(s.write))
				if n != len(s.write) {
					t.Errorf("step %d: Write(%q) = %d, want %d", i, s.write, n, len(s.write))
				}
				var km *KeyMismatch
				if got := errors.As(err, &km); got != s.mismatch {
					t.Fatalf("step %d: Write(%q) = %v; want a mismatch: %v", i, s.write, err, s.mismatch)
				}
			}
			if got := r.Mismatches(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Mismatches\n got %+v\nwant %+v", got, tt.want)
			}
			if got := r.PendingInput(); got != tt.pending {
				t.Errorf("PendingInput = %q, want %q", got, tt.pending)
			}
		})
	}
}

func TestKeyMismatchError(t *testing.T) {
	tests := []struct {
		m    KeyMismatch
		want string
	}{
		{KeyMismatch{At: ms(500), Want: `"y\r"`, Got: `"n\r"`, Index: 3},
			`replay: the driver typed "n\r" where the recording typed "y\r" at 500ms (input byte 3)`},
		{KeyMismatch{At: ms(300), Want: `"f"`, Got: `""`, Index: 0},
			`replay: the recording typed "f" at 300ms (input byte 0) but the driver never did`},
	}
	for _, tt := range tests {
		if got := tt.m.Error(); got != tt.want {
			t.Errorf("Error() = %s\nwant %s", got, tt.want)
		}
	}
}

func TestReplayClose(t *testing.T) {
	r := NewReplay(&Cast{Header: Header{Width: 1, Height: 1}, Events: []Event{{ms(1), 'o', "a"}, {ms(2), 'i', "b"}}})
	for range 2 {
		if err := r.Close(); err != nil {
			t.Errorf("Close = %v", err)
		}
	}
	if _, _, err := r.ReadChunk(); err != io.EOF {
		t.Errorf("ReadChunk after Close = %v, want io.EOF", err)
	}
	if _, err := r.Write([]byte("b")); err == nil || !strings.Contains(err.Error(), "after Close") {
		t.Errorf("Write after Close = %v, want an error", err)
	}
}

// TestReplayConcurrent reads and writes from two goroutines, as the driver
// does; run with -race.
func TestReplayConcurrent(t *testing.T) {
	var events []Event
	for i := range 200 {
		events = append(events, Event{ms(2 * i), 'o', "x"}, Event{ms(2*i + 1), 'i', "k"})
	}
	r := NewReplay(&Cast{Header: Header{Width: 1, Height: 1}, Events: events})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for {
			if _, _, err := r.ReadChunk(); err != nil {
				return
			}
			_ = r.PendingInput()
		}
	}()
	go func() {
		defer wg.Done()
		for range 200 {
			_, _ = r.Write([]byte("k")) // Mismatches depend on timing; only races matter here.
			_ = r.Mismatches()
		}
	}()
	wg.Wait()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestReplayEquivalentAnswers: an answer that means the same as the
// driver's keys is not a mismatch; a different decision is, and the
// replay goes on from the recording.
func TestReplayEquivalentAnswers(t *testing.T) {
	yes := Equivalent{Also: [][]byte{[]byte("Y\r"), []byte("yes\r"), []byte("\r")}}
	menu := Equivalent{AnyLine: true}
	for _, c := range []struct {
		name     string
		typed    string // what the person typed
		keys     string // what the driver types
		eq       Equivalent
		mismatch bool
		consumed int
	}{
		{"same bytes", "y\r", "y\r", yes, false, 2},
		{"Enter for the default", "\r", "y\r", yes, false, 1},
		{"a whole word", "yes\r", "y\r", yes, false, 4},
		{"a different decision", "n\r", "y\r", yes, true, 2},
		{"menu: filter then Enter", "dep\r", "\r", menu, false, 4},
		{"menu: arrows then Enter", "\x1b[B\x1b[B\r", "\r", menu, false, 7},
		{"menu: Ctrl-C is a denial", "\x03", "\r", menu, true, 1},
		{"optional keys the person never typed", "y\r", "\x0f", Equivalent{Optional: true}, false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := NewReplay(&Cast{Header: Header{Version: 2, Width: 80, Height: 24}, Events: []Event{
				{ms(100), 'o', "Question? "}, {ms(500), 'i', c.typed}, {ms(600), 'o', "after\r\n"},
			}})
			if _, _, err := r.ReadChunk(); err != nil {
				t.Fatal(err)
			}
			_, err := r.WriteEquivalent([]byte(c.keys), c.eq)
			var km *KeyMismatch
			if got := errors.As(err, &km); got != c.mismatch {
				t.Errorf("mismatch = %v (%v), want %v", got, err, c.mismatch)
			}
			if got := len(c.typed) - len(r.PendingInput()); got != c.consumed {
				t.Errorf("consumed %d bytes of %q, want %d", got, c.typed, c.consumed)
			}
			if _, _, err := r.ReadChunk(); err != nil {
				t.Errorf("the replay does not go on: %v", err)
			}
		})
	}
}

// TestReplayPlayTo: the screen a person saw before each pending key is the
// output recorded before it, each output with how many pending keys came
// before it.
func TestReplayPlayTo(t *testing.T) {
	c := &Cast{Header: Header{Version: 2, Width: 80, Height: 24}, Events: []Event{
		{Time: 1, Code: CodeOutput, Data: "a"},
		{Time: 2, Code: CodeInput, Data: "x"},
		{Time: 3, Code: CodeOutput, Data: "b"},
		{Time: 4, Code: CodeResize, Data: "100x30"},
		{Time: 5, Code: CodeInput, Data: "y"},
		{Time: 6, Code: CodeOutput, Data: "c"},
	}}
	play := func(r *Replay, to int) string {
		var b strings.Builder
		r.PlayTo(to, func(out []byte, typed int) { fmt.Fprintf(&b, "%s%d ", out, typed) }, func(cols, rows int) { fmt.Fprintf(&b, "[%dx%d] ", cols, rows) })
		return b.String()
	}
	r := NewReplay(c)
	for _, tt := range []struct {
		to   int
		want string
	}{
		{0, "[80x24] a0 "},
		{1, "[80x24] a0 b1 [100x30] "},
		{2, "[80x24] a0 b1 [100x30] c2 "},
		{99, "[80x24] a0 b1 [100x30] c2 "},
	} {
		if got := play(r, tt.to); got != tt.want {
			t.Errorf("PlayTo(%d) before any key = %q, want %q", tt.to, got, tt.want)
		}
	}
	if _, err := r.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if got, want := play(r, 0), "[80x24] a0 b0 [100x30] "; got != want {
		t.Errorf("PlayTo(0) after x = %q, want %q", got, want)
	}
	if got, want := play(r, 1), "[80x24] a0 b0 [100x30] c1 "; got != want {
		t.Errorf("PlayTo(1) after x = %q, want %q", got, want)
	}
}
