package main

import (
	"sync"

	"github.com/AlecAivazis/survey/v2"
)

// gh-copilot kept survey's prompts (the "? " icon, "> " focus marker and
// "[Use arrows to move, type to filter]" hint) but printed an answered
// question as two lines, the answer under the question behind "> ":
//
//	? Select an option
//	> Execute command
//
// survey's defaults print "? Select an option Execute command" on one line,
// so the answered branches of its package-level templates are replaced. The
// unanswered Select and Confirm branches are survey's own, byte for byte.
// An Input waits for its text on the line below, behind "> ", as answered.

const selectTemplate = `
{{- define "option"}}
    {{- if eq .SelectedIndex .CurrentIndex }}{{color .Config.Icons.SelectFocus.Format }}{{ .Config.Icons.SelectFocus.Text }} {{else}}{{color "default"}}  {{end}}
    {{- .CurrentOpt.Value}}{{ if ne ($.GetDescription .CurrentOpt) "" }} - {{color "cyan"}}{{ $.GetDescription .CurrentOpt }}{{end}}
    {{- color "reset"}}
{{end}}
{{- if .ShowHelp }}{{- color .Config.Icons.Help.Format }}{{ .Config.Icons.Help.Text }} {{ .Help }}{{color "reset"}}{{"\n"}}{{end}}
{{- color .Config.Icons.Question.Format }}{{ .Config.Icons.Question.Text }} {{color "reset"}}
{{- color "default+hb"}}{{ .Message }}{{ .FilterMessage }}{{color "reset"}}
{{- if .ShowAnswer}}{{"\n"}}{{color "cyan"}}> {{.Answer}}{{color "reset"}}{{"\n"}}
{{- else}}
  {{- "  "}}{{- color "cyan"}}[Use arrows to move, type to filter{{- if and .Help (not .ShowHelp)}}, {{ .Config.HelpInput }} for more help{{end}}]{{color "reset"}}
  {{- "\n"}}
  {{- range $ix, $option := .PageEntries}}
    {{- template "option" $.IterateOption $ix $option}}
  {{- end}}
{{- end}}`

const inputTemplate = `
{{- if .ShowHelp }}{{- color .Config.Icons.Help.Format }}{{ .Config.Icons.Help.Text }} {{ .Help }}{{color "reset"}}{{"\n"}}{{end}}
{{- color .Config.Icons.Question.Format }}{{ .Config.Icons.Question.Text }} {{color "reset"}}
{{- color "default+hb"}}{{ .Message }}{{color "reset"}}{{"\n"}}
{{- if .ShowAnswer}}
  {{- color "cyan"}}> {{.Answer}}{{color "reset"}}{{"\n"}}
{{- else }}
  {{- "> "}}{{- if .Default}}{{color "white"}}({{.Default}}) {{color "reset"}}{{end}}
{{- end}}`

const confirmTemplate = `
{{- if .ShowHelp }}{{- color .Config.Icons.Help.Format }}{{ .Config.Icons.Help.Text }} {{ .Help }}{{color "reset"}}{{"\n"}}{{end}}
{{- color .Config.Icons.Question.Format }}{{ .Config.Icons.Question.Text }} {{color "reset"}}
{{- color "default+hb"}}{{ .Message }}{{color "reset"}}
{{- if .Answer}}
  {{- "\n"}}{{- color "cyan"}}> {{.Answer}}{{color "reset"}}{{"\n"}}
{{- else }}
  {{- " "}}
  {{- if and .Help (not .ShowHelp)}}{{color "cyan"}}[{{ .Config.HelpInput }} for help]{{color "reset"}} {{end}}
  {{- color "white"}}{{if .Default}}(Y/n) {{else}}(y/N) {{end}}{{color "reset"}}
{{- end}}`

var installTemplatesOnce sync.Once

// installTemplates swaps survey's templates for gh-copilot's. They are
// package variables in survey, so this is process-wide; yume-demo is the
// only user of survey in its process.
func installTemplates() {
	installTemplatesOnce.Do(func() {
		survey.SelectQuestionTemplate = selectTemplate
		survey.InputQuestionTemplate = inputTemplate
		survey.ConfirmQuestionTemplate = confirmTemplate
	})
}
