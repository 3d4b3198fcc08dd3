package emit

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestValidUTF8(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"ascii", "hello", "hello"},
		{"multibyte", "héllo 世界 🎉", "héllo 世界 🎉"},
		{"lone continuation byte", "a\x80b", "a\uFFFDb"},
		{"each invalid byte replaced", "a\xff\xfeb", "a\uFFFD\uFFFDb"},
		{"truncated rune at end", "ok\xe4\xb8", "ok\uFFFD\uFFFD"},
		{"overlong encoding", "\xc0\xaf", "\uFFFD\uFFFD"},
		{"surrogate half", "\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"},
		{"replacement char kept", "\uFFFD", "\uFFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ValidUTF8(tt.in)
			if got != tt.want {
				t.Errorf("ValidUTF8(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if !utf8.ValidString(got) {
				t.Errorf("ValidUTF8(%q) is not valid UTF-8", tt.in)
			}
		})
	}
}

func TestValidUTF8MatchesEncodingJSON(t *testing.T) {
	// encoding/json coerces invalid bytes the same way, so a string cleaned
	// first and one encoded directly give the same line.
	in := "x\xff\xe4\xb8y\x80"
	a, _ := json.Marshal(in)
	b, _ := json.Marshal(ValidUTF8(in))
	var da, db string
	_ = json.Unmarshal(a, &da)
	_ = json.Unmarshal(b, &db)
	if da != db {
		t.Errorf("json(in) decodes to %q, json(ValidUTF8(in)) to %q", da, db)
	}
}

func TestCapOutput(t *testing.T) {
	long := strings.Repeat("a", 500) + strings.Repeat("z", 500)
	tests := []struct {
		name      string
		in        string
		max       int
		unchanged bool
		omitted   int // bytes the note must report
	}{
		{"short enough", "hello", 10, true, 0},
		{"exactly max", "hello", 5, true, 0},
		{"cut in the middle", long, 200, false, 1000 - (200 - len(fmt.Sprintf(outputNote, 1000)))},
		{"max below the note", long, 10, false, 1000},
		{"zero max", long, 0, false, 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CapOutput(tt.in, tt.max)
			if tt.unchanged {
				if got != tt.in {
					t.Fatalf("CapOutput changed a short string: %q", got)
				}
				return
			}
			note := fmt.Sprintf(outputNote, tt.omitted)
			if !strings.Contains(got, note) {
				t.Fatalf("CapOutput output lacks note %q:\n%q", note, got)
			}
			if len(note) <= tt.max && len(got) > tt.max {
				t.Errorf("len = %d, want <= %d", len(got), tt.max)
			}
			head, tail, _ := strings.Cut(got, note)
			if !strings.HasPrefix(tt.in, head) || !strings.HasSuffix(tt.in, tail) {
				t.Errorf("head %q / tail %q are not the input's ends", head, tail)
			}
			if len(head)+len(tail)+tt.omitted != len(tt.in) {
				t.Errorf("kept %d+%d bytes and reported %d omitted of %d", len(head), len(tail), tt.omitted, len(tt.in))
			}
		})
	}
}

func TestCapOutputRuneBoundaries(t *testing.T) {
	in := strings.Repeat("世界🎉", 300)
	for limit := 60; limit < 200; limit++ {
		got := CapOutput(in, limit)
		if !utf8.ValidString(got) {
			t.Fatalf("CapOutput(_, %d) split a rune: %q", limit, got)
		}
		if len(got) > limit {
			t.Fatalf("CapOutput(_, %d) is %d bytes", limit, len(got))
		}
	}
}

func TestJSONLen(t *testing.T) {
	tests := []string{
		"", "plain", `quote " and backslash \`, "tab\tnewline\ncr\r", "\b\f",
		"\x00\x01\x1f", "\x7f", "<html>&amp;</html>", "\u2028\u2029", "世界🎉",
		"bad\xffbytes\xe4", "\uFFFD",
	}
	for _, s := range tests {
		b, err := marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if want := len(b) - 3; jsonLen(s) != want { // quotes and newline
			t.Errorf("jsonLen(%q) = %d, encoding/json writes %d (%s)", s, jsonLen(s), want, b)
		}
	}
}

func TestSplitText(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		budget int
		want   []string
	}{
		{"fits", "hello", 10, []string{"hello"}},
		{"exact", "hello", 5, []string{"hello"}},
		{"plain cut", "abcdefghijklmnopqrst", 8, []string{"abcdefgh", "ijklmnop", "qrst"}},
		{"prefers newline in second half", "abcde\nfghij", 8, []string{"abcde\n", "fghij"}},
		{"ignores early newline (escaped as 2 bytes)", "a\nbcdefghij", 8, []string{"a\nbcdef", "ghij"}},
		{"escapes count", `""""""""`, 8, []string{`""""`, `""""`}},
		{"budget below one escape is raised", "\x00\x00", 1, []string{"\x00", "\x00"}},
		{"never splits a rune", "世界世界", 8, []string{"世界", "世界"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := splitText(tt.in, tt.budget)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("splitText(%q, %d) = %q, want %q", tt.in, tt.budget, got, tt.want)
			}
		})
	}
}

func FuzzValidUTF8(f *testing.F) {
	for _, s := range []string{"", "abc", "a\xffb", "世界", "\xe4\xb8", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := ValidUTF8(s)
		if !utf8.ValidString(got) {
			t.Fatalf("ValidUTF8(%q) = %q is invalid", s, got)
		}
		if utf8.ValidString(s) && got != s {
			t.Fatalf("ValidUTF8 changed valid %q to %q", s, got)
		}
		if ValidUTF8(got) != got {
			t.Fatalf("ValidUTF8 is not idempotent on %q", s)
		}
		if utf8.RuneCountInString(got) != utf8.RuneCountInString(s) {
			t.Fatalf("rune count changed: %q -> %q", s, got)
		}
	})
}

func FuzzSplitText(f *testing.F) {
	f.Add("hello world", 4)
	f.Add("line one\nline two\n\"quoted\"\x00", 7)
	f.Add("世界🎉\u2028", 3)
	f.Fuzz(func(t *testing.T, s string, budget int) {
		budget = budget%200 + 1
		if budget < 0 {
			budget = -budget
		}
		s = ValidUTF8(s)
		b, _ := marshal(s)
		if jsonLen(s) != len(b)-3 {
			t.Fatalf("jsonLen(%q) = %d, encoding/json writes %d", s, jsonLen(s), len(b)-3)
		}
		chunks := splitText(s, budget)
		if strings.Join(chunks, "") != s {
			t.Fatalf("chunks %q do not rebuild %q", chunks, s)
		}
		for _, c := range chunks {
			if c == "" || !utf8.ValidString(c) || jsonLen(c) > max(budget, minChunk) {
				t.Fatalf("bad chunk %q (budget %d) of %q", c, budget, s)
			}
		}
	})
}
