package vt

import (
	"reflect"
	"testing"
)

// TestScreenWrapped covers which rows the terminal wrapped on to the next:
// an auto-wrap marks its row, a newline or a full row with no more text
// does not, and clearing or erasing the row's end forgets the mark. The
// wrapped line that ends at a space is the case a reader of text alone
// cannot tell from a line that ended there.
func TestScreenWrapped(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []bool // rows 0-2
	}{
		{"a newline", "abc\r\ndef", []bool{false, false, false}},
		{"an auto-wrap", "abcdefgh", []bool{true, false, false}},
		{"a wrap that falls on a space", "abcd efgh", []bool{true, false, false}},
		{"a full row and no more", "abcde", []bool{false, false, false}},
		{"a full row then a newline", "abcde\r\nf", []bool{false, false, false}},
		{"two wraps", "abcdefghijk", []bool{true, true, false}},
		{"EL to the end forgets", "abcdefgh\x1b[1;3H\x1b[K", []bool{false, false, false}},
		{"EL to the start keeps", "abcdefgh\x1b[1;3H\x1b[1K", []bool{true, false, false}},
		{"ED 2 forgets", "abcdefgh\x1b[2J", []bool{false, false, false}},
		{"scrolled up, the mark moves with the row", "x\r\ny\r\nabcdefgh", []bool{false, true, false}},
		{"without auto-wrap, no wrap", "\x1b[?7labcdefgh", []bool{false, false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewScreen(5, 3)
			s.Write([]byte(tt.input))
			got := []bool{s.Wrapped(0), s.Wrapped(1), s.Wrapped(2)}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Wrapped = %v, want %v\nscreen:\n%s", got, tt.want, s.String())
			}
		})
	}
}

// TestRetireTellsWrapped: a retired row carries its wrap mark to OnRetire.
func TestRetireTellsWrapped(t *testing.T) {
	s := NewScreen(5, 2)
	var got []bool
	s.OnRetire(func(_ string, wrapped bool) { got = append(got, wrapped) })
	s.Write([]byte("abcd efgh\r\nij\r\nk\r\n"))
	if want := []bool{true, false, false}; !reflect.DeepEqual(got, want) {
		t.Errorf("retired rows' wrap marks %v, want %v", got, want)
	}
}
