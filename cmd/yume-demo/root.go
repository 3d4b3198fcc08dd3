package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/AlecAivazis/survey/v2/terminal"
	"github.com/spf13/cobra"
)

// IOStreams are the terminal the session talks to. Survey needs file-backed
// streams (it puts the terminal in raw mode through their descriptors), so
// they are terminal.FileReader/FileWriter rather than plain io types.
type IOStreams struct {
	In     terminal.FileReader
	Out    terminal.FileWriter
	ErrOut io.Writer
}

func defaultIO() *IOStreams {
	return &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
}

// exitError carries a process exit status out of a cobra RunE. A zero-length
// message means "exit quietly" (Ctrl-C, or the status of an executed command).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// Main runs yume-demo with args (without the program name) and returns the
// process exit status.
func Main(args []string, streams *IOStreams) int {
	root := newRootCmd(streams, runSuggest)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintf(streams.ErrOut, "✗ Error: %s\n", ee.msg)
		}
		return ee.code
	}
	// Flag and argument errors from cobra: print them once, as gh does.
	fmt.Fprintf(streams.ErrOut, "✗ Error: %s\nRun 'yume-demo suggest --help' for usage.\n", err)
	return 1
}

// newRootCmd builds `yume-demo [flags] [PROMPT]` with the subcommand
// `yume-demo suggest [flags] [PROMPT]`; both run runF with the parsed options
// (tests pass their own runF to check flag parsing).
func newRootCmd(streams *IOStreams, runF func(*Options) error) *cobra.Command {
	root := &cobra.Command{
		Use:   "yume-demo [PROMPT]",
		Short: "Offline stand-in for the legacy `gh copilot suggest` (no network, no account)",
		Long: "yume-demo behaves like the legacy `gh copilot suggest` of the 1.x era so that\n" +
			"yume-cli can be tried without any provider CLI: same questions, same menu.\n" +
			"Suggestions come from a small built-in table; nothing leaves this machine.",
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	suggest := &cobra.Command{
		Use:   "suggest [PROMPT]",
		Short: "Suggest a command based on a natural language description",
		Example: "  yume-demo suggest \"list files\"\n" +
			"  yume-demo suggest -t git \"undo the last commit\"\n" +
			"  yume-demo suggest -t shell --suggest 'echo hi' \"say hi\"",
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	for _, c := range []*cobra.Command{root, suggest} {
		opts := &Options{IO: streams}
		c.Flags().StringVarP(&opts.Target, "target", "t", "", "Target for suggestion; must be shell, gh, git")
		c.Flags().StringVar(&opts.Forced, "suggest", "", "Always suggest this command (for demos and tests)")
		c.Flags().StringVarP(&opts.ShellOut, "shell-out", "s", "", "Path to file for outputting command to execute instead of running it")
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if opts.Target != "" && !validTarget(opts.Target) {
				return fmt.Errorf("invalid target %q: use -t shell, -t gh or -t git", opts.Target)
			}
			opts.Prompt = strings.TrimSpace(strings.Join(args, " "))
			return runF(opts)
		}
	}
	root.AddCommand(suggest)
	return root
}
