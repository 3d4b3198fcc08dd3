package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/kballard/go-shellquote"
	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/heuristics/suggest"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/run"
)

// RulesSuggestOptions is what `yume-cli rules suggest` was asked to do.
type RulesSuggestOptions struct {
	IO *run.IOStreams

	File      string
	Output    string
	Name      string
	Overwrite bool
}

// NewCmdRulesSuggest builds `rules suggest`; runF replaces runRulesSuggest
// in tests of flag parsing.
func NewCmdRulesSuggest(ios *run.IOStreams, runF func(*RulesSuggestOptions) error) *cobra.Command {
	o := &RulesSuggestOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "suggest FILE.cast",
		Short: "Propose a rule profile from a recording of a person answering a program",
		Long: `suggest reads a recording of a person using a program (from "yume-cli
record -- CMD") and proposes a rule profile for the questions they answered:
for each answer, a rule that matches the question row (and the row above it,
as context) with the variable parts generalised, its kind (confirm, menu or
input), the keys the person typed as approve (or deny, when they said no)
and the opposite answer.

The profile is a starting point for a person to review, not a finished one:
it is generalised from one recording. It passes "rules check" and, unedited,
answers its own recording as the person did:

  yume-cli replay FILE.cast --provider generic --rules PROFILE.yaml --approve …

(the --approve value to use is in the profile's header). Without -o the
profile goes to stdout.`,
		Example: `  yume-cli record -o gdb.cast -- gdb -q ./prog
  yume-cli rules suggest gdb.cast -o gdb.yaml
  yume-cli replay gdb.cast --provider generic --rules gdb.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.File = args[0]
			if runF != nil {
				return runF(o)
			}
			return runRulesSuggest(o)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&o.Output, "output", "o", "", "profile file to write (default: stdout)")
	fs.StringVar(&o.Name, "name", "", "profile name (default: from the recorded command)")
	fs.BoolVar(&o.Overwrite, "overwrite", false, "replace the -o file if it exists")
	return cmd
}

func runRulesSuggest(o *RulesSuggestOptions) error {
	f, err := os.Open(o.File)
	if err != nil {
		return fmt.Errorf("rules suggest: %w", err)
	}
	cast, err := recordings.Read(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("rules suggest: %s: %w", o.File, err)
	}
	p, err := suggest.FromCast(cast, suggest.Options{Name: o.Name, File: o.File, Output: o.Output})
	if err != nil {
		return fmt.Errorf("rules suggest: %s: %w", o.File, err)
	}
	data := p.YAML()
	// What is written must be a profile the rules parser accepts.
	if _, err := heuristics.ParseProfile(orStdout(o.Output), data); err != nil {
		return fmt.Errorf("rules suggest: the suggested profile does not parse (a bug): %w", err)
	}
	skipped := 0
	for _, a := range p.Answers {
		if a.Rule == nil {
			skipped++
		}
	}
	if o.Output == "" {
		if _, err := o.IO.Out.Write(data); err != nil {
			return err
		}
	} else if err := writeNew(o.Output, data, o.Overwrite); err != nil {
		return err
	}
	fmt.Fprintf(o.IO.ErrOut, "yume-cli: %d rules from %d answers in %s", len(p.Rules), len(p.Answers), o.File)
	if skipped > 0 {
		fmt.Fprintf(o.IO.ErrOut, " (%d answers made no rule: see the header)", skipped)
	}
	fmt.Fprintln(o.IO.ErrOut, "; review the profile before you use it")
	if o.Output != "" {
		fmt.Fprintf(o.IO.ErrOut, "yume-cli: check its answers with: yume-cli replay %s --provider generic --rules %s --approve %s\n",
			shellquote.Join(o.File), shellquote.Join(o.Output), p.ApproveFlag())
	}
	return nil
}

func orStdout(name string) string {
	if name == "" {
		return "<stdout>"
	}
	return name
}

// writeNew writes a file, refusing to replace one unless overwrite is set.
func writeNew(name string, data []byte, overwrite bool) error {
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if overwrite {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(name, flags, 0o644)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%s already exists: pass --overwrite to replace it, or -o another file", name)
	}
	if err != nil {
		return fmt.Errorf("rules suggest: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("rules suggest: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("rules suggest: %w", err)
	}
	return nil
}
