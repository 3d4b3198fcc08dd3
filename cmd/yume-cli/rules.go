package main

import (
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/run"
	"github.com/yume-cli/yume-cli/settings"
)

// newRulesCmd is the `rules` group: list, check, dangerous, suggest, test.
func newRulesCmd(ios *run.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List the embedded rule profiles and check rule files",
	}
	cmd.AddCommand(NewCmdRulesList(ios, nil), NewCmdRulesCheck(ios, nil), NewCmdRulesDangerous(ios, nil),
		NewCmdRulesSuggest(ios, nil), NewCmdRulesTest(ios, nil))
	return cmd
}

// RulesListOptions is what `yume-cli rules list` was asked to do.
type RulesListOptions struct {
	IO *run.IOStreams
}

// NewCmdRulesList builds `rules list`; runF replaces runRulesList in tests
// of argument parsing.
func NewCmdRulesList(ios *run.IOStreams, runF func(*RulesListOptions) error) *cobra.Command {
	o := &RulesListOptions{IO: ios}
	return &cobra.Command{
		Use:   "list",
		Short: "List the embedded profiles and their rules",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(o)
			}
			return runRulesList(o)
		},
	}
}

func runRulesList(o *RulesListOptions) error {
	tw := tabwriter.NewWriter(o.IO.Out, 2, 4, 2, ' ', 0)
	for _, name := range heuristics.ProfileNames() {
		p, err := heuristics.LoadProfile(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%s\t%s\n", p.Name, p.Description)
		for _, r := range p.Rules {
			fmt.Fprintf(tw, "  %s\t%s\n", r.Name, r.Kind)
		}
	}
	return tw.Flush()
}

// RulesCheckOptions is what `yume-cli rules check` was asked to do.
type RulesCheckOptions struct {
	IO *run.IOStreams

	Files []string
}

// NewCmdRulesCheck builds `rules check`; runF replaces runRulesCheck in
// tests of argument parsing.
func NewCmdRulesCheck(ios *run.IOStreams, runF func(*RulesCheckOptions) error) *cobra.Command {
	o := &RulesCheckOptions{IO: ios}
	return &cobra.Command{
		Use:   "check FILE…",
		Short: "Validate rule files; errors point at the line and column",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.Files = args
			if runF != nil {
				return runF(o)
			}
			return runRulesCheck(o)
		},
	}
}

// runRulesCheck checks every file, reporting each bad one, then exits 1
// if any was.
func runRulesCheck(o *RulesCheckOptions) error {
	bad := 0
	for _, f := range o.Files {
		data, err := os.ReadFile(f)
		if err != nil {
			err = fmt.Errorf("%s: cannot read it (%v): give the path of a rule file (YAML)", f, unwrapPath(err))
		} else {
			var p *heuristics.Profile
			if p, err = heuristics.ParseProfile(f, data); err == nil {
				fmt.Fprintf(o.IO.Out, "%s: ok (profile %s, %d rules)\n", f, p.Name, len(p.Rules))
				continue
			}
		}
		bad++
		fmt.Fprintln(o.IO.ErrOut, err)
	}
	if bad > 0 {
		return &run.ExitError{Code: 1}
	}
	return nil
}

// RulesDangerousOptions is what `yume-cli rules dangerous` was asked to do.
type RulesDangerousOptions struct {
	IO *run.IOStreams

	File    string
	HasFile bool // FILE was given: "" too, which is read and fails
}

// NewCmdRulesDangerous builds `rules dangerous`; runF replaces
// runRulesDangerous in tests of argument parsing.
func NewCmdRulesDangerous(ios *run.IOStreams, runF func(*RulesDangerousOptions) error) *cobra.Command {
	o := &RulesDangerousOptions{IO: ios}
	return &cobra.Command{
		Use:   "dangerous [FILE]",
		Short: "Print the guard's dangerous-command set (with FILE: check it and print the set it makes)",
		Long: `dangerous prints the rules that mark a call as dangerous, with the settings
file's (guard.block, guard.allow) applied: such a tool_use carries
{"dangerous": REASON} and a system warning; with no approval channel the
guard blocks it; --permission-mode auto asks about it instead of approving
it (or denies it when nobody can be asked). Exceptions are listed last.
Start a --dangerous-rules file, or the settings' guard.block, from this.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.File, o.HasFile = args[0], true
			}
			if runF != nil {
				return runF(o)
			}
			return runRulesDangerous(o)
		},
	}
}

func runRulesDangerous(o *RulesDangerousOptions) error {
	s, err := settings.Load(settings.DefaultPath())
	if err != nil {
		return err
	}
	set := permission.DefaultDangers().With(s.Rules()).Excepting(s.Exceptions())
	if o.HasFile {
		data, err := os.ReadFile(o.File)
		if err != nil {
			return err
		}
		extra, err := permission.ParseDangers(o.File, data)
		if err != nil {
			return err
		}
		set = set.With(extra)
	}
	tw := tabwriter.NewWriter(o.IO.Out, 2, 4, 2, ' ', 0)
	for _, r := range set.Rules() {
		how := r.Scope + " " + r.Match
		switch {
		case r.Check != "" && len(r.Paths) > 0:
			how = "(built in: " + r.Check + ") " + strings.Join(r.Paths, " ")
		case r.Check != "":
			how = "(built in: " + r.Check + ")"
		case r.Scope == "":
			how = "line " + r.Match
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, r.Reason, how)
	}
	for _, x := range set.Exceptions() {
		fmt.Fprintf(tw, "allow\t%s\t%s\n", x.Reason, x.Match)
	}
	return tw.Flush()
}
