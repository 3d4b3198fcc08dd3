package driver

import "testing"

func TestEditedLine(t *testing.T) {
	tests := []struct {
		in, line string
		n        int
		ok       bool
	}{
		{"y\r", "y", 2, true},
		{"y\x7fn\r", "n", 4, true},
		{"yes\x08\x08\x08no\rmore", "no", 9, true},
		{"some words\x17no\r", "some no", 14, true},
		{"abc\x15q\n", "q", 6, true},
		{"\x03", "\x03", 1, true},
		{"n\x04", "\x04", 2, true},
		{"no enter", "", 0, false},
		{"y\x1b[A\r", "", 0, false}, // an arrow: not a line
	}
	for _, tt := range tests {
		line, n, ok := editedLine(tt.in)
		if line != tt.line || n != tt.n || ok != tt.ok {
			t.Errorf("editedLine(%q) = %q, %d, %v; want %q, %d, %v", tt.in, line, n, ok, tt.line, tt.n, tt.ok)
		}
	}
}

func TestNamedOption(t *testing.T) {
	clean := "*** Commands ***\n    1: clean                2: filter by pattern    3: select by numbers\n    4: ask each             5: quit                 6: help\nWhat now>"
	unzip := "replace notes.txt? [y]es, [n]o, [A]ll, [N]one, [r]ename:"
	vim := "[O]pen Read-Only, (E)dit anyway, (R)ecover, (D)elete it, (Q)uit, (A)bort:"
	tests := []struct {
		q, s, want string
		ok         bool
	}{
		{clean, "5", "quit", true},
		{clean, "1", "clean", true},
		{clean, "c", "clean", true},
		{clean, "f", "filter by pattern", true},
		{clean, "x", "", false},
		{unzip, "N", "None", true},
		{unzip, "n", "no", true},
		{unzip, "A", "All", true},
		{unzip, "r", "rename", true},
		{vim, "q", "Quit", true},
		{vim, "e", "Edit anyway", true},
		{"(1/1) Stage this hunk [y,n,q,a,d,e,?]?", "q", "quit", true},
		{"(1/1) Stage this hunk [y,n,q,a,d,e,?]?", "e", "", false},
		{"package name: (demo)", "mine", "", false},
		{"  1. /usr/bin/vim.basic\n  2. /bin/ed\n\nChoose 1-2 [1]:", "2", "/bin/ed", true},
	}
	for _, tt := range tests {
		got, ok := namedOption(tt.q, tt.s)
		if got != tt.want || ok != tt.ok {
			t.Errorf("namedOption(%q, %q) = %q, %v; want %q, %v", tt.q, tt.s, got, ok, tt.want, tt.ok)
		}
	}
}

func TestOptionByKey(t *testing.T) {
	codex := []string{"› 1. Yes, proceed (y)", "  2. Yes, and don't ask again for commands that start with `ls` (p)", "  3. No, and tell Codex what to do differently (esc)"}
	tests := []struct {
		options []string
		k       string
		want    int
	}{
		{codex, "1", 0},
		{codex, "y", 0},
		{codex, "p", 1},
		{codex, "3", 2},
		{codex, "n", -1},
		{[]string{"❯ Yes", "  No"}, "1", -1},
	}
	for _, tt := range tests {
		if got := optionByKey(tt.options, tt.k); got != tt.want {
			t.Errorf("optionByKey(%q, %q) = %d, want %d", tt.options, tt.k, got, tt.want)
		}
	}
}

func TestKeyLen(t *testing.T) {
	for in, want := range map[string]int{"": 0, "a": 1, "\x1b[B\r": 3, "\x1bOA": 3, "\x1b": 1, "\x1b\x1b": 1, "\x1b[3~x": 4, "é!": 2, "\x03\x03": 1} {
		if got := keyLen(in); got != want {
			t.Errorf("keyLen(%q) = %d, want %d", in, got, want)
		}
	}
}
