package replay_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/replay"
)

// personUnfolds is a recording of a person at a TUI that folds a
// command's output ("● Ran 1 shell command") and draws it in another
// view that Ctrl-O toggles: they type a prompt, approve the command, and
// once the answer is on screen press Ctrl-O, look, press it again, and
// leave with Ctrl-C. lookFirst: they press Ctrl-O at the question too,
// before answering it.
func personUnfolds(lookFirst bool) *recordings.Cast {
	c := &recordings.Cast{Header: recordings.Header{Version: 2, Width: 80, Height: 24, Command: "box"}}
	at := 100 * time.Millisecond
	add := func(code byte, data string) {
		c.Events = append(c.Events, recordings.Event{Time: at, Code: code, Data: data})
		at += 50 * time.Millisecond
	}
	add(recordings.CodeOutput, "READY> ")
	for _, r := range "list the files" {
		add(recordings.CodeInput, string(r))
		add(recordings.CodeOutput, string(r))
	}
	add(recordings.CodeInput, "\r")
	add(recordings.CodeOutput, "\r\nRun ls? (y/n) ")
	at += time.Second
	if lookFirst {
		add(recordings.CodeInput, "\x0f")
	}
	add(recordings.CodeInput, "y\r")
	const main = "\x1b[H\x1b[2J● Ran 1 shell command\r\n● Those are the files.\r\nREADY> "
	add(recordings.CodeOutput, "y\r\n")
	add(recordings.CodeOutput, main)
	at += 2 * time.Second
	add(recordings.CodeInput, "\x0f")
	add(recordings.CodeOutput, "\x1b[H\x1b[2J● Bash(ls)\r\n  ⎿  file1\r\n     file2\r\n● Those are the files.\r\n(transcript: ctrl+o to toggle)")
	at += time.Second
	add(recordings.CodeInput, "\x0f")
	add(recordings.CodeOutput, main)
	at += time.Second
	add(recordings.CodeInput, "\x03")
	add(recordings.CodeExit, "0")
	return c
}

// unfoldProfile is a profile for personUnfolds' program, named name.
func unfoldProfile(t *testing.T, viewKeys string) *heuristics.Profile {
	t.Helper()
	prof, err := heuristics.ParseProfile("box.yaml", []byte(`name: box
description: a TUI that folds a command's output
ready: '(?m)^READY>'
quit: '<C-c>'
`+viewKeys+`
rules:
  - name: run
    match: '(?m)^(?P<prompt>Run (?P<command>.+)\? \(y/n\)) *$'
    kind: confirm
    approve: 'y<Enter>'
    deny: 'n<Enter>'
  - name: output
    match: '(?m)^● Bash\(.*\n(?P<output>(?:  .*\n)+)'
    kind: result
  - name: done
    match: '(?m)^● (?P<text>Those are the files\.)\nREADY> *$'
    kind: done
`))
	if err != nil {
		t.Fatal(err)
	}
	return prof
}

// TestReplayViewKeysArePersonsOwn: in a replay of the person's session
// with a profile whose view_keys say Ctrl-O only changes the view, the turn does
// not end at the answer while the person's Ctrl-O is still to come; the
// Ctrl-O is the person's own (no difference), and the output it unfolds
// is the tool_result, reported before the answer's text as live. With a
// profile that knows no such key, the same Ctrl-O is a difference.
func TestReplayViewKeysArePersonsOwn(t *testing.T) {
	for _, lookFirst := range []bool{false, true} {
		var out bytes.Buffer
		r := replay.Run(context.Background(), personUnfolds(lookFirst), replay.Options{Profile: unfoldProfile(t, "view_keys: ['<C-o>']"), Out: emit.NewWriter(&out, emit.Config{}), AsRecorded: true})
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		for _, m := range r.Mismatches {
			t.Errorf("Ctrl-O at the question %v: keys differ: %v", lookFirst, &m)
		}
		if r.Pending != "" {
			t.Errorf("Ctrl-O at the question %v: recorded input %q was never typed", lookFirst, r.Pending)
		}
		s := out.String()
		result, text := strings.Index(s, `"content":"file1\nfile2"`), strings.Index(s, `"text":"Those are the files."`)
		if !strings.Contains(s, `"command":"ls"`) || result < 0 || text < 0 || result > text {
			t.Errorf("Ctrl-O at the question %v: want the tool_use, the unfolded output as its tool_result, then the answer's text:\n%s", lookFirst, s)
		}
	}

	var out bytes.Buffer
	r := replay.Run(context.Background(), personUnfolds(false), replay.Options{Profile: unfoldProfile(t, ""), Out: emit.NewWriter(&out, emit.Config{}), AsRecorded: true})
	if len(r.Mismatches) == 0 {
		t.Errorf("a profile without view keys: the person's Ctrl-O is no difference:\n%s", out.String())
	}
}
