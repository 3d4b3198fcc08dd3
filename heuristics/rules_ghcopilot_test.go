package heuristics

import (
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/vt"
)

// Screens of `gh copilot suggest` as survey/v2 v2.3.7 draws them
// (select.go SelectQuestionTemplate, confirm.go ConfirmQuestionTemplate):
// the question mark is green+hb, the focused option "> " and its text
// cyan+b, the other options "  " in the default colour. A select hides the
// cursor and parks it on the focused option's row, column 0.

const ghWelcome = `Welcome to GitHub Copilot in the CLI!
version 1.1.1 (2025-06-17)

I'm powered by AI, so surprises and mistakes are possible. Make sure to verify any generated code or suggestions, and share feedback so that we can learn and improve. For more information, see https://gh.io/gh-copilot-transparency
`

const ghSuggestion = `? What kind of command can I help you with? generic shell command

? What would you like the shell command to do?
> find all files larger than 100MB

Suggestion:

  find . -type f -size +100M

? Select an option  [Use arrows to move, type to filter]
> Copy command to clipboard
  Explain command
  Execute command
  Revise command
  Rate response
  Exit
`

// cyanBold is survey's SelectFocus format "cyan+b".
var cyanBold = vt.Style{FG: 7, Bold: true}

// surveyScreen lays text out on a 120x40 screen and styles the focused
// option row of the last select as survey does.
func surveyScreen(text string) *fakeView {
	v := screenOf(120, 40, text)
	for r := len(v.lines) - 1; r >= 0; r-- {
		if strings.HasPrefix(v.lines[r], "> ") {
			v.styleRow(r, cyanBold)
			v.at(r, 0)
			v.hidden = true
			break
		}
	}
	return v
}

func ghEngine(t *testing.T) *Engine {
	t.Helper()
	p, err := LoadProfile("gh-copilot")
	if err != nil {
		t.Fatal(err)
	}
	return NewEngine(p)
}

// expect evaluates and checks which rule fired.
func expect(t *testing.T, e *Engine, v View, settled bool, rule string) *Detection {
	t.Helper()
	d, trace := e.Evaluate(v, settled)
	name := ""
	if d != nil {
		name = d.Rule.Name
	}
	if name != rule {
		t.Fatalf("fired %q, want %q; trace:\n  %s", name, rule, strings.Join(whys(trace), "\n  "))
	}
	return d
}

func encode(t *testing.T, k Keys, v View) string {
	t.Helper()
	b, err := k.Encode(v)
	if err != nil {
		t.Fatalf("encode %s: %v", k, err)
	}
	return string(b)
}

func TestProfileGhCopilotSession(t *testing.T) {
	e := ghEngine(t)

	// 1. Which kind of command: answered by the driver, no GUI.
	v := surveyScreen(ghWelcome + `
? What kind of command can I help you with?  [Use arrows to move, type to filter]
  generic shell command
> gh command
  git command
`)
	d := expect(t, e, v, true, "what-kind")
	if d.Kind != KindInput {
		t.Errorf("kind %s, want input", d.Kind)
	}
	if got := encode(t, d.Rule.Approve, v); got != "\x1b[A\r" {
		t.Errorf("approve types %q, want Up Enter", got)
	}

	// 2. The prompt, typed by the driver on the "> " row; fires before settling.
	v = screenOf(120, 40, ghWelcome+`
? What kind of command can I help you with? generic shell command

? What would you like the shell command to do?
> `)
	d = expect(t, e, v, false, "ask-prompt")
	if got := encode(t, d.Rule.Approve.WithPrompt("find all files larger than 100MB"), v); got != "find all files larger than 100MB\r" {
		t.Errorf("approve types %q", got)
	}

	// 3. Suggestion and menu on one settled screen: the suggestion first,
	// then, evaluated again, the menu.
	v = surveyScreen(ghWelcome + "\n" + ghSuggestion)
	expect(t, e, v, false, "")
	d = expect(t, e, v, true, "suggestion")
	if d.Command != "find . -type f -size +100M" {
		t.Errorf("command %q", d.Command)
	}
	d = expect(t, e, v, true, "select-option")
	if d.Kind != KindMenu || d.Prompt != "Select an option" || d.Command != "" {
		t.Errorf("menu detection %+v", d)
	}
	if got := encode(t, d.Rule.Approve, v); got != "\x1b[B\x1b[B\r" {
		t.Errorf("approve types %q, want Down Down Enter (Execute command)", got)
	}
	if got := encode(t, d.Rule.Deny, v); got != strings.Repeat("\x1b[B", 5)+"\r" {
		t.Errorf("deny types %q, want 5 Downs and Enter (Exit)", got)
	}
	if !e.StillShows(v, d) {
		t.Error("StillShows = false before answering")
	}
	expect(t, e, v, true, "")

	// 4. Execute chosen: the follow-up confirm, answered like the menu.
	v = screenOf(120, 40, ghWelcome+"\n"+strings.SplitAfter(ghSuggestion, "+100M\n")[0]+`
? Select an option Execute command
? Are you sure you want to execute the suggested command? (Y/n) `)
	d = expect(t, e, v, false, "execute-confirm")
	if !d.Rule.Followup || d.Prompt != "Are you sure you want to execute the suggested command?" {
		t.Errorf("follow-up detection %+v", d)
	}
	if encode(t, d.Rule.Approve, v) != "y\r" || encode(t, d.Rule.Deny, v) != "n\r" {
		t.Error("follow-up keys are not y/n Enter")
	}
	expect(t, e, v, true, "") // the suggestion above already fired
}

func TestProfileGhCopilotScreens(t *testing.T) {
	tests := []struct {
		name, screen string
		cols         int
		rule, field  string // field: the group the rule must read
		want         string
	}{
		{"wrapped suggestion", "Suggestion:\n\n  find . -type f -name '*.l\nog' -mtime +30 -delete\n\n? Select an option  [Use arrows to move, type to filter]\n",
			26, "suggestion", "command", "find . -type f -name '*.log' -mtime +30 -delete"},
		{"multi-line suggestion", "Suggestion:\n\n  for f in *.png; do\n    convert \"$f\" \"${f%.png}.jpg\"\n  done\n\n",
			80, "suggestion", "command", "for f in *.png; do\n  convert \"$f\" \"${f%.png}.jpg\"\ndone"},
		{"explanation", `Explanation:

  • find is used to list files.
    • . specifies that we search in the current directory.
    • -size +100M limits the search to files larger than 100MB.

? Select an option  [Use arrows to move, type to filter]
`, 120, "explanation", "text", "• find is used to list files.\n  • . specifies that we search in the current directory.\n  • -size +100M limits the search to files larger than 100MB."},
		{"error", "✗ Error: failed to suggest: unexpected status 502\n", 80, "error", "text", "Error: failed to suggest: unexpected status 502"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := screenOf(tt.cols, 20, tt.screen).at(19, 0)
			d := expect(t, ghEngine(t), v, true, tt.rule)
			got := map[string]string{"command": d.Command, "text": d.Text}[tt.field]
			if got != tt.want {
				t.Errorf("%s = %q, want %q", tt.field, got, tt.want)
			}
		})
	}
}
