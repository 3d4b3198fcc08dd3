package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/structured"
)

func init() { extraCommands = append(extraCommands, newDoctorCmd) }

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
			statuses := doctorStatuses(cmd)
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

// doctorStatuses covers the structured providers and the PTY-only ones.
func doctorStatuses(cmd *cobra.Command) []structured.ProviderStatus {
	statuses := structured.Doctor(cmd.Context())
	known := map[string]bool{}
	for _, s := range statuses {
		known[s.Name] = true
	}
	for _, p := range providerTable {
		if known[p.name] || p.bin == "" {
			continue
		}
		s := structured.ProviderStatus{Name: p.name, Modes: []string{}}
		if path, err := exec.LookPath(p.bin); err == nil {
			s.Installed, s.Path, s.Modes = true, path, []string{"pty"}
		} else {
			s.Problems = []string{p.bin + " is not in PATH"}
			s.Fix = []string{ptyInstallHint[p.name]}
		}
		statuses = append(statuses, s)
	}
	return statuses
}

var ptyInstallHint = map[string]string{
	"gh-copilot": "install the GitHub CLI and `gh extension install github/gh-copilot` (deprecated; the copilot provider is its successor)",
	"aider":      "install aider: https://aider.chat/docs/install.html",
}

func printDoctor(ios *IOStreams, statuses []structured.ProviderStatus) {
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
