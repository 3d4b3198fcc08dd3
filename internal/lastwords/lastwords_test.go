package lastwords

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// usage is a yargs usage of n option lines.
func usage(n int) string {
	var b strings.Builder
	b.WriteString("Usage: gemini [options] [command]\n\nOptions:\n")
	for i := range n {
		fmt.Fprintf(&b, "      --opt-%02d   an option  [boolean]\n", i)
	}
	return b.String()
}

// TestTextSaysWhy: the error names the status, quotes the complaint (a
// colour, a usage after it, a line cut short), says what to do, and says
// the login note only where the words leave room for it.
func TestTextSaysWhy(t *testing.T) {
	const note = "Before x can work: no credentials found; to log in, run `x login`."
	cases := []struct {
		name   string
		out    string
		note   string
		want   []string
		not    []string
		lines  int // quoted lines at most
		reject bool
	}{
		{"commander", "error: unknown option '--foo'\n", note,
			[]string{"x exited with status 2", "    error: unknown option '--foo'\n", "rejected its command line", "`yume-cli doctor`"}, []string{"credentials"}, 1, true},
		{"clap, coloured", "\x1b[1;31merror:\x1b[0m unexpected argument '\x1b[33m--foo\x1b[0m' found\n\n  tip: to pass '--foo' as a value, use '-- --foo'\n\nUsage: codex [OPTIONS] [PROMPT]\n\nFor more information, try '--help'.\n", "",
			[]string{"error: unexpected argument '--foo' found", "Usage: codex [OPTIONS] [PROMPT]", "rejected its command line"}, []string{"\x1b"}, 4, true},
		{"yargs: the complaint above its usage", "Unknown arguments: foo, foo\n" + usage(50), note,
			[]string{"    Unknown arguments: foo, foo\n    …\n", "--opt-49", "rejected its command line"}, []string{"--opt-30", "credentials"}, 10, true},
		{"a usage alone (opencode)", usage(20), "",
			[]string{"--opt-19", "rejected its command line"}, nil, 10, true},
		{"a login", "Please set an Auth method in your settings.json or set GEMINI_API_KEY\n", note,
			[]string{"Please set an Auth method", note}, []string{"rejected"}, 1, false},
		{"a login, nothing known of it", "Error: Not logged in\n", "",
			[]string{"Not logged in", "Log in to x"}, nil, 1, false},
		{"a crash", "TypeError: cannot read properties of undefined\n    at main (cli.js:1:2)\n", note,
			[]string{"TypeError", "Run the same command in a terminal"}, []string{"credentials", "rejected"}, 2, false},
		{"nothing", "", note, []string{"x exited with status 2 and printed nothing. " + note}, nil, 0, false},
		{"nothing, nothing known", "", "", []string{"printed nothing. Run the same command in a terminal"}, nil, 0, false},
		{"a line cut short", "error: " + strings.Repeat("é", 300) + "\n", "", []string{"…"}, nil, 1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tail := NewTail()
			w := tail.Writer()
			for _, b := range []byte(c.out) { // a byte at a time: lines cut across writes
				_, _ = w.Write([]byte{b})
			}
			lines := tail.Lines()
			if got := Rejected(lines); got != c.reject {
				t.Errorf("Rejected(%q) = %v, want %v", lines, got, c.reject)
			}
			if n := len(Pick(lines)); n > c.lines || n > Quoted {
				t.Errorf("quotes %d lines, want at most %d: %q", n, c.lines, Pick(lines))
			}
			text := Failure{Program: "x", Ended: "exited with status 2", Where: tail.Where(), Lines: lines}.Text(c.note)
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("text lacks %q:\n%s", w, text)
				}
			}
			for _, n := range c.not {
				if strings.Contains(text, n) {
					t.Errorf("text says %q:\n%s", n, text)
				}
			}
			for _, l := range strings.Split(text, "\n") {
				if len(l) > MaxLine+len("    …") {
					t.Errorf("a line of %d bytes: %q", len(l), l)
				}
			}
		})
	}
}

// TestTailStreams: stdout's JSON lines are the protocol, not words; an
// unfinished last line counts; only the last Kept lines are kept; a
// carriage return's overwritten text is gone; the lines say where.
func TestTailStreams(t *testing.T) {
	tail := NewTail()
	in := `{"type":"init"}` + "\n" + `[1,2]` + "\nUsage: x [options]\n" + `{"type":"` + strings.Repeat("a", 1000) + "\"}\n"
	if _, err := io.Copy(io.Discard, tail.Reader(strings.NewReader(in))); err != nil {
		t.Fatal(err)
	}
	w := tail.Writer()
	fmt.Fprint(w, "progress 10%\rerror: it broke\n\n   \nno newline")
	got := tail.Lines()
	want := []string{"Usage: x [options]", "error: it broke", "no newline"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Lines = %q, want %q", got, want)
	}
	if w := tail.Where(); w != "on stdout and stderr" {
		t.Errorf("Where = %q", w)
	}
	for i := range Kept + 20 {
		fmt.Fprintf(w, "line %d\n", i)
	}
	got = tail.Lines()
	if len(got) != Kept || got[len(got)-1] != fmt.Sprintf("line %d", Kept+19) {
		t.Errorf("kept %d lines, the last %q", len(got), got[len(got)-1])
	}
	if NewTail().Where() != "" {
		t.Error("an empty tail says where")
	}
}
