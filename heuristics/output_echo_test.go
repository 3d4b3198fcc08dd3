package heuristics

import "testing"

// TestOutputAfterEcho covers where an echoed command ends and its output
// begins: a command the dialog showed cut short, echoed in full and
// wrapped by the terminal, sometimes on a space (the row then reads one
// column short of the width), and a short line of output of the
// command's own words.
func TestOutputAfterEcho(t *testing.T) {
	const cut = "printf 'x' && echo aaaa-bbbb && echo cc…"
	echo := []string{
		"$ printf 'x' && echo aaaa-bbbb && echo cc", // 41 columns: wrapped
		"cc-dddd && echo eeee-ffff && echo gggg-h ", // wrapped on a space: 40 once trimmed
		"hhh",
		"x",
		"RESULT-42",
	}
	tests := []struct {
		name    string
		lines   []string
		wrapped []bool
		command string
		want    string
	}{
		{"a wrap on a space, told by the terminal", echo, []bool{true, true, false, false, false}, cut, "x\nRESULT-42"},
		{"a wrap at the width, read from the width alone", echo[:1:1], nil, cut, ""},
		{"a short output under a whole command", []string{"$ echo 1 && echo 2", "1", "2"}, nil, "echo 1 && echo 2", "1\n2"},
		{"a call's form over rows", []string{"⏺ Bash(printf 'x' && echo aaaa-bbbb && echo", "  cccc)", "  ⎿  aaaa-bbbb", "     cccc"}, nil, "printf 'x' && echo aaaa-bbbb && echo cccc", "aaaa-bbbb\ncccc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var wrapped func(int) bool
			if tt.wrapped != nil {
				wrapped = func(i int) bool { return tt.wrapped[i] }
			}
			out, _, found := OutputAfterEcho(tt.lines, wrapped, tt.command, 41)
			if !found || out != tt.want {
				t.Errorf("OutputAfterEcho = %q (found %v), want %q", out, found, tt.want)
			}
		})
	}
}
