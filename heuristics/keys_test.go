package heuristics

import (
	"errors"
	"strings"
	"testing"
)

func TestParseKeysEncode(t *testing.T) {
	tests := []struct {
		in, canon string
		normal    string // bytes with normal cursor keys
		app       string // bytes in application cursor mode (DECCKM)
	}{
		{"y<Enter>", "y<Enter>", "y\r", "y\r"},
		{"yes<enter>", "yes<Enter>", "yes\r", "yes\r"},
		{"", "", "", ""},
		{"12", "12", "12", "12"},
		{"<Up><Down><Right><Left>", "<Up><Down><Right><Left>", "\x1b[A\x1b[B\x1b[C\x1b[D", "\x1bOA\x1bOB\x1bOC\x1bOD"},
		{"<Home><End>", "<Home><End>", "\x1b[H\x1b[F", "\x1bOH\x1bOF"},
		{"<PgUp><PgDn><Del>", "<PgUp><PgDn><Del>", "\x1b[5~\x1b[6~\x1b[3~", "\x1b[5~\x1b[6~\x1b[3~"},
		{"<Esc><Tab><S-Tab><Space><BS>", "<Esc><Tab><S-Tab><Space><BS>", "\x1b\t\x1b[Z \x7f", "\x1b\t\x1b[Z \x7f"},
		{"<C-c>", "<C-c>", "\x03", "\x03"},
		{"<C-A><c-z>", "<C-a><C-z>", "\x01\x1a", "\x01\x1a"},
		{"a<lt>b>c", "a<lt>b>c", "a<b>c", "a<b>c"},
		{"<LT>", "<lt>", "<", "<"},
		{"日本<Enter>", "日本<Enter>", "日本\r", "日本\r"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			k, err := ParseKeys(tt.in)
			if err != nil {
				t.Fatalf("ParseKeys(%q): %v", tt.in, err)
			}
			if got := k.String(); got != tt.canon {
				t.Errorf("String() = %q, want %q", got, tt.canon)
			}
			v := newFakeView(80, 24)
			got, err := k.Encode(v)
			if err != nil || string(got) != tt.normal {
				t.Errorf("Encode = %q, %v; want %q", got, err, tt.normal)
			}
			v.appCursor = true
			got, err = k.Encode(v)
			if err != nil || string(got) != tt.app {
				t.Errorf("Encode(app cursor) = %q, %v; want %q", got, err, tt.app)
			}
			if again, err := ParseKeys(k.String()); err != nil || again.String() != tt.canon {
				t.Errorf("round trip %q -> %q, %v", k.String(), again.String(), err)
			}
		})
	}
}

func TestParseKeysErrors(t *testing.T) {
	tests := []struct {
		in      string
		off, n  int
		wantMsg string
	}{
		{"y<Entr>", 1, 6, "unknown key <Entr>"},
		{"<C-1>", 0, 5, "unknown key <C-1>"},
		{"a<b", 1, 2, "unclosed '<'"},
		{"<>", 0, 2, "unknown key <>"},
		{"select:", 0, 7, "select: needs a regex"},
		{"select:(x", 7, 2, "bad regex after select:"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseKeys(tt.in)
			var ke *KeyError
			if !errors.As(err, &ke) {
				t.Fatalf("ParseKeys(%q) = %v, want a *KeyError", tt.in, err)
			}
			if ke.Offset != tt.off || ke.Len != tt.n || !strings.Contains(ke.Msg, tt.wantMsg) {
				t.Errorf("got offset %d len %d %q; want %d %d containing %q", ke.Offset, ke.Len, ke.Msg, tt.off, tt.n, tt.wantMsg)
			}
		})
	}
}

func TestKeysPrompt(t *testing.T) {
	k := MustParseKeys("<Prompt><Enter>")
	if !k.NeedsPrompt() {
		t.Fatal("NeedsPrompt() = false before WithPrompt")
	}
	if _, err := k.Encode(nil); err == nil || !strings.Contains(err.Error(), "WithPrompt") {
		t.Errorf("Encode without a prompt: err = %v, want one naming WithPrompt", err)
	}
	filled := k.WithPrompt("find big <files>")
	if filled.NeedsPrompt() {
		t.Error("NeedsPrompt() = true after WithPrompt")
	}
	got, err := filled.Encode(nil)
	if err != nil || string(got) != "find big <files>\r" {
		t.Errorf("Encode = %q, %v", got, err)
	}
}

func TestKeysSelectNeedsView(t *testing.T) {
	k := MustParseKeys("select:^Yes")
	if k.Select() == nil || k.String() != "select:^Yes" {
		t.Fatalf("select keys parsed as %q", k.String())
	}
	if _, err := k.Encode(nil); err == nil {
		t.Error("Encode(nil) of select: keys succeeded; want an error")
	}
}

// TestPromptIsTextOnly: a prompt typed at <Prompt> is text, never keys.
func TestPromptIsTextOnly(t *testing.T) {
	k, err := ParseKeys("<Prompt><Enter>")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ prompt, want string }{
		{"list files", "list files\r"},
		{"one\rtwo\nthree\r\nfour\tfive", "one two three four five\r"},
		{"stop\x03 now\x1b[201~ and \x7fthen\u0085", "stop now and then\r"},
		{"日本語 🙂 é", "日本語 🙂 é\r"},
	} {
		b, err := k.WithPrompt(c.prompt).Encode(nil)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("%q typed as %q, want %q", c.prompt, b, c.want)
		}
	}
}
