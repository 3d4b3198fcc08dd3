package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/run"
)

// Main runs yume-cli with args and returns the process exit code:
// 0 success, 1 runtime error, 2 usage error.
func Main(args []string, ios *run.IOStreams) int {
	root, opts := newRootCmd(ios, nil)
	ran := root // the command that ran (or failed to parse)
	kept, ignored, err := newerFlags(root, args)
	if err == nil {
		for _, f := range ignored {
			note := ignoredNote(f)
			opts.Newer = append(opts.Newer, note)
			fmt.Fprintln(ios.ErrOut, note)
		}
		// Not nil where every argument was ignored: cobra reads os.Args
		// again for nil, and fails on the flag it was told to ignore.
		root.SetArgs(append([]string{}, kept...))
		if c, cerr := root.ExecuteC(); c != nil {
			ran, err = c, cerr
		} else {
			err = cerr
		}
	}
	if err == nil {
		return 0
	}
	if !opts.OutputWritten() {
		// The run stopped before it started (a flag it cannot take):
		// Yume still finds the file it reads.
		if opts.OutputFile == "" {
			opts.OutputFile, opts.SessionID = argValue(args, "output-file"), argValue(args, "session-id")
		}
		opts.FailOutput(err)
	}
	var ee *run.ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	code := 1
	var ue *usageError
	if errors.As(err, &ue) {
		code = 2
	}
	msg := err.Error()
	if code == 2 {
		help := "yume-cli"
		if ue.help != "" {
			help = ue.help
		}
		msg += "\nRun '" + help + " --help' for usage."
	}
	fmt.Fprintf(ios.ErrOut, "yume-cli: %s\n", msg)
	if ran == root || ran.Name() == "start" {
		// A session's format is stream-json (the only one): Yume reads
		// the error from stdout, however the flags said it or not.
		reportStream(ios.Out, err)
	}
	return code
}

// NewRootCmd builds the command tree. The root command is the start
// command, because Yume's spawner passes flags with no subcommand. runF
// replaces the run function in tests of flag parsing.
func NewRootCmd(ios *run.IOStreams, runF func(*StartOptions) error) *cobra.Command {
	root, _ := newRootCmd(ios, runF)
	return root
}

// newRootCmd is NewRootCmd with the options its start command fills in.
func newRootCmd(ios *run.IOStreams, runF func(*StartOptions) error) (*cobra.Command, *StartOptions) {
	opts := &StartOptions{Config: run.Config{IO: ios}}
	root := &cobra.Command{
		Use:   "yume-cli [flags] [-- CMD ARGS…]",
		Short: "Drive coding CLIs as if they were Claude Code",
		Long: `yume-cli runs a coding CLI (GitHub Copilot, Claude Code, Gemini, Codex, aider,
or any program that asks "Run this? (y/n)") and speaks Claude Code's stream-json
on stdout, so Yume can show its work and approve or deny the commands it runs.

Interactive programs run in a pseudo-terminal: yume-cli keeps a virtual screen,
recognises suggested commands and confirmation prompts with rule profiles, emits
a Bash tool_use, waits for an approval frame on stdin, and types the answer.`,
		Example: `  # What Yume runs:
  yume-cli --provider gemini --model gemini-2.5-pro --cwd . --prompt "fix the test" --output-format stream-json --verbose

  # Any y/n program, approvals typed as JSON lines on stdin:
  yume-cli --permission-mode interactive --provider generic -- rm -i notes.txt
  {"type":"tool_approval","id":"toolu_…","approved":true}`,
		Version:       versionString(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          dashArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return startRunE(cmd, args, opts, runF)
		},
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(flagError)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	addStartFlags(root.Flags(), opts)

	start := &cobra.Command{
		Use:   "start [flags] [-- CMD ARGS…]",
		Short: "Start a session (the same as running yume-cli with no subcommand)",
		Args:  dashArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return startRunE(cmd, args, opts, runF)
		},
	}
	addStartFlags(start.Flags(), opts)
	root.AddCommand(start, NewCmdDoctor(ios, nil), NewCmdRecord(ios, nil), NewCmdReplay(ios, nil),
		newRulesCmd(ios), newSessionsCmd(ios), NewCmdVersion(ios, nil))
	usageArgs(root)
	registerCompletions(root)
	return root, opts
}

// aliasHelp says which provider each alias names ("; anthropic is
// claude, openai is codex").
func aliasHelp() string {
	var said []string
	for _, p := range providers.All() {
		for _, a := range p.Aliases {
			said = append(said, a+" is "+p.Name)
		}
	}
	if len(said) == 0 {
		return ""
	}
	sort.Strings(said)
	return "; " + strings.Join(said, ", ")
}

// dashArgs accepts positional arguments only after "--".
func dashArgs(cmd *cobra.Command, args []string) error {
	dash := cmd.ArgsLenAtDash()
	if dash < 0 && len(args) > 0 || dash > 0 {
		extra := args
		if dash > 0 {
			extra = args[:dash]
		}
		if s := cmd.Root().SuggestionsFor(extra[0]); len(s) > 0 {
			return usagef("unexpected argument %q: did you mean the subcommand %q? (a program to run goes after --)", extra[0], s[0])
		}
		return usagef("unexpected argument %q: subcommands are %s; a program to run goes after --", extra[0], subcommandNames(cmd.Root()))
	}
	return nil
}

