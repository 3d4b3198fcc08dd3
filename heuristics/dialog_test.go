package heuristics

import (
	"strings"
	"testing"
	"unicode"

	"github.com/yume-cli/yume-cli/vt"
)

// screenText draws ANSI text on a real screen, as a program would.
func screenText(cols, rows int, text string) *vt.Screen {
	s := vt.NewScreen(cols, rows)
	_, _ = s.Write([]byte(strings.ReplaceAll(text, "\n", "\r\n")))
	return s
}

// TestFindDialogKnownScreens: the dialogs the four TUIs draw (as their
// profiles' comments show them), and variants no rule knows.
func TestFindDialogKnownScreens(t *testing.T) {
	tests := []struct {
		name, screen                string
		question, command, allow    string
		reject, tool, file, content string
	}{
		{name: "claude bash", screen: `─────────────────────────────────────────────
 Bash command

   printf "alpha\nbeta\n" > made.txt && echo wrote
   Write made.txt

 Do you want to proceed?
 ❯ 1. Yes
   2. Yes, and always allow access to ws/ from this project
   3. No

 Esc to cancel · Tab to amend · ctrl+e to explain`,
			question: "Do you want to proceed?", command: `printf "alpha\nbeta\n" > made.txt && echo wrote`, allow: "1. Yes", reject: "3. No"},
		{name: "claude dashed", screen: `─────────────────────────────────────────────
 Bash command
 Tip: auto mode handles these prompts for you
 Write made.txt
╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌
 printf 'alpha\nbeta\n' > made.txt && echo wrote made.txt
╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌
 Do you want to proceed?
 ❯ 1. Yes
   2. Yes, and always allow access to ws/ from this project
   3. Yes, and switch to auto mode
   4. No`,
			question: "Do you want to proceed?", command: `printf 'alpha\nbeta\n' > made.txt && echo wrote made.txt`, allow: "1. Yes", reject: "4. No"},
		{name: "claude create file", screen: `─────────────────────────────────────────────
 Create file
 notes.md
╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌
  1 # Notes
  2
  3 alpha
╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌
 Do you want to create notes.md?
 ❯ 1. Yes
   2. Yes, allow all edits during this session (shift+tab)
   3. No, and tell Claude what to do differently (esc)`,
			question: "Do you want to create notes.md?", allow: "1. Yes", reject: "3. No, and tell Claude what to do differently (esc)",
			tool: "Write", file: "notes.md", content: "# Notes\n\nalpha\n"},
		{name: "gemini untrusted flags", screen: `╭──────────────────────────────────────────────────────╮
│ ? Shell  grep -n alpha made.txt                      │
│ ⚠️ CRITICAL SECURITY WARNING: Untrusted Command Flags Detected │
│ The following flags/arguments were sourced from      │
│   • -n                                               │
│ ╭──────────────────────────────────────────────────╮ │
│ │ grep -n alpha made.txt                           │ │
│ ╰──────────────────────────────────────────────────╯ │
│ Allow execution of [Shell]?                          │
│ Redirection detected. To auto-accept, press Shift+Tab│
│                                                      │
│ ● 1. Allow once                                      │
│   2. No, suggest changes (esc)                       │
╰──────────────────────────────────────────────────────╯`,
			question: "Allow execution of [Shell]?", command: "grep -n alpha made.txt", allow: "1. Allow once", reject: "2. No, suggest changes (esc)"},
		{name: "codex", screen: `  Would you like to run the following command?

  Environment: local

  Reason: Write made.txt outside the sandbox?

  $ printf "alpha\nbeta\n" > made.txt && echo wrote made.txt

› 1. Yes, proceed (y)
  2. Yes, and don't ask again for commands that start with ` + "`printf …`" + ` (p)
  3. No, and tell Codex what to do differently (esc)

  Press enter to confirm or esc to cancel`,
			question: "Would you like to run the following command?", command: `printf "alpha\nbeta\n" > made.txt && echo wrote made.txt`,
			allow: "1. Yes, proceed (y)", reject: "3. No, and tell Codex what to do differently (esc)"},
		{name: "copilot", screen: `╭──────────────────────────────────────────────────────╮
│ Write made.txt                                       │
│ ──────────────────────────────────────────────────── │
│ ╭──────────────────────────────────────────────────╮ │
│ │ printf "alpha\nbeta\n" > made.txt && cat made.txt│ │
│ ╰──────────────────────────────────────────────────╯ │
│                                                      │
│ Do you want to run this command?                     │
│                                                      │
│ ❯ 1. Yes                                             │
│   2. Yes, and don't ask again for ` + "`printf`" + ` in this dir │
│   3. No, and tell Copilot what to do differently     │
│ ↑/↓ to navigate · enter to select · esc to cancel    │
╰──────────────────────────────────────────────────────╯`,
			question: "Do you want to run this command?", command: `printf "alpha\nbeta\n" > made.txt && cat made.txt`, allow: "1. Yes", reject: "3. No, and tell Copilot what to do differently"},
		{name: "opencode one row", screen: "┃  △ Permission required\n┃    # Shell command\n┃\n┃  $ ls -la\n┃\n┃   \x1b[7mAllow once\x1b[0m   Allow always   Reject                 ctrl+f fullscreen",
			question: "△ Permission required", command: "ls -la", allow: "Allow once", reject: "Reject"},
		{name: "no command, no file", screen: `╭────────────────────────────────────╮
│ Do you want to enable telemetry?   │
│ ❯ 1. Yes                           │
│   2. No                            │
╰────────────────────────────────────╯`,
			question: "Do you want to enable telemetry?", allow: "1. Yes", reject: "2. No"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dl, why := FindDialog(screenText(90, 30, tt.screen))
			if dl == nil {
				t.Fatalf("no dialog: %s", why)
			}
			opt := func(i int) string {
				if i < 0 {
					return ""
				}
				return dl.Options[i]
			}
			got := [...]string{dl.Question, dl.Command, opt(dl.Allow), opt(dl.Reject), dl.Tool, dl.File, dl.Content}
			want := [...]string{tt.question, tt.command, tt.allow, tt.reject, tt.tool, tt.file, tt.content}
			names := [...]string{"question", "command", "allow", "reject", "tool", "file", "content"}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("%s = %q, want %q", names[i], got[i], want[i])
				}
			}
		})
	}
}

