package heuristics

import (
	"fmt"
	"strings"
	"testing"

	"github.com/AlecAivazis/survey/v2"
	"github.com/AlecAivazis/survey/v2/core"
	"github.com/yume-cli/yume-cli/vt"
)

// These tests render gh copilot's prompts with survey/v2's own templates
// (the library gh copilot's UI is built on), colours included, feed the
// bytes to a real Screen and run the gh-copilot profile on it.

// surveyConfig is survey's default prompt configuration (survey.go
// defaultPromptConfig), which is unexported.
var surveyConfig = &survey.PromptConfig{
	PageSize:  7,
	HelpInput: "?",
	Icons: survey.IconSet{
		Question:    survey.Icon{Text: "?", Format: "green+hb"},
		SelectFocus: survey.Icon{Text: ">", Format: "cyan+b"},
		Help:        survey.Icon{Text: "?", Format: "cyan"},
	},
}

// render runs a survey template and returns the bytes a terminal gets:
// survey writes "\n", the tty's ONLCR makes it "\r\n".
func render(t *testing.T, tmpl string, data any) string {
	t.Helper()
	out, _, err := core.RunTemplate(tmpl, data)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(out, "\n", "\r\n")
}

// renderSelect draws a survey Select as Select.Prompt does: cursor hidden,
// the template, then the cursor moved up onto the focused option
// (RenderWithCursorOffset; PreviousLine is ESC[1A ESC[0G).
func renderSelect(t *testing.T, msg string, opts []string, focus int) string {
	data := survey.SelectTemplateData{
		Select:        survey.Select{Message: msg, Options: opts},
		PageEntries:   core.OptionAnswerList(opts),
		SelectedIndex: focus,
		Config:        surveyConfig,
	}
	return "\x1b[?25l" + render(t, survey.SelectQuestionTemplate, data) +
		strings.Repeat("\x1b[1A\x1b[0G", len(opts)-focus)
}

func feed(t *testing.T, chunks ...string) *vt.Screen {
	t.Helper()
	s := vt.NewScreen(120, 40)
	for _, c := range chunks {
		if _, err := s.Write([]byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

var ghMenu = []string{"Copy command to clipboard", "Explain command", "Execute command", "Revise command", "Rate response", "Exit"}

func TestProfileGhCopilotSurveyBytes(t *testing.T) {
	for focus := range ghMenu {
		t.Run(fmt.Sprintf("focus %d", focus), func(t *testing.T) {
			s := feed(t, "\r\nSuggestion:\r\n\r\n  find . -type f -size +100M\r\n\r\n",
				renderSelect(t, "Select an option", ghMenu, focus))
			e := ghEngine(t)
			if d := expect(t, e, s, true, "suggestion"); d.Command != "find . -type f -size +100M" {
				t.Errorf("command %q", d.Command)
			}
			d := expect(t, e, s, true, "select-option")
			moves := func(n int, up bool) string {
				k := "\x1b[B"
				if up {
					k = "\x1b[A"
				}
				return strings.Repeat(k, n) + "\r"
			}
			want := moves(max(2-focus, focus-2), focus > 2)
			if got := encode(t, d.Rule.Approve, s); got != want {
				t.Errorf("approve types %q, want %q", got, want)
			}
			if got := encode(t, d.Rule.Deny, s); got != moves(5-focus, false) {
				t.Errorf("deny types %q", got)
			}
		})
	}
}

func TestProfileGhCopilotSurveyQuestions(t *testing.T) {
	kinds := []string{"generic shell command", "gh command", "git command"}
	s := feed(t, renderSelect(t, "What kind of command can I help you with?", kinds, 1))
	d := expect(t, ghEngine(t), s, true, "what-kind")
	if got := encode(t, d.Rule.Approve, s); got != "\x1b[A\r" {
		t.Errorf("what-kind approve types %q", got)
	}

	input := render(t, survey.InputQuestionTemplate, survey.InputTemplateData{
		Input: survey.Input{Message: "What would you like the shell command to do?"}, Config: surveyConfig})
	s = feed(t, input)
	expect(t, ghEngine(t), s, false, "ask-prompt")

	confirm := render(t, survey.ConfirmQuestionTemplate, survey.ConfirmTemplateData{
		Confirm: survey.Confirm{Message: "Are you sure you want to execute the suggested command?", Default: true}, Config: surveyConfig})
	s = feed(t, confirm)
	d = expect(t, ghEngine(t), s, false, "execute-confirm")
	if d.Prompt != "Are you sure you want to execute the suggested command?" {
		t.Errorf("prompt %q", d.Prompt)
	}
	// Answered: survey redraws the question with the answer; nothing fires.
	answered := render(t, survey.ConfirmQuestionTemplate, survey.ConfirmTemplateData{
		Confirm: survey.Confirm{Message: "Are you sure you want to execute the suggested command?", Default: true},
		Answer:  "Yes", Config: surveyConfig})
	s = feed(t, answered)
	expect(t, ghEngine(t), s, true, "")
}
