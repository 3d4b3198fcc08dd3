package main

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
)

// The command line's conventions, for every command: a usage error exits
// 2 and names the command's --help, says what would do instead of what a
// Go package said, and offers the name that was probably meant.

// usageArgs makes every command's argument errors usage errors, and a
// command group given an unknown subcommand one too, with a suggestion.
func usageArgs(c *cobra.Command) {
	for _, sub := range c.Commands() {
		usageArgs(sub)
	}
	c.SuggestionsMinimumDistance = 2
	check := c.Args
	if check == nil && !c.Runnable() && c.HasSubCommands() {
		// A group runs to say an unknown subcommand is one: cobra would
		// print the group's help and exit 0.
		check = unknownSubcommand
		c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	}
	if check == nil {
		return
	}
	c.Args = func(cmd *cobra.Command, args []string) error {
		err := check(cmd, args)
		var ue *usageError
		if err == nil || errors.As(err, &ue) {
			return err
		}
		return &usageError{msg: fmt.Sprintf("%s: %v (usage: %s)", commandName(cmd), err, cmd.UseLine()), help: cmd.CommandPath()}
	}
}

// unknownSubcommand rejects an argument to a command group (`rules
// tset`): cobra would print the group's help and exit 0.
func unknownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("%s has no subcommand %q", commandName(cmd), args[0])
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf(": did you mean %q?", s[0])
	}
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return &usageError{msg: msg + " (its subcommands: " + strings.Join(names, ", ") + ")", help: cmd.CommandPath()}
}

// commandName is the command's path under yume-cli ("rules check"), as
// an error after "yume-cli: " names it.
func commandName(cmd *cobra.Command) string {
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
}

// flagProblem is pflag's "invalid argument" error, whose reason is a Go
// parser's ("strconv.ParseInt: parsing \"abc\": invalid syntax").
var flagProblem = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?(--[\w-]+)" flag: (.*)$`)

// flagError says a bad flag value in words, with what the flag takes.
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	if m := flagProblem.FindStringSubmatch(msg); m != nil {
		value, flag, why := m[1], m[2], m[3]
		switch {
		case strings.Contains(why, "strconv.ParseInt"), strings.Contains(why, "strconv.ParseUint"):
			msg = fmt.Sprintf("invalid value %q for %s: give a whole number", value, flag)
		case strings.Contains(why, "strconv.ParseFloat"):
			msg = fmt.Sprintf("invalid value %q for %s: give a number", value, flag)
		case strings.Contains(why, "strconv.ParseBool"):
			msg = fmt.Sprintf("invalid value %q for %s: give true or false (or leave the value out for true)", value, flag)
		case strings.HasPrefix(why, "time: "):
			msg = fmt.Sprintf("invalid value %q for %s: give a duration such as 90s, 5m or 1h30m", value, flag)
		default:
			msg = fmt.Sprintf("invalid value %q for %s: %s", value, flag, why)
		}
	}
	return &usageError{msg: msg, help: cmd.CommandPath()}
}

// didYouMean is the option name most likely meant: the same letters in
// another case, else one at most two edits away.
func didYouMean(name string, options []string) string {
	best, bestD := "", 3
	for _, o := range options {
		if strings.EqualFold(o, name) {
			return o
		}
		if d := editDistance(strings.ToLower(name), o); d < bestD {
			best, bestD = o, d
		}
	}
	return best
}

// editDistance is Levenshtein's distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}

// unwrapPath is an OS error without the operation and path it repeats
// ("open /x: no such file or directory" is "no such file or directory").
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
