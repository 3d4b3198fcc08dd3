package driver

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/vt"
)

// typingDriver is a driver that can type: its stdout, trace and notes.
func typingDriver(p *heuristics.Profile) (d *driver, out, trace *bytes.Buffer, notes *[]string) {
	out, trace, notes = &bytes.Buffer{}, &bytes.Buffer{}, &[]string{}
	d = &driver{cfg: Config{Profile: p, OnNote: func(m string) { *notes = append(*notes, m) }},
		screen: vt.NewScreen(40, 5), out: emit.NewWriter(out, emit.Config{}), clock: &virtualClock{}, t: newTurn("")}
	d.tr = newTracer(trace, d)
	return d, out, trace, notes
}

// TestPasteText: a typed prompt is text only; its line breaks survive only
// inside a bracketed paste, or as the profile's newline says.
func TestPasteText(t *testing.T) {
	cj := heuristics.MustParseKeys("<C-j>")
	for _, c := range []struct {
		text      string
		bracketed bool
		newline   *heuristics.Newline
		want      string
	}{
		{"fix it", false, nil, "fix it"},
		{"one\ntwo\r\nthree", false, nil, "one two three"},
		{"one\ntwo\r\nthree", false, &heuristics.Newline{Mode: heuristics.NewlineKey, Key: cj}, "one\ntwo\nthree"},
		{"one\ntwo\r\nthree", false, &heuristics.Newline{Mode: heuristics.NewlineBackslashEnter}, "one\\\rtwo\\\rthree"},
		{"one\ntwo\r\nthree\rfour", true, nil, "\x1b[200~one\ntwo\nthree\nfour\x1b[201~"},
		{"end\x1b[201~then\x03 keys", true, nil, "\x1b[200~endthen keys\x1b[201~"},
		{"日本語 🙂", true, nil, "\x1b[200~日本語 🙂\x1b[201~"},
	} {
		d, _, _, _ := typingDriver(&heuristics.Profile{Name: "p", Newline: c.newline})
		if c.bracketed {
			d.screen.Write([]byte("\x1b[?2004h"))
		}
		if got := string(d.typeText("user prompt", c.text)); got != c.want {
			t.Errorf("typeText(%q) with paste %v, newline %v = %q, want %q", c.text, c.bracketed, c.newline, got, c.want)
		}
	}
}

// TestTypeTextReports: the driver's typing says what it changed: removed
// control characters to OnNote (stderr with --verbose), once per text;
// lines joined with spaces in a notice to the GUI; both in the trace.
func TestTypeTextReports(t *testing.T) {
	d, out, trace, notes := typingDriver(&heuristics.Profile{Name: "p"})
	if b := d.typeText("user prompt", "plain text"); string(b) != "plain text" || len(*notes) != 0 || out.Len() != 0 || trace.Len() != 0 {
		t.Errorf("plain text: %q, notes %q, stdout %q, trace %q", b, *notes, out.String(), trace.String())
	}
	if b := d.typeText("user prompt", "a\x03b\x1b[201~c\nd"); string(b) != "abc d" {
		t.Errorf("typed %q", b)
	}
	if len(*notes) != 1 || !strings.Contains((*notes)[0], "removed 2 control character(s) or paste marker(s) from the user prompt") {
		t.Errorf("notes = %q; want one naming 2 removed", *notes)
	}
	if !strings.Contains(out.String(), `"subtype":"notice"`) || !strings.Contains(out.String(), "1 line break(s) were typed as spaces") {
		t.Errorf("stdout %q: want a notice of the joined line", out.String())
	}
	if !strings.Contains(trace.String(), "2 control character(s) or paste marker(s) removed; 1 line break(s) typed as spaces") {
		t.Errorf("trace %q", trace.String())
	}

	// With paste on, line breaks are text: nothing to report; the input
	// rule's keys carry the same typing.
	out.Reset()
	d.screen.Write([]byte("\x1b[?2004h"))
	k := d.promptKeys(heuristics.MustParseKeys("<Prompt><Enter>"), "x\ny")
	if b, _ := k.Encode(nil); string(b) != "\x1b[200~x\ny\x1b[201~\r" || out.Len() != 0 {
		t.Errorf("promptKeys typed %q, stdout %q", b, out.String())
	}
	if k := d.promptKeys(heuristics.MustParseKeys("y<Enter>"), "ignored"); k.String() != "y<Enter>" {
		t.Errorf("keys without <Prompt> changed: %s", k)
	}
}

