package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/providers"
)

func newDoctorCmd(ios *IOStreams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Show which provider CLIs are installed, their modes, and what to fix",
		Long: `doctor checks each provider yume-cli knows: is it installed, where, which
version, which modes that version supports (acp, json, pty), whether credentials
appear configured (presence only: nothing is sent anywhere, no secret is printed),
and what to run to fix what is missing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			statuses := providers.Doctor(cmd.Context())
			if asJSON {
				enc := json.NewEncoder(ios.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(statuses)
			}
			printDoctor(ios, statuses)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

func printDoctor(ios *IOStreams, statuses []providers.Status) {
	tw := tabwriter.NewWriter(ios.Out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROVIDER\tINSTALLED\tVERSION\tMODES\tCREDENTIALS\tPATH")
	for _, s := range statuses {
		creds := "-"
		if s.Credentials {
			creds = "yes (" + s.CredentialSource + ")"
		} else if s.Installed {
			creds = "not found"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.Name, yesNo(s.Installed), orDash(s.Version),
			orDash(strings.Join(s.Modes, ",")), creds, orDash(s.Path))
	}
	_ = tw.Flush() // Best effort: a closed stdout has no reader to tell.
	for _, s := range statuses {
		for i, p := range s.Problems {
			fix := ""
			if i < len(s.Fix) {
				fix = ": " + s.Fix[i]
			}
			fmt.Fprintf(ios.Out, "%s: %s%s\n", s.Name, p, fix)
		}
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
