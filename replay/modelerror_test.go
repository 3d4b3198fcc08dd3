package replay_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/replay"
)

// TestModelErrorToldSoonUnderASpinner: a program that retries a failed
// model request under a spinner never lets its screen settle; the GUI is
// told of the error it draws within 300 ms of the drawing on the
// recording's clock (the screen is read for errors every quarter second
// while it changes; a second's poll told it up to a second late), and
// told once, however long the spinner turns.
func TestModelErrorToldSoonUnderASpinner(t *testing.T) {
	prof, err := heuristics.ParseProfile("spin.yaml", []byte(`name: spin
description: a TUI that retries its model under a spinner
ready: '(?m)^READY>'
quiet_ms: 100
quit: '<C-c>'
rules: []
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, errAt := range []time.Duration{1230 * time.Millisecond, 1470 * time.Millisecond, 1910 * time.Millisecond} {
		t.Run(errAt.String(), func(t *testing.T) {
			c := &recordings.Cast{Header: recordings.Header{Version: 2, Width: 80, Height: 24, Command: "spin"}}
			add := func(at time.Duration, code byte, data string) {
				c.Events = append(c.Events, recordings.Event{Time: at, Code: code, Data: data})
			}
			add(100*time.Millisecond, recordings.CodeOutput, "READY> ")
			add(200*time.Millisecond, recordings.CodeInput, "say hello\r")
			for at, i := 300*time.Millisecond, 0; at < errAt+3*time.Second; at, i = at+40*time.Millisecond, i+1 {
				frame := fmt.Sprintf("\x1b[H\x1b[2J> say hello\r\n\r\n* Working %d (esc to interrupt)\r\n", i)
				if at >= errAt {
					frame += "  API Error: 500 Internal Server Error · Retrying in 1s (attempt 1/10)\r\n"
				}
				add(at, recordings.CodeOutput, frame)
			}
			add(errAt+3100*time.Millisecond, recordings.CodeOutput, "\x1b[H\x1b[2J> say hello\r\n\r\n● API Error: 500 Internal Server Error\r\n\r\nREADY> ")
			add(errAt+9*time.Second, recordings.CodeInput, "\x03")
			add(errAt+9100*time.Millisecond, recordings.CodeExit, "0")
			var out, trace bytes.Buffer
			r := replay.Run(context.Background(), c, replay.Options{Profile: prof, Out: emit.NewWriter(&out, emit.Config{}), AsRecorded: true, Trace: &trace})
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			told := strings.Count(out.String(), "Retrying in 1s (attempt 1/10)")
			at := traceAt(trace.Bytes(), "model error (screen)")
			switch {
			case told != 1:
				t.Errorf("told %d times, want once:\n%s", told, out.String())
			case at < errAt || at > errAt+300*time.Millisecond:
				t.Errorf("read at %v, drawn at %v: want within 300ms\ntrace:\n%s", at, errAt, trace.String())
			}
		})
	}
}

// traceAt is when a trace's first state line began with detail; -1: none.
func traceAt(trace []byte, detail string) time.Duration {
	sc := bufio.NewScanner(bytes.NewReader(trace))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e struct {
			T      float64 `json:"t_ms"`
			Detail string  `json:"detail"`
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil && strings.HasPrefix(e.Detail, detail) {
			return time.Duration(e.T * float64(time.Millisecond))
		}
	}
	return -1
}
