package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/run"
	"github.com/yume-cli/yume-cli/sessions"
)

// registerCompletions gives the shell completion (`yume-cli completion
// bash`) the values each flag and argument takes, on every command that
// has it: providers, modes, permission modes, formats, failure kinds and
// the stored session ids.
func registerCompletions(root *cobra.Command) {
	values := map[string]func() []string{
		"provider":         providers.Names,
		"mode":             func() []string { return modes },
		"permission-mode":  permission.Names,
		"output-format":    func() []string { return outputFormats },
		"protocol-version": func() []string { return protocols },
		"agent-type":       run.AgentTypes,
		"allow":            func() []string { return failKinds },
		"approve":          func() []string { return []string{"recorded", "all", "none"} },
		"resume":           storedSessionIDs,
		"session-id":       storedSessionIDs,
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, list := range values {
			if c.Flags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, complete(list)) // Only fails for a flag registered twice.
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if show, _, err := root.Find([]string{"sessions", "show"}); err == nil && show.Name() == "show" {
		show.ValidArgsFunction = completeArgs(storedSessionIDs, 1)
	}
	if rm, _, err := root.Find([]string{"sessions", "rm"}); err == nil && rm.Name() == "rm" {
		rm.ValidArgsFunction = completeArgs(storedSessionIDs, -1)
	}
}

func complete(list func() []string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
		return withPrefix(list(), prefix), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeArgs completes up to n arguments (-1: any number) from list.
func completeArgs(list func() []string, n int) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		if n >= 0 && len(args) >= n {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return withPrefix(list(), prefix), cobra.ShellCompDirectiveNoFileComp
	}
}

func withPrefix(all []string, prefix string) []string {
	var out []string
	for _, v := range all {
		if strings.HasPrefix(v, prefix) {
			out = append(out, v)
		}
	}
	return out
}

// storedSessionIDs are the ids of the stored sessions, newest first.
func storedSessionIDs() []string {
	idx, err := sessions.Open(sessions.DefaultRoot()).List()
	if err != nil {
		return nil
	}
	ids := make([]string, 0, len(idx))
	for _, e := range idx {
		ids = append(ids, e.ID)
	}
	return ids
}
