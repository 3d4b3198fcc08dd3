package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/run"
	"github.com/yume-cli/yume-cli/sessions"
)

// newSessionsCmd is `yume-cli sessions list|show|rm`: the conversations
// the store keeps ($YUME_HOME/sessions, else ~/.yume/sessions).
func newSessionsCmd(ios *run.IOStreams) *cobra.Command {
	return sessionsGroup(NewCmdSessionsList(ios, nil), NewCmdSessionsShow(ios, nil), NewCmdSessionsRm(ios, nil))
}

// sessionsGroup is the group over leaves. Its --json is persistent, so
// both `sessions --json list` and `sessions list --json` work; the leaves
// read it with groupJSON.
func sessionsGroup(leaves ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List, show and remove the stored conversations (--resume continues one)",
	}
	cmd.PersistentFlags().Bool("json", false, "print JSON instead of a table")
	cmd.AddCommand(leaves...)
	return cmd
}

// groupJSON is the group's --json as leaf cmd parsed it (false for a
// leaf run outside the group, which has no such flag).
func groupJSON(cmd *cobra.Command) bool {
	v, _ := cmd.Flags().GetBool("json")
	return v
}

func sessionStore() *sessions.Store { return sessions.Open(sessions.DefaultRoot()) }

// SessionsListOptions is what `yume-cli sessions list` was asked to do.
type SessionsListOptions struct {
	IO *run.IOStreams

	JSON bool
}

// NewCmdSessionsList builds `sessions list`; runF replaces runSessionsList
// in tests of flag parsing.
func NewCmdSessionsList(ios *run.IOStreams, runF func(*SessionsListOptions) error) *cobra.Command {
	o := &SessionsListOptions{IO: ios}
	return &cobra.Command{
		Use:   "list",
		Short: "The stored sessions, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.JSON = groupJSON(cmd)
			if runF != nil {
				return runF(o)
			}
			return runSessionsList(o)
		},
	}
}

func runSessionsList(o *SessionsListOptions) error {
	store := sessionStore()
	idx, err := store.List()
	if err != nil {
		return err
	}
	if o.JSON {
		return printJSON(o.IO, idx)
	}
	if len(idx) == 0 {
		fmt.Fprintf(o.IO.ErrOut, "no sessions in %s\n", store.Root())
		return nil
	}
	tw := tabwriter.NewWriter(o.IO.Out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tPROVIDER\tMODEL\tMESSAGES\tUPDATED\tTITLE")
	for _, e := range idx {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", e.ID, e.Provider, orDash(e.Model), e.MessageCount,
			e.Updated.Local().Format(time.DateTime), oneLine(e.Title, 60))
	}
	return tw.Flush()
}

// SessionsShowOptions is what `yume-cli sessions show` was asked to do.
type SessionsShowOptions struct {
	IO *run.IOStreams

	JSON bool
	ID   string
}

// NewCmdSessionsShow builds `sessions show`; runF replaces runSessionsShow
// in tests of flag parsing.
func NewCmdSessionsShow(ios *run.IOStreams, runF func(*SessionsShowOptions) error) *cobra.Command {
	o := &SessionsShowOptions{IO: ios}
	return &cobra.Command{
		Use:   "show ID",
		Short: "One session: its provider, handle and history",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.JSON, o.ID = groupJSON(cmd), args[0]
			if runF != nil {
				return runF(o)
			}
			return runSessionsShow(o)
		},
	}
}

func runSessionsShow(o *SessionsShowOptions) error {
	sess, err := sessionStore().Load(o.ID)
	if err != nil {
		return sessionErr(err, o.ID)
	}
	if o.JSON {
		return printJSON(o.IO, sess)
	}
	tw := tabwriter.NewWriter(o.IO.Out, 2, 4, 2, ' ', 0)
	for _, kv := range [][2]string{{"id", sess.ID}, {"provider", sess.Provider}, {"model", orDash(sess.Model)},
		{"cwd", orDash(sess.Cwd)}, {"mode", orDash(sess.Mode)}, {"handle", orDash(sess.Handle)},
		{"created", sess.Created.Local().Format(time.DateTime)}, {"updated", sess.Updated.Local().Format(time.DateTime)},
		{"tokens", fmt.Sprintf("%d in, %d out", sess.Usage.InputTokens, sess.Usage.OutputTokens)}} {
		fmt.Fprintf(tw, "%s:\t%s\n", kv[0], kv[1])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(o.IO.Out)
	for _, e := range sess.History {
		fmt.Fprintf(o.IO.Out, "%-11s %s\n", e.Role, historyLine(e))
	}
	return nil
}

// SessionsRmOptions is what `yume-cli sessions rm` was asked to do.
type SessionsRmOptions struct {
	IO *run.IOStreams

	IDs []string
}

// NewCmdSessionsRm builds `sessions rm`; runF replaces runSessionsRm in
// tests of argument parsing.
func NewCmdSessionsRm(ios *run.IOStreams, runF func(*SessionsRmOptions) error) *cobra.Command {
	o := &SessionsRmOptions{IO: ios}
	return &cobra.Command{
		Use:   "rm ID…",
		Short: "Remove sessions from the store (the provider's own session is left alone)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.IDs = args
			if runF != nil {
				return runF(o)
			}
			return runSessionsRm(o)
		},
	}
}

// runSessionsRm removes every id it can, and reports each it cannot.
func runSessionsRm(o *SessionsRmOptions) error {
	var errs []error
	for _, id := range o.IDs {
		if err := sessionStore().Remove(id); err != nil {
			errs = append(errs, sessionErr(err, id))
			continue
		}
		fmt.Fprintf(o.IO.ErrOut, "removed %s\n", id)
	}
	return errors.Join(errs...)
}

func sessionErr(err error, id string) error {
	if errors.Is(err, sessions.ErrNotFound) {
		return fmt.Errorf("no session %s: `yume-cli sessions list` shows the stored ones", id)
	}
	return err
}

// historyLine is one history entry on one line.
func historyLine(e sessions.Entry) string {
	switch e.Role {
	case "tool_use":
		b, _ := json.Marshal(e.Input)
		return e.Tool + " " + oneLine(string(b), 100)
	case "tool_result":
		if e.IsError {
			return "(error) " + oneLine(e.Text, 100)
		}
	}
	return oneLine(e.Text, 110)
}

func printJSON(ios *run.IOStreams, v any) error {
	enc := json.NewEncoder(ios.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// oneLine is s on one line, at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
