package main

import (
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
)

func newRulesCmd(ios *IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List the embedded rule profiles and check rule files",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the embedded profiles and their rules",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			tw := tabwriter.NewWriter(ios.Out, 2, 4, 2, ' ', 0)
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
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "check FILE…",
		Short: "Validate rule files; errors point at the line and column",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, files []string) error {
			bad := 0
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err == nil {
					var p *heuristics.Profile
					if p, err = heuristics.ParseProfile(f, data); err == nil {
						fmt.Fprintf(ios.Out, "%s: ok (profile %s, %d rules)\n", f, p.Name, len(p.Rules))
						continue
					}
				}
				bad++
				fmt.Fprintln(ios.ErrOut, err)
			}
			if bad > 0 {
				return &exitError{1}
			}
			return nil
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "dangerous [FILE]",
		Short: "Print the dangerous-command set (with FILE: check it and print the set it makes)",
		Long: `dangerous prints the rules that mark a command as dangerous: such a
tool_use carries {"dangerous": REASON} and a system warning, and
--permission-mode auto asks about it instead of approving it (or denies
it when nobody can be asked). Start a --dangerous-rules file from this.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			set := permission.DefaultDangers()
			if len(args) == 1 {
				data, err := os.ReadFile(args[0])
				if err != nil {
					return err
				}
				extra, err := permission.ParseDangers(args[0], data)
				if err != nil {
					return err
				}
				set = set.With(extra)
			}
			tw := tabwriter.NewWriter(ios.Out, 2, 4, 2, ' ', 0)
			for _, r := range set.Rules() {
				how := r.Match
				if r.Check != "" {
					how = "(built in: " + r.Check + ")"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, r.Reason, how)
			}
			return tw.Flush()
		},
	})
	cmd.AddCommand(NewCmdRulesSuggest(ios, nil))
	return cmd
}
