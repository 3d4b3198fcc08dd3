package recordings

import (
	"testing"
	"unicode/utf8"
)

// The expected strings are what asciinema 2.2's decoder,
// codecs.getincrementaldecoder("UTF-8")("replace"), returns for the same bytes.
var repairCases = []struct {
	name string
	in   string
	want string
}{
	{"ascii", "abc", "abc"},
	{"valid multibyte", "żółć €😀", "żółć €😀"},
	{"lone 0xFF", "a\xffb", "a\uFFFDb"},
	{"truncated then ASCII", "\xe2\x82A", "\uFFFDA"},
	{"truncated at end", "\xe2\x82", "\uFFFD"},
	{"truncated 4-byte", "\xf0\x9f\x98", "\uFFFD"},
	{"surrogate", "\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"},
	{"overlong C0", "\xc0\xaf", "\uFFFD\uFFFD"},
	{"above U+10FFFF", "\xf4\x90\x80\x80", "\uFFFD\uFFFD\uFFFD\uFFFD"},
	{"overlong E0", "\xe0\x80\x80", "\uFFFD\uFFFD\uFFFD"},
	{"continuations", "\x80\x80", "\uFFFD\uFFFD"},
	{"literal U+FFFD kept", "\uFFFD", "\uFFFD"},
	{"escape sequences", "\x1b[1;31mred\x1b[0m\r\n", "\x1b[1;31mred\x1b[0m\r\n"},
}

func TestRepair(t *testing.T) {
	for _, tt := range repairCases {
		if got := validString(tt.in); got != tt.want {
			t.Errorf("%s: validString(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

// TestCarrySplits feeds every case split at every point, and in single
// bytes: the text must not depend on where the reads ended.
func TestCarrySplits(t *testing.T) {
	for _, tt := range repairCases {
		in := []byte(tt.in)
		for i := 0; i <= len(in); i++ {
			for j := i; j <= len(in); j++ {
				var c utf8Carry
				got := c.decode(in[:i]) + c.decode(in[i:j]) + c.decode(in[j:]) + c.flush()
				if got != tt.want {
					t.Errorf("%s split at %d,%d: %q, want %q", tt.name, i, j, got, tt.want)
				}
			}
		}
		var c utf8Carry
		got := ""
		for k := range in {
			got += c.decode(in[k : k+1])
		}
		if got += c.flush(); got != tt.want {
			t.Errorf("%s byte by byte: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestCarryHoldsIncompleteTail(t *testing.T) {
	// Mirrors asciinema's decoder: decode(b"ab\xe2\x82") == "ab", then
	// decode(b"\xacX") == "€X"; and "\xe2", "\x82", "A" give "", "", "\uFFFDA".
	steps := []struct {
		in, want string
	}{
		{"ab\xe2\x82", "ab"},
		{"\xacX", "€X"},
		{"\xe2", ""},
		{"\x82", ""},
		{"A", "\uFFFDA"},
		{"\xf0\x9f", ""},
	}
	var c utf8Carry
	for _, s := range steps {
		if got := c.decode([]byte(s.in)); got != s.want {
			t.Errorf("decode(%q) = %q, want %q", s.in, got, s.want)
		}
	}
	if got := c.flush(); got != "\uFFFD" {
		t.Errorf("flush = %q, want one U+FFFD for the incomplete emoji", got)
	}
	if got := c.flush(); got != "" {
		t.Errorf("second flush = %q, want empty", got)
	}
}

func FuzzCarry(f *testing.F) {
	for _, tt := range repairCases {
		f.Add([]byte(tt.in), uint8(1))
	}
	f.Fuzz(func(t *testing.T, in []byte, split uint8) {
		whole := validString(string(in))
		if !utf8.ValidString(whole) {
			t.Fatalf("validString(%q) = %q is not UTF-8", in, whole)
		}
		if utf8.Valid(in) && whole != string(in) {
			t.Fatalf("valid input changed: %q -> %q", in, whole)
		}
		i := int(split) % (len(in) + 1)
		var c utf8Carry
		if got := c.decode(in[:i]) + c.decode(in[i:]) + c.flush(); got != whole {
			t.Fatalf("split %d of %q: %q, want %q", i, in, got, whole)
		}
	})
}