func subcommandNames(root *cobra.Command) string {
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return strings.Join(names, ", ")
}

func startRunE(cmd *cobra.Command, args []string, opts *StartOptions, runF func(*StartOptions) error) error {
	opts.Started = time.Now()
	if dash := cmd.ArgsLenAtDash(); dash >= 0 {
		opts.Command = args[dash:]
	}
	opts.ColsSet = cmd.Flags().Changed("cols")
	if err := opts.applySettings(cmd.Flags()); err != nil {
		opts.FailOutput(err)
		return err
	}
	if err := opts.validate(); err != nil {
		opts.FailOutput(err)
		return err
	}
	if runF != nil {
		return runF(opts)
	}
	return run.Start(cmd.Context(), &opts.Config)
}

func addStartFlags(fs *pflag.FlagSet, o *StartOptions) {
	fs.StringVarP(&o.ProviderName, "provider", "P", "", "provider to drive: "+strings.Join(providers.Names(), ", ")+aliasHelp())
	fs.StringVarP(&o.Model, "model", "m", "", "model name passed to the provider")
	fs.StringVarP(&o.Cwd, "cwd", "d", "", "working directory of the session (default: current directory)")
	fs.StringVarP(&o.Resume, "resume", "r", "", "continue the conversation whose first init said this session_id (yume-cli sessions list)")
	fs.StringVar(&o.HistoryFile, "history-file", "", "the conversation so far (JSON), given to a provider session that has not seen it")
	fs.StringVar(&o.APIBase, "api-base", "", "the provider's API endpoint (sets its base-URL variable, e.g. ANTHROPIC_BASE_URL)")
	fs.StringVarP(&o.Prompt, "prompt", "p", "", "the user's prompt for this turn")
	fs.StringVar(&o.OutputFormat, "output-format", outputFormats[0], "output format: stream-json (Claude Code's)")
	fs.BoolVarP(&o.Verbose, "verbose", "v", false, "log what yume-cli decides to stderr")
	fs.StringVar(&o.PermissionMode, "permission-mode", string(permission.Default), "default: ask the GUI, and with no approval channel the guard answers (settings.yaml no_channel); interactive: ask, a terminal too; auto: approve (never what the guard flags); deny: deny")
	fs.StringVar(&o.Mode, "mode", modes[0], "how to drive the provider: auto, pty, json, acp")
	fs.StringVar(&o.ProtocolName, "protocol-version", protocols[0], "event shapes: claude (nested messages) or flat")
	fs.StringVarP(&o.SessionID, "session-id", "s", "", "session id to report (default: a new one); without --prompt, a persistent session: one turn per user frame on stdin")
	fs.StringVar(&o.RulesFile, "rules", "", "rule profile file that adds to or overrides the provider's rules")
	fs.StringVar(&o.DangerFile, "dangerous-rules", "", "YAML file that adds to, replaces or turns off (off: true) dangerous-command rules (yume-cli rules dangerous prints the set)")
	fs.StringVar(&o.RecordFile, "record", "", "record the session as an asciinema v2 .cast file (secrets redacted, file mode 0600)")
	fs.BoolVar(&o.RecordRaw, "record-raw", false, "keep the program's bytes in the --record cast as they were, secrets included")
	fs.BoolVar(&o.Trace, "trace", false, "write one JSON line per heuristic decision to stderr")
	fs.StringVar(&o.TraceFile, "trace-file", "", "write the --trace lines to this file instead of stderr")
	fs.StringVar(&o.Bin, "bin", "", "path of the provider's program (default: looked up in PATH)")
	fs.IntVar(&o.Cols, "cols", 120, "terminal width the program sees")
	fs.IntVar(&o.Rows, "rows", 40, "terminal height the program sees")
	fs.DurationVar(&o.Bounds.Idle, "idle-timeout", driver.DefaultIdleTimeout, "end a PTY turn whose program sits at its input box with nothing ending the turn for this long")
	fs.DurationVar(&o.Bounds.Turn, "turn-timeout", driver.DefaultTurnTimeout, "end any turn that runs longer (interrupt and an error result; waiting for approval aside)")
	fs.DurationVar(&o.Bounds.Tool, "tool-timeout", driver.DefaultToolTimeout, "interrupt a command still running after this long (PTY; Ctrl-C or the program's interrupt key): its tool_result keeps the output so far and the turn goes on")
	fs.StringVar(&o.AgentType, "agent-type", "", "a Yume background agent's role, given to the agent as an instruction where its CLI takes one: "+strings.Join(run.AgentTypes(), ", "))
	fs.StringVar(&o.OutputFile, "output-file", "", "at the end, write Yume's AgentOutput JSON here (the history, usage, success, duration, turns), also when the run fails")
	fs.BoolVar(&o.Async, "async", false, "a background agent: progress lines on stderr as it works, and stdout and stderr never wait for a reader")
	fs.StringVar(&o.GitBranch, "git-branch", "", "before the turn, switch the working tree to this branch (made from HEAD when missing); a dirty tree stays where it is")
	fs.SortFlags = false
}
