//go:build unix

package main

import (
	"strings"
	"testing"
)

// TestAnswerAtATerminal: a person at a terminal with --permission-mode
// interactive is asked in words and answers y or n; a line that is
// neither says what would do, a JSON frame still works, and a wrong id
// names the one that waits. yume-cli runs in a real terminal.
func TestAnswerAtATerminal(t *testing.T) {
	bin := buildCLI(t)
	program := `printf 'Delete notes.txt? [y/N] '; read a; echo "answer=$a"`
	tests := []struct {
		name  string
		typed []string // lines typed, each after the question shows
		want  []string // on the terminal, in order of the lines
		end   string   // the program's answer, seen at the end
	}{
		{"yes", []string{"y"}, []string{""}, "answer=y"},
		{"no", []string{"n"}, []string{""}, `"content":"Denied by the user.","is_error":true`},
		{"the default", []string{""}, []string{""}, `"content":"Denied by the user.","is_error":true`},
		{"no, saying why", []string{"n not that file"}, []string{""}, `"content":"not that file","is_error":true`},
		{"not an answer", []string{"maybe", "yes"}, []string{`"maybe" is not an answer: type y or n`, ""}, "answer=y"},
		{"a JSON frame with a wrong id", []string{`{"type":"tool_approval","id":"toolu_nope","approved":true}`, "y"},
			[]string{`with id \"toolu_nope\" (request \"\"): the one waiting is \"toolu_`, ""}, "answer=y"},
		{"a malformed frame", []string{`{"type":`, "n"}, []string{`a valid frame now: {"type":"tool_approval","id":"toolu_`, ""}, "Denied by the user."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startInPTY(t, t.TempDir(), bin, "--permission-mode", "interactive", "--", "sh", "-c", program)
			s.waitText("yume-cli: Run `sh -c")
			s.waitText("(Delete notes.txt? [y/N])")
			s.waitText("[y/N] ")
			for i, line := range tt.typed {
				if _, err := s.master.Write([]byte(line + "\r")); err != nil {
					t.Fatal(err)
				}
				if tt.want[i] != "" {
					s.waitText(tt.want[i])
				}
			}
			code := s.wait()
			s.waitText(tt.end)
			if code != 0 {
				t.Errorf("exit %d; the terminal:\n%s", code, s.text())
			}
		})
	}
}

func (s *ptySession) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.ReplaceAll(s.screen.String(), "\r", "")
}
