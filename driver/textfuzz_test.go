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
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/internal/leakcheck"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/ptyhost"
	"golang.org/x/term"
)

// TestTypedTextFuzz: hostile and careless text from the GUI and the flags
// (every byte value, paste markers, CSI and OSC fragments, CR, CR LF,
// Ctrl-C, Esc, long lines, bytes that are not UTF-8, emoji and CJK) is
// typed into a raw-mode child that logs every byte it reads. Each session
// types three texts through the real driver in a real PTY: a user frame
// (at the ready screen), the --prompt (an input rule's <Prompt>) and the
// feedback of a revision (the next input rule's <Prompt>), each with
// bracketed paste on or off as the child says, and one of the newline
// modes; the GUI answers two questions. The child must read exactly the
// texts as the typing contract says (computed here, independently of
// heuristics.TypeText) and exactly the profile's answer keys.
//
// YUME_FUZZ_SEED sets the seed (it is logged), YUME_FUZZ_N the number of
// sessions; a failure names the session's seed.
func TestTypedTextFuzz(t *testing.T) {
	leakcheck.Check(t)
	seed := time.Now().UnixNano()
	if s := os.Getenv("YUME_FUZZ_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatalf("YUME_FUZZ_SEED=%q: %v", s, err)
		}
	}
	n := 64
	if testing.Short() {
		n = 12
	}
	if s := os.Getenv("YUME_FUZZ_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	t.Logf("seed %d (YUME_FUZZ_SEED=%d to repeat), %d sessions", seed, seed, n)
	dir := t.TempDir()
	start := time.Now()
	var wg sync.WaitGroup
	work := make(chan int)
	for range min(4, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				fuzzSession(t, dir, i, seed+int64(i))
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	t.Logf("%d sessions in %v", n, time.Since(start).Round(time.Millisecond))
}

// fuzzCase is one session: its texts, paste modes, newline and answer.
type fuzzCase struct {
	user, prompt, feedback string
	paste                  [3]bool
	newline                string // the profile's newline:
	approve                bool
}

func newFuzzCase(rng *rand.Rand) fuzzCase {
	c := fuzzCase{
		user:     fuzzText(rng, true),
		prompt:   fuzzText(rng, false),
		feedback: fuzzText(rng, true),
		newline:  []string{"space", "key:<C-j>", "backslash-enter"}[rng.Intn(3)],
		approve:  rng.Intn(2) == 0,
	}
	for i := range c.paste {
		c.paste[i] = rng.Intn(2) == 0
	}
	return c
}

// fuzzPieces are what hostile and careless texts are made of.
var fuzzPieces = []string{
	heuristics.PasteStart, heuristics.PasteEnd, "\x1b[200", "\x1b[20", "\x1b[", "\x1b",
	"\x1b[31m", "\x1b[2J", "\x1b[A", "\x1b[?2004l", "\x1bOA", "\x9b", "\x1b]0;title\x07", "\x1b]52;c;aGk=\x1b\\", "\x1bP+q\x1b\\",
	"\r", "\r\n", "\n", "\n\n", "\t", "\x03", "\x04", "\x1a", "\x7f", "\x08", "\x00", "\u0085", "\u009b",
	"\xff", "\xc3", "\xed\xa0\x80", "\xf0\x9f", "🙂", "👩‍💻", "日本語", "é", "e\u0301", "\u00a0",
	`\`, `\\`, "y", "n", "r", "-p", "--yolo", "{model}", "hello world", " ", "/help", "!ls",
}

// fuzzText makes a text; nonEmpty for a frame that must carry one.
func fuzzText(rng *rand.Rand, nonEmpty bool) string {
	var b strings.Builder
	for range rng.Intn(12) {
		switch rng.Intn(10) {
		case 0: // random bytes, every value possible
			for range 1 + rng.Intn(24) {
				b.WriteByte(byte(rng.Intn(256)))
			}
		case 1: // a long line, sometimes very long
			n := 1 + rng.Intn(200)
			if rng.Intn(8) == 0 {
				n = 1 + rng.Intn(64<<10)
			}
			b.WriteString(strings.Repeat(string(rune('a'+rng.Intn(26))), n))
		default:
			b.WriteString(fuzzPieces[rng.Intn(len(fuzzPieces))])
		}
	}
	if nonEmpty && b.Len() == 0 {
		b.WriteString("x")
	}
	return b.String()
}

// markerRE finds the paste markers a text carries: left to right, each
// once (what a removal puts together is not looked at again).
var markerRE = regexp.MustCompile(`\x1b\[20[01]~`)

// expectTyped is the typing contract, written out independently of
// heuristics.TypeText: the keys that type text, and how many control
// characters and markers were removed and line breaks joined.
func expectTyped(text string, paste bool, newline string) (keys string, removed, joined int) {
	removed = len(markerRE.FindAllStringIndex(text, -1))
	runes := []rune(markerRE.ReplaceAllString(text, "")) // a byte that is not UTF-8 is U+FFFD
	var b strings.Builder
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		if r == '\r' && i+1 < len(runes) && runes[i+1] == '\n' {
			i++
		}
		switch {
		case r == '\r' || r == '\n':
			switch {
			case paste:
				b.WriteString("\n")
			case newline == "key:<C-j>":
				b.WriteString("\x0a")
			case newline == "backslash-enter":
				b.WriteString("\\\r")
			default:
				b.WriteString(" ")
				joined++
			}
		case r == '\t' && paste:
			b.WriteString("\t")
		case r == '\t':
			b.WriteString(" ")
		case unicode.IsControl(r):
			removed++
		default:
			b.WriteRune(r)
		}
	}
	s := b.String()
	if s == "" {
		return "", removed, joined
	}
	if newline == "backslash-enter" && strings.HasSuffix(s, `\`) {
		s += " "
	}
	if paste {
		s = heuristics.PasteStart + s + heuristics.PasteEnd
	}
	return s, removed, joined
}

// FuzzTypeTextContract holds heuristics.TypeText to the contract as
// expectTyped writes it out, byte for byte, for any text.
func FuzzTypeTextContract(f *testing.F) {
	for _, s := range fuzzPieces {
		f.Add(s, true, uint8(0))
		f.Add("a"+s+"b\r"+s+"\n", false, uint8(2))
	}
	f.Add("\r\x1b[200~\n", false, uint8(0))
	f.Fuzz(func(t *testing.T, text string, paste bool, mode uint8) {
		newline := []string{"space", "key:<C-j>", "backslash-enter"}[int(mode)%3]
		nl, err := heuristics.ParseNewline(newline)
		if err != nil {
			t.Fatal(err)
		}
		got := heuristics.TypeText(text, paste, nl)
		keys, removed, joined := expectTyped(text, paste, newline)
		if string(got.Keys) != keys || got.Removed != removed || got.Joined != joined {
			t.Fatalf("TypeText(%q, %v, %s) = %q removed %d joined %d; the contract says %q removed %d joined %d",
				text, paste, newline, got.Keys, got.Removed, got.Joined, keys, removed, joined)
		}
	})
}

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

// textLog is the child of TestTypedTextFuzz: in raw mode, it logs every
// byte it reads to the file args[0] and walks through its screens: a
// ready prompt, two input prompts and two questions. args[1] says, per
// text, whether it turns bracketed paste on ("1") or off ("0"); args[2]
// "1" means its input box reads '\' Enter as a line break (as Claude
// Code does), so an Enter after a '\' does not submit.
func textLog(args []string) int {
	fd := int(os.Stdin.Fd())
	old, err := term.MakeRaw(fd)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer term.Restore(fd, old) //nolint:errcheck // Best effort: the terminal goes away with the test.
	log, err := os.Create(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer log.Close()
	in := &loggedInput{log: log, bs: args[2] == "1"}
	screen := func(paste byte, text string) {
		mode := "\x1b[?2004l"
		if paste == '1' {
			mode = "\x1b[?2004h"
		}
		fmt.Print(mode + "\x1b[2J\x1b[H" + text)
	}
	screen(args[1][0], "READY> ")
	if !in.text() {
		return 1
	}
	screen(args[1][1], "INPUT-1> ")
	if !in.text() {
		return 1
	}
	screen('0', "Run cmd-1? [y/n/r] ")
	if in.answer() != 'r' {
		return 1
	}
	screen(args[1][2], "INPUT-2> ")
	if !in.text() {
		return 1
	}
	screen('0', "Run cmd-2? [y/n/r] ")
	if a := in.answer(); a != 'y' && a != 'n' {
		return 1
	}
	screen('0', "bye\r\n")
	// The turn's done rule reads "bye" and types the quit key (Ctrl-D):
	// anything typed after the last answer comes before it, and is logged.
	for !bytes.ContainsRune(in.buf, 0x04) {
		if !in.more() {
			return 1
		}
	}
	return 0
}

// loggedInput reads the terminal, logging every byte.
type loggedInput struct {
	log  *os.File
	bs   bool
	buf  []byte // read, not yet taken
	last byte   // the last text byte taken (for '\' Enter)
}

func (in *loggedInput) more() bool {
	b := make([]byte, 4096)
	n, err := os.Stdin.Read(b)
	if n > 0 {
		in.log.Write(b[:n]) //nolint:errcheck // A failed log shows as a mismatch.
		in.buf = append(in.buf, b[:n]...)
	}
	return err == nil || n > 0
}

// text takes one typed text up to the Enter that submits it: an Enter
// outside a bracketed paste, and not right after a '\' when '\' Enter is
// a line break.
func (in *loggedInput) text() bool {
	paste := false
	in.last = 0
	for i := 0; ; {
		// ESC comes only as a paste marker: wait for all of it.
		for i >= len(in.buf) || in.buf[i] == 0x1b && len(in.buf)-i < len(heuristics.PasteStart) {
			if !in.more() {
				return false
			}
			fmt.Print("·") // drawn, as an input box draws what is typed
		}
		rest := in.buf[i:]
		switch {
		case bytes.HasPrefix(rest, []byte(heuristics.PasteStart)):
			paste, i = true, i+len(heuristics.PasteStart)
		case bytes.HasPrefix(rest, []byte(heuristics.PasteEnd)):
			paste, i = false, i+len(heuristics.PasteEnd)
		case in.buf[i] == '\r' && !paste && !(in.bs && in.last == '\\'):
			in.buf = in.buf[i+1:]
			return true
		default:
			in.last = in.buf[i]
			i++
		}
	}
}

// answer takes one answer key and its Enter.
func (in *loggedInput) answer() byte {
	for len(in.buf) < 2 {
		if !in.more() {
			return 0
		}
	}
	a := in.buf[0]
	if in.buf[1] != '\r' {
		return 0
	}
	in.buf = in.buf[2:]
	return a
}
