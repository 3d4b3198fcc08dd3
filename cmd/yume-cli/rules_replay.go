package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/replay"
	"github.com/yume-cli/yume-cli/run"
)

// RulesTestOptions is what `yume-cli rules test` was asked to do.
type RulesTestOptions struct {
	IO        *run.IOStreams
	Paths     []string
	Provider  string
	RulesFile string
	Allow     []string
	Verbose   bool
}

// defaultCasts are where rules test looks when given no directory: the
// repository's recordings of sessions (its other casts test the format).
var defaultCasts = []string{"recordings/testdata/corpus", "recordings/testdata/people"}

// NewCmdRulesTest builds `rules test`; runF replaces runRulesTest in tests
// of flag parsing.
func NewCmdRulesTest(ios *run.IOStreams, runF func(*RulesTestOptions) error) *cobra.Command {
	o := &RulesTestOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "test [DIR|FILE.cast]…",
		Short: "Replay every recording against the rules in force and tabulate what changed",
		Long: `rules test replays each .cast under the directories given (default:
` + strings.Join(defaultCasts, " and ") + `, where the repository keeps
its recordings of sessions) with the answers the
person gave, against the rules in force: the profile guessed from the
recorded command (or --provider), a NAME.rules.yaml beside NAME.cast, then
--rules. Where NAME.golden.jsonl sits beside it, the events are compared
with it too.

It prints one row per recording: its questions, how many the rules answered
as the person did, whether the events match the golden file, and why not
where they do not. Whoever changes a rule after a CLI release sees at once
what else the change touched. The exit status is 1 when any recording fails
as "yume-cli replay" would (see its --help), 2 on a usage error.`,
		Example: `  yume-cli rules test
  yume-cli rules test recordings/testdata/people --rules my-fix.yaml
  yume-cli rules test -v recordings/testdata/corpus/rm-i.cast`,
		RunE: func(_ *cobra.Command, args []string) error {
			o.Paths = args
			if err := checkReplayFlags(o.Provider, o.Allow); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			return runRulesTest(o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.Provider, "provider", "P", "", "rule profile for every recording (default: guessed from each recorded command)")
	f.StringVar(&o.RulesFile, "rules", "", "rule file that adds to or overrides the profile's rules (the rule being changed)")
	f.StringSliceVar(&o.Allow, "allow", nil, "failures that do not fail a recording: "+strings.Join(failKinds, ", "))
	f.BoolVarP(&o.Verbose, "verbose", "v", false, "after the table, report each failing recording in full, as replay does")
	return cmd
}

// castRow is one line of the table.
type castRow struct {
	name, profile string
	v             *verdict
	err           error
	failed        []string
	report        string
}

func runRulesTest(o *RulesTestOptions) error {
	casts, err := findCasts(o.Paths)
	if err != nil {
		return err
	}
	var rows []castRow
	for _, c := range casts {
		rows = append(rows, testCast(o, c))
	}
	tw := tabwriter.NewWriter(o.IO.Out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CAST\tPROFILE\tQUESTIONS\tAS THE PERSON\tGOLDEN\tRESULT\tWHY NOT")
	failed := 0
	for _, r := range rows {
		q, same, golden, result, why := "-", "-", "-", "ok", ""
		switch {
		case r.err != nil:
			result, why = "FAIL", r.err.Error()
		default:
			q, same = fmt.Sprint(r.v.asked()), fmt.Sprintf("%d/%d", r.v.asPerson(), r.v.asked())
			if r.v.goldenFile != "" {
				golden = "same"
				if len(r.v.golden) > 0 {
					golden = "differs"
				}
			}
			if len(r.failed) > 0 {
				result, why = "FAIL", whyFailed(r.v)
			}
		}
		if result != "ok" {
			failed++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.name, r.profile, q, same, golden, result, run.ClipLine(why, 160))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(o.IO.Out, "%d recordings, %d failed\n", len(rows), failed)
	if o.Verbose {
		for _, r := range rows {
			if r.report != "" && (r.err != nil || len(r.failed) > 0) {
				fmt.Fprintf(o.IO.Out, "\n== %s\n%s", r.name, r.report)
			}
		}
	}
	if failed > 0 {
		return &run.ExitError{Code: 1}
	}
	return nil
}

// testCast replays one recording as the person answered it.
func testCast(o *RulesTestOptions, path string) castRow {
	row := castRow{name: path}
	cast, err := readCast(path)
	if err != nil {
		row.err = err
		return row
	}
	name := o.Provider
	if name == "" {
		name = guessProvider(cast.Header.Command)
	}
	row.profile = name
	prov, _ := providers.Lookup(name)
	base := strings.TrimSuffix(path, ".cast")
	profile, err := run.LoadProfile(prov.Profile, existing(base+".rules.yaml"))
	if err == nil && o.RulesFile != "" {
		var over *heuristics.Profile
		if over, err = run.ReadRules(o.RulesFile); err == nil {
			profile = profile.Merge(over)
		}
	}
	if err != nil {
		row.err = err
		return row
	}
	ro := replay.Options{Profile: profile, AsRecorded: true}
	row.v, row.err = checkReplay(cast, ro, emit.Claude, nil, existing(base+".golden.jsonl"))
	if row.err != nil {
		return row
	}
	var rep strings.Builder
	row.v.mismatches = reportMismatches(&rep, cast, row.v.result)
	reportUnrecognised(&rep, row.v)
	reportGolden(&rep, row.v)
	row.report = rep.String()
	row.failed = row.v.failures(o.Allow)
	return row
}

// whyFailed is the first reason a recording failed, in a line.
func whyFailed(v *verdict) string {
	switch {
	case len(v.unrecognised) > 0:
		return "unrecognised " + whyUnrecognised(v.unrecognised[0])
	case v.mismatches > 0:
		for _, k := range v.result.Outcome.KeyDiffs {
			return fmt.Sprintf("keys differ: rule %s (%s)", k.Rule, k.Why)
		}
		return fmt.Sprintf("keys differ at %d places: the person typed what no rule did", v.mismatches)
	case len(v.golden) > 0:
		return v.golden[0]
	}
	return ""
}

// findCasts lists the .cast files under paths (a file is taken as is),
// sorted.
func findCasts(paths []string) ([]string, error) {
	if len(paths) == 0 {
		for _, d := range defaultCasts {
			if existing(d) != "" {
				paths = append(paths, d)
			}
		}
		if len(paths) == 0 {
			return nil, usagef("no recordings: give a directory of .cast files (by default rules test looks in %s, which are not here)", strings.Join(defaultCasts, " and "))
		}
	}
	var casts []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, usagef("%s: no such file or directory", p)
		}
		if !st.IsDir() {
			casts = append(casts, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".cast") {
				casts = append(casts, path)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if len(casts) == 0 {
		return nil, usagef("no .cast files in %s", strings.Join(paths, ", "))
	}
	sort.Strings(casts)
	return casts, nil
}

// existing is path when a file is there, else "".
func existing(path string) string {
	if _, err := os.Stat(path); err != nil {
		return ""
	}
	return path
}
