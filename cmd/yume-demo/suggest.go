package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/AlecAivazis/survey/v2"
	"github.com/AlecAivazis/survey/v2/terminal"
	"golang.org/x/term"
)

// Options are what `yume-demo suggest` was asked to do.
type Options struct {
	IO *IOStreams

	Target   string // shell, gh or git; empty: ask
	Prompt   string // what the command should do; empty: ask
	Forced   string // --suggest: use this command as the first suggestion
	ShellOut string // -s: write the command here on Execute instead of running it
}

// Wording copied from gh-copilot 1.x transcripts (GitHub issues
// github/gh-copilot#37, #69, #177 and its README); keep it byte for byte,
// the copilot-legacy rules match on it.
const (
	banner = "\nWelcome to GitHub Copilot in the CLI!\n" +
		"version 1.1.1 (2025-06-17)\n\n" +
		"I'm powered by AI, so surprises and mistakes are possible. Make sure to verify any generated code or suggestions, and share feedback so that we can learn and improve. For more information, see https://gh.io/gh-copilot-transparency\n\n"
	kindQuestion    = "What kind of command can I help you with?"
	optionQuestion  = "Select an option"
	reviseQuestion  = "How should this be revised?"
	confirmQuestion = "Are you sure you want to execute the suggested command?"
	// The rating question is not in any transcript found; wording is ours.
	rateQuestion = "Rate this response"
)

// The "Select an option" menu, in gh-copilot's order.
const (
	optCopy    = "Copy command to clipboard"
	optExplain = "Explain command"
	optExecute = "Execute command"
	optRevise  = "Revise command"
	optRate    = "Rate response"
	optExit    = "Exit"
)

var menu = []string{optCopy, optExplain, optExecute, optRevise, optRate, optExit}

// runSuggest is the whole interactive session. It returns nil after Exit,
// and an *exitError for any other ending (the executed command's status,
// Ctrl-C as 130, a terminal error as 1).
func runSuggest(o *Options) error {
	if !term.IsTerminal(int(o.IO.In.Fd())) {
		return &exitError{code: 1, msg: "yume-demo asks questions and needs an interactive terminal on stdin; run it in a terminal or under yume-cli"}
	}
	installTemplates()
	s := &session{o: o, out: o.IO.Out}
	fmt.Fprint(s.out, banner)

	target := o.Target
	if target == "" {
		var kind string
		if err := s.ask(&survey.Select{Message: kindQuestion, Options: kindLabels()}, &kind); err != nil {
			return err
		}
		target = targetForLabel(kind)
	}
	prompt := o.Prompt
	if prompt == "" {
		q := fmt.Sprintf("What would you like the %s command to do?", target)
		if err := s.ask(&survey.Input{Message: q}, &prompt, survey.WithValidator(survey.Required)); err != nil {
			return err
		}
	}
	cmd := o.Forced
	if cmd == "" {
		cmd = Suggest(target, prompt)
	}
	return s.loop(target, cmd)
}

type session struct {
	o   *Options
	out io.Writer
}

// loop shows the suggestion and answers menu choices until Exit or Execute.
func (s *session) loop(target, cmd string) error {
	s.printSuggestion(cmd)
	for {
		var choice string
		if err := s.ask(&survey.Select{Message: optionQuestion, Options: menu}, &choice); err != nil {
			return err
		}
		switch choice {
		case optCopy:
			// Never touch the real clipboard: this is a demo.
			fmt.Fprint(s.out, "Command copied to clipboard!\n\n")
		case optExplain:
			fmt.Fprintf(s.out, "Explanation:\n\n%s\n\n", strings.Join(Explain(target, cmd), "\n"))
		case optExecute:
			yes := true
			if err := s.ask(&survey.Confirm{Message: confirmQuestion, Default: true}, &yes); err != nil {
				return err
			}
			if yes {
				return s.execute(cmd)
			}
		case optRevise:
			var revision string
			if err := s.ask(&survey.Input{Message: reviseQuestion}, &revision, survey.WithValidator(survey.Required)); err != nil {
				return err
			}
			cmd = Revise(target, cmd, revision)
			s.printSuggestion(cmd)
		case optRate:
			var rating string
			if err := s.ask(&survey.Select{Message: rateQuestion, Options: []string{"Good", "Bad"}}, &rating); err != nil {
				return err
			}
			fmt.Fprint(s.out, "Thanks for the feedback!\n\n")
		case optExit:
			return nil
		}
	}
}

func (s *session) printSuggestion(cmd string) {
	fmt.Fprintf(s.out, "Suggestion:\n\n  %s\n\n", cmd)
}

// ask runs one survey prompt on the session's terminal, then leaves the blank
// line gh-copilot prints after every answered question.
func (s *session) ask(p survey.Prompt, answer interface{}, opts ...survey.AskOpt) error {
	opts = append(opts, survey.WithStdio(s.o.IO.In, s.o.IO.Out, s.o.IO.ErrOut))
	err := survey.AskOne(p, answer, opts...)
	switch {
	case err == nil:
		fmt.Fprint(s.out, "\n")
		return nil
	case errors.Is(err, terminal.InterruptErr):
		// Ctrl-C: leave the half-answered prompt's line, say nothing more.
		fmt.Fprint(s.out, "\n")
		return &exitError{code: 130}
	case errors.Is(err, io.EOF):
		return &exitError{code: 1, msg: "the terminal closed before the question was answered"}
	default:
		return &exitError{code: 1, msg: fmt.Sprintf("cannot ask on this terminal (%v); run yume-demo in an interactive terminal or under yume-cli", err)}
	}
}

func kindLabels() []string {
	labels := make([]string, len(kindChoices))
	for i, k := range kindChoices {
		labels[i] = k.label
	}
	return labels
}

func targetForLabel(label string) string {
	for _, k := range kindChoices {
		if k.label == label {
			return k.target
		}
	}
	return targetShell
}