// FuzzPasteText checks what the typing function may type, whatever the
// text: no key but the paste markers around a paste, the newline's keys
// and the text's own characters; valid UTF-8; and typing what it typed
// types the same again.
func FuzzPasteText(f *testing.F) {
	for _, s := range []string{"", "fix it", "a\r\nb\rc\n", "\x1b[200~x\x1b[201~", "\x1b[20\x1b[201~0~", "\x03\x1b\x7f\u0085\u009b",
		"\xff\xfe\xc0\x80", "\x1b]0;t\x07\x1b[2J", "日本語 🙂\t", `ends in \`, "\\\n"} {
		for mode := range 4 {
			f.Add(s, mode&1 == 1, uint8(mode))
		}
	}
	cj := heuristics.MustParseKeys("<C-j>")
	f.Fuzz(func(t *testing.T, text string, bracketed bool, mode uint8) {
		nl := []heuristics.Newline{{}, {Mode: heuristics.NewlineKey, Key: cj}, {Mode: heuristics.NewlineBackslashEnter}}[int(mode)%3]
		ty := heuristics.TypeText(text, bracketed, nl)
		out := string(ty.Keys)
		if !utf8.ValidString(out) {
			t.Fatalf("not UTF-8: %q", out)
		}
		inner := out
		if bracketed && out != "" {
			var ok bool
			if inner, ok = strings.CutPrefix(out, heuristics.PasteStart); ok {
				inner, ok = strings.CutSuffix(inner, heuristics.PasteEnd)
			}
			if !ok || inner == "" {
				t.Fatalf("a paste is not one marked text: %q", out)
			}
		}
		for i, r := range inner {
			switch {
			case r == 0x1b:
				t.Fatalf("ESC at %d of %q", i, out)
			case r == '\n' && (bracketed || nl.Mode == heuristics.NewlineKey):
			case r == '\t' && bracketed:
			case r == '\r' && !bracketed && nl.Mode == heuristics.NewlineBackslashEnter && i > 0 && inner[i-1] == '\\':
			case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
				t.Fatalf("control character %U at %d of %q", r, i, out)
			}
		}
		if nl.Mode == heuristics.NewlineBackslashEnter && strings.HasSuffix(inner, `\`) {
			t.Fatalf("ends in '\\', so the Enter after it would not submit: %q", out)
		}
		if !bracketed && nl.Mode == heuristics.NewlineSpace && ty.Joined != strings.Count(text, "\n")+strings.Count(text, "\r")-strings.Count(text, "\r\n") &&
			!strings.Contains(text, "\x1b") {
			t.Fatalf("joined %d line breaks of %q", ty.Joined, text)
		}
		if again := heuristics.TypeText(inner, bracketed, heuristics.Newline{}); bracketed && string(again.Keys) != out || again.Removed != 0 {
			t.Fatalf("typing %q again: %q, removed %d", inner, again.Keys, again.Removed)
		}
	})
}

func TestPromptRecognised(t *testing.T) {
	for _, c := range []struct {
		recorded, prompt string
		want             bool
	}{
		{"which word did I ask you to remember?", "which word did I ask you to remember?", true},
		{"**which** word did I\nask you to remember? @notes.md (attached)", "which word did I ask you to remember?", true},
		{"remember the word kiwi", "which word did I ask you to remember?", false},
		{"anything", "", false},
	} {
		if got := isPromptOf(c.recorded, c.prompt); got != c.want {
			t.Errorf("isPromptOf(%q, %q) = %v", c.recorded, c.prompt, got)
		}
	}
}
