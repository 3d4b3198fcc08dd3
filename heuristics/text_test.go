package heuristics

import (
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/vt"
)

// TestTypeText: text is typed as text only; line breaks go as the paste
// mode and the profile's newline say, never as a submitting Enter.
func TestTypeText(t *testing.T) {
	space, bs := Newline{}, Newline{Mode: NewlineBackslashEnter}
	cj, err := ParseNewline("key:<C-j>")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text      string
		bracketed bool
		nl        Newline
		want      string
		removed   int
		joined    int
	}{
		{"fix it", false, space, "fix it", 0, 0},
		{"fix it", true, space, "\x1b[200~fix it\x1b[201~", 0, 0},
		{"", true, space, "", 0, 0},
		{"\x03\x1b", true, space, "", 2, 0},
		{"one\ntwo\r\nthree\rfour", false, space, "one two three four", 0, 3},
		{"one\ntwo\r\nthree\rfour", true, space, "\x1b[200~one\ntwo\nthree\nfour\x1b[201~", 0, 0},
		{"one\ntwo\r\nthree", false, cj, "one\ntwo\nthree", 0, 0},
		{"one\ntwo", false, bs, "one\\\rtwo", 0, 0},
		{"a\tb", false, space, "a b", 0, 0},
		{"a\tb", true, space, "\x1b[200~a\tb\x1b[201~", 0, 0},
		{"end\x1b[201~then\x03 keys", true, space, "\x1b[200~endthen keys\x1b[201~", 2, 0},
		{"\x1b[200~\x1b[201~x", false, space, "x", 2, 0},
		// A marker the removal puts together is not a marker: its ESC goes.
		{"\x1b[20\x1b[201~0~", true, space, "\x1b[200~[200~\x1b[201~", 2, 0},
		{"\x1b]0;title\x07\x1b[31mred\x9b", false, space, "]0;title[31mred\ufffd", 3, 0},
		{"c1 \u0085\u009b end \u00a0", false, space, "c1  end \u00a0", 2, 0},
		{"\xff\xfe ok", false, space, "\ufffd\ufffd ok", 0, 0},
		{"日本語 🙂", true, space, "\x1b[200~日本語 🙂\x1b[201~", 0, 0},
		// '\' Enter is a line break, so a text's own trailing '\' is
		// followed by a space: the Enter after it submits.
		{`C:\dir\`, false, bs, `C:\dir\ `, 0, 0},
		{`C:\dir\`, true, bs, "\x1b[200~C:\\dir\\ \x1b[201~", 0, 0},
		{`C:\dir\`, true, space, "\x1b[200~C:\\dir\\\x1b[201~", 0, 0},
		{"a\\\n", false, bs, "a\\\\\r", 0, 0},
	} {
		got := TypeText(c.text, c.bracketed, c.nl)
		if string(got.Keys) != c.want || got.Removed != c.removed || got.Joined != c.joined || got.Paste != c.bracketed {
			t.Errorf("TypeText(%q, %v, %s) = %q removed %d joined %d; want %q removed %d joined %d",
				c.text, c.bracketed, c.nl, got.Keys, got.Removed, got.Joined, c.want, c.removed, c.joined)
		}
	}
}

func TestParseNewline(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"", "space", ""},
		{"space", "space", ""},
		{"backslash-enter", "backslash-enter", ""},
		{"key:<C-j>", "key:<C-j>", ""},
		{"key:<Esc><Enter>", "", "Enter submits"},
		{"key:<Enter>", "", "Enter submits"},
		{"key:", "", "names no key"},
		{"key:<Prompt>", "", "plain keys"},
		{"key:select:^Yes", "", "plain keys"},
		{"key:<Nope>", "", "unknown key"},
		{"enter", "", "use space, backslash-enter or key:KEYS"},
	} {
		nl, err := ParseNewline(c.in)
		switch {
		case c.err == "" && (err != nil || nl.String() != c.want):
			t.Errorf("ParseNewline(%q) = %s, %v; want %s", c.in, nl, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseNewline(%q) err = %v; want one saying %q", c.in, err, c.err)
		}
	}
}

// TestProfileNewline: an input rule's <Prompt> types line breaks as its
// profile's newline says, and as a bracketed paste when the program on
// the screen turned it on; a --rules file's newline wins.
func TestProfileNewline(t *testing.T) {
	const rules = "rules:\n  - name: ask\n    match: '^Q> $'\n    kind: input\n    approve: '<Prompt><Enter>'\n"
	base, err := ParseProfile("base.yaml", []byte("newline: key:<C-j>\n"+rules))
	if err != nil {
		t.Fatal(err)
	}
	plain, paste := vt.NewScreen(20, 4), vt.NewScreen(20, 4)
	paste.Write([]byte("\x1b[?2004h"))
	type check struct {
		v    View
		want string
	}
	run := func(name string, p *Profile, cs ...check) {
		t.Helper()
		for _, c := range cs {
			b, err := p.Rules[0].Approve.WithPrompt("a\nb\x03").Encode(c.v)
			if err != nil || string(b) != c.want {
				t.Errorf("%s: typed %q, %v; want %q", name, b, err, c.want)
			}
		}
	}
	run("key:<C-j>", base, check{plain, "a\nb\r"}, check{nil, "a\nb\r"}, check{paste, "\x1b[200~a\nb\x1b[201~\r"})
	if got := base.LineBreak().String(); got != "key:<C-j>" {
		t.Errorf("LineBreak = %s", got)
	}

	over, err := ParseProfile("over.yaml", []byte("newline: backslash-enter\nrules: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	run("merged", base.Merge(over), check{plain, "a\\\rb\r"}, check{paste, "\x1b[200~a\nb\x1b[201~\r"})
	run("base after merge", base, check{plain, "a\nb\r"})
	run("merged without newline", base.Merge(&Profile{}), check{plain, "a\nb\r"})

	none, err := ParseProfile("none.yaml", []byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	run("default", none, check{plain, "a b\r"})
	// The rule of a --rules file without newline: follows the base's.
	run("rule of a file without newline", base.Merge(none), check{plain, "a\nb\r"})

	if _, err := ParseProfile("bad.yaml", []byte("newline: key:<Enter>\nrules: []\n")); err == nil || !strings.Contains(err.Error(), "bad.yaml:1:10: newline") {
		t.Errorf("newline: key:<Enter> = %v; want an error at its value", err)
	}

	// WithTyped types exactly the keys it is given.
	typed := base.Rules[0].Approve.WithTyped(TypeText("x\ny", true, Newline{}))
	if b, _ := typed.Encode(plain); string(b) != "\x1b[200~x\ny\x1b[201~\r" {
		t.Errorf("WithTyped: %q", b)
	}
}

// TestEmbeddedNewlines: the profiles that name a newline parse it.
func TestEmbeddedNewlines(t *testing.T) {
	want := map[string]string{"claude": "backslash-enter"}
	for _, name := range ProfileNames() {
		p, err := LoadProfile(name)
		if err != nil {
			t.Fatal(err)
		}
		w := want[name]
		if w == "" {
			w = "space"
		}
		if got := p.LineBreak().String(); got != w {
			t.Errorf("profile %s: newline %s, want %s", name, got, w)
		}
	}
}