// TestFindDialogIgnores: screens that hold lists or questions but no
// dialog to answer.
func TestFindDialogIgnores(t *testing.T) {
	for name, screen := range map[string]string{
		"an answer's numbered list": "● Here is the plan:\n  1. Yes, read the file\n  2. No changes needed\n\n❯ ",
		"a menu without allow":      "Pick a model\n❯ 1. Try new model\n  2. Use existing model",
		"only always":               "Do you want to trust this folder?\n❯ 1. Always trust\n  2. No",
		"no highlight":              "Do you want to proceed?\n  1. Yes\n  2. No",
	} {
		if dl, _ := FindDialog(screenText(80, 20, screen)); dl != nil {
			t.Errorf("%s: found a dialog %+v", name, dl)
		}
	}
}

// TestInputBox: the four TUIs' ready input boxes, read by their shape;
// a dialog's highlighted option is none.
func TestInputBox(t *testing.T) {
	for name, tt := range map[string]struct {
		screen string
		want   bool
	}{
		"claude":  {"● Done.\n\n─────────────────────\n❯ \n─────────────────────\n  ? for shortcuts", true},
		"gemini":  {"✦ Done.\n╭──────────────────────────╮\n│ >   Type your message    │\n╰──────────────────────────╯\n ~/ws   no sandbox", true},
		"codex":   {"• Done.\n\n› Ask Codex to do anything\n\n  ← for agents · ? for shortcuts", true},
		"copilot": {" ● All done.\n\n /ws\n╻▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄\n┃\n╹▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀\n ← open sidebar · Interactive", true},
		"dialog":  {" Do you want to proceed?\n ❯ 1. Yes\n   2. No\n\n Esc to cancel", false},
		"output":  {"$ make\ncc -o x x.c\nld: done", false},
	} {
		if got := InputBox(screenText(80, 12, tt.screen)); got != tt.want {
			t.Errorf("%s: InputBox = %v, want %v", name, got, tt.want)
		}
	}
}

// FuzzFindDialog: whatever a program prints, reading it for a dialog does
// not panic, and a dialog read has options, an allow-once option among
// them, and a command made only of words drawn on the screen.
func FuzzFindDialog(f *testing.F) {
	f.Add("Run it?\n❯ 1. Yes\n  2. No\n")
	f.Add("╭────────╮\n│ $ ls   │\n│ Allow? │\n│ ● 1. Allow once │\n│   2. No │\n╰────────╯")
	f.Add("┃ \x1b[7mAllow once\x1b[0m   Allow always   Reject")
	f.Fuzz(func(t *testing.T, text string) {
		s := screenText(60, 16, text)
		dl, _ := FindDialog(s)
		if dl == nil {
			return
		}
		if len(dl.Options) < 2 || dl.Allow < 0 || dl.Allow >= len(dl.Options) || dl.Reject >= len(dl.Options) {
			t.Fatalf("dialog %+v: options and their indexes disagree", dl)
		}
		// A word a box broke across rows is whole in the command: compare
		// with the frames and blanks taken out.
		bare := func(s string) string {
			return strings.Map(func(r rune) rune {
				if unicode.IsSpace(r) || strings.ContainsRune(frameOnly, r) {
					return -1
				}
				return r
			}, s)
		}
		drawn := bare(strings.Join(s.Lines(), "\n"))
		for _, w := range strings.Fields(dl.Command) {
			if !strings.Contains(drawn, bare(w)) {
				t.Fatalf("command word %q is not on the screen:\n%s", w, drawn)
			}
		}
	})
}
