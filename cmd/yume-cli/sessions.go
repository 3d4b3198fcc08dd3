package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/sessions"
)

// newSessionsCmd is `yume-cli sessions list|show|rm`: the conversations
// the store keeps ($YUME_HOME/sessions, else ~/.yume/sessions).
func newSessionsCmd(ios *IOStreams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List, show and remove the stored conversations (--resume continues one)",
	}
	cmd.PersistentFlags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	store := func() *sessions.Store { return sessions.Open(sessions.DefaultRoot()) }
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "The stored sessions, newest first",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			idx, err := store().List()
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(ios, idx)
			}
			if len(idx) == 0 {
				fmt.Fprintf(ios.ErrOut, "no sessions in %s\n", store().Root())
				return nil
			}
			tw := tabwriter.NewWriter(ios.Out, 2, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tPROVIDER\tMODEL\tMESSAGES\tUPDATED\tTITLE")
			for _, e := range idx {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", e.ID, e.Provider, orDash(e.Model), e.MessageCount,
					e.Updated.Local().Format(time.DateTime), oneLine(e.Title, 60))
			}
			return tw.Flush()
		},
	}, &cobra.Command{
		Use:   "show ID",
		Short: "One session: its provider, handle and history",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			sess, err := store().Load(args[0])
			if err != nil {
				return sessionErr(err, args[0])
			}
			if asJSON {
				return printJSON(ios, sess)
			}
			tw := tabwriter.NewWriter(ios.Out, 2, 4, 2, ' ', 0)
			for _, kv := range [][2]string{{"id", sess.ID}, {"provider", sess.Provider}, {"model", orDash(sess.Model)},
				{"cwd", orDash(sess.Cwd)}, {"mode", orDash(sess.Mode)}, {"handle", orDash(sess.Handle)},
				{"created", sess.Created.Local().Format(time.DateTime)}, {"updated", sess.Updated.Local().Format(time.DateTime)},
				{"tokens", fmt.Sprintf("%d in, %d out", sess.Usage.InputTokens, sess.Usage.OutputTokens)}} {
				fmt.Fprintf(tw, "%s:\t%s\n", kv[0], kv[1])
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintln(ios.Out)
			for _, e := range sess.History {
				fmt.Fprintf(ios.Out, "%-11s %s\n", e.Role, historyLine(e))
			}
			return nil
		},
	}, &cobra.Command{
		Use:   "rm ID…",
		Short: "Remove sessions from the store (the provider's own session is left alone)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, ids []string) error {
			var errs []error
			for _, id := range ids {
				if err := store().Remove(id); err != nil {
					errs = append(errs, sessionErr(err, id))
					continue
				}
				fmt.Fprintf(ios.ErrOut, "removed %s\n", id)
			}
			return errors.Join(errs...)
		},
	})
	return cmd
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

func printJSON(ios *IOStreams, v any) error {
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
