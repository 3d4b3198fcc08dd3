package main

import (
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/heuristics"
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
	return cmd
}
