//go:build unix

package driver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/ptyhost"
)

const fuzzProfile = `name: textfuzz
quiet_ms: 10
ready: '(?m)^READY>$'
newline: %s
quit: '<C-d>'
rules:
  - name: bye
    match: '(?m)^bye$'
    kind: done
  - name: input
    match: '(?m)^INPUT-\d>$'
    kind: input
    approve: '<Prompt><Enter>'
  - name: run
    match: '(?m)^(?P<prompt>Run (?P<command>cmd-\d)\? \[y/n/r\])$'
    kind: confirm
    approve: 'y<Enter>'
    deny: 'n<Enter>'
    revise: 'r<Enter>'
`

// fuzzSession drives one session and checks what the child read.
func fuzzSession(t *testing.T, dir string, i int, seed int64) {
	c := newFuzzCase(rand.New(rand.NewSource(seed)))
	fail := func(format string, args ...any) {
		t.Errorf("session %d (seed %d, newline %s, paste %v): %s", i, seed, c.newline, c.paste, fmt.Sprintf(format, args...))
	}
	prof, err := heuristics.ParseProfile("textfuzz.yaml", fmt.Appendf(nil, fuzzProfile, c.newline))
	if err != nil {
		fail("%v", err)
		return
	}
	logPath := filepath.Join(dir, fmt.Sprintf("keys-%d.log", i))
	modes := ""
	for _, p := range c.paste {
		modes += map[bool]string{true: "1", false: "0"}[p]
	}
	bs := map[bool]string{true: "1", false: "0"}[c.newline == "backslash-enter"]
	opts := helper("textlog", logPath, modes, bs)
	opts.Cols, opts.Rows = 80, 24
	// A -race child would sleep a second at exit, waiting for reports.
	opts.Env = append(opts.Env, "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	proc, err := ptyhost.Start(opts)
	if err != nil {
		fail("%v", err)
		return
	}
	defer proc.Close()

	out := &sink{decide: func(int, toolUse) bool { return c.approve }, revise: map[int]string{1: c.feedback}, controls: make(chan emit.Control, 16)}
	out.controls <- emit.Control{Kind: emit.ControlUser, Text: c.user}
	var notesMu sync.Mutex
	var notes []string
	var trace bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	w := emit.NewWriter(out, emit.Config{Model: "test"})
	_ = w.Init(string(permission.Default), []string{"Bash"})
	outcome, err := driver.Drive(ctx, driver.Config{
		Term: proc, Profile: prof, Out: w, Controls: out.controls, Mode: permission.Default,
		Prompt: c.prompt, CommandLine: "textlog", Cols: 80, Rows: 24, Trace: &trace,
		OnNote: func(m string) { notesMu.Lock(); notes = append(notes, m); notesMu.Unlock() },
	})
	logged, _ := os.ReadFile(logPath)
	report := func() string {
		return fmt.Sprintf("texts %q %q %q\nread %q\ntrace:\n%s", c.user, c.prompt, c.feedback, cut(string(logged)), cut(trace.String()))
	}
	if ctx.Err() != nil || err != nil || !outcome.Exit.Success() {
		fail("session did not end cleanly: ctx %v, err %v, exit %v\n%s", ctx.Err(), err, outcome.Exit, report())
		return
	}

	var want strings.Builder
	var wantNotes, wantJoins int
	for j, text := range []string{c.user, c.prompt, c.feedback} {
		keys, removed, joined := expectTyped(text, c.paste[j], c.newline)
		want.WriteString(keys + "\r")
		if removed > 0 {
			wantNotes++
		}
		if joined > 0 {
			wantJoins++
		}
		if j == 1 {
			want.WriteString("r\r") // the revision's keys, between the prompt and the feedback
		}
	}
	want.WriteString(map[bool]string{true: "y\r", false: "n\r"}[c.approve])
	want.WriteString("\x04") // the quit key, once the turn is done
	// The quit key may come more than once: it is typed again on each
	// settled screen while the program lingers, and the child may read
	// several in one go.
	if got := trimQuits(string(logged)); got != want.String() {
		at := 0
		for at < min(len(got), want.Len()) && got[at] == want.String()[at] {
			at++
		}
		fail("the child read other bytes than the texts and the answers (first difference at byte %d: read %q, want %q)\n%s",
			at, cut(got[at:]), cut(want.String()[at:]), report())
	}
	// An answer's keys go one write each (keying.go): "r", then Enter.
	answers := []string{}
	for _, line := range bytes.Split(trace.Bytes(), []byte("\n")) {
		var tl struct{ Event, Why, Keys string }
		if json.Unmarshal(line, &tl) == nil && tl.Event == "keys" && (tl.Why == "approve" || tl.Why == "deny" || tl.Why == "revise") {
			answers = append(answers, tl.Why+" "+strconv.Quote(tl.Keys))
		}
	}
	out.mu.Lock()
	stream := out.buf.String()
	out.mu.Unlock()
	wantAnswers := []string{`revise "r"`, `revise "\r"`, map[bool]string{true: `approve "y"`, false: `deny "n"`}[c.approve],
		map[bool]string{true: `approve "\r"`, false: `deny "\r"`}[c.approve]}
	if strings.Join(answers, ",") != strings.Join(wantAnswers, ",") {
		fail("answer keys %q, want %q", answers, wantAnswers)
	}
	notesMu.Lock()
	defer notesMu.Unlock()
	if len(notes) != wantNotes {
		fail("%d notes of removed control characters (%q), want one per text that had some: %d", len(notes), notes, wantNotes)
	}
	if got := strings.Count(stream, "line break(s) were typed as spaces"); got != wantJoins {
		fail("%d notices of joined lines, want %d\n%s", got, wantJoins, report())
	}
}

// trimQuits keeps one of the quit keys that end what the child read.
func trimQuits(s string) string {
	if t := strings.TrimRight(s, "\x04"); len(t) < len(s) {
		return t + "\x04"
	}
	return s
}

// cut shortens a long text for a message.
func cut(s string) string {
	if len(s) > 600 {
		return s[:300] + fmt.Sprintf("…(%d bytes)…", len(s)-600) + s[len(s)-300:]
	}
	return s
}
