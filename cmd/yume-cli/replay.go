package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/replay"
	"github.com/yume-cli/yume-cli/run"
)

// ReplayOptions is what `yume-cli replay` was asked to do.
type ReplayOptions struct {
	IO *run.IOStreams

	File      string
	Provider  string // "" = guessed from the recorded command
	RulesFile string
	Approve   string // all, none, or a list such as 1,3,2r
	Prompt    string // "" = what the recording typed at an input question
	Trace     bool
	Screen    string // seconds; "" = drive instead
	Interrupt string // seconds; "" = never
	Protocol  string
	Golden    string   // a golden event stream to compare with; "" = none
	Allow     []string // failure kinds that do not fail the replay
	HTML      string   // write the page to look at here (replay_html.go)
	TraceIn   string   // the trace the page shows instead of the replay's

	screenAt, interruptAt time.Duration
	decisions             decisions
}

// NewCmdReplay builds the replay command; runF replaces runReplay in tests
// of flag parsing.
func NewCmdReplay(ios *run.IOStreams, runF func(*ReplayOptions) error) *cobra.Command {
	o := &ReplayOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Run the rules over a recorded session and check the keys they would type",
		Long: `replay feeds a recording (an asciinema .cast from "yume-cli record" or
"start --record") through the production screen model, rules and driver on the
recording's own clock, prints the events yume-cli would have emitted, and
checks what the rules did against what the person did.

Replay is a regression check. It fails (exit status 1) when, unless --allow
names the kind:

  unrecognised  the program asked a question no rule recognised: the rules
                nearest to matching it are named, with their file:line, the
                part of the pattern that found nothing and the rows where
                the parts before it matched
  keys          the rules would have typed other keys than the person did,
                with the rule that chose them and the screen
  golden        with --golden FILE: a tool_use, tool_result or the session's
                end differs from the golden stream's (ids, uuids, durations
                and the model's text are not compared); a question the
                golden's own notices say no rule recognises is known, and
                not an "unrecognised" failure

Each failure is reported on stderr. Exit status 0: the rules did what the
person did; 1: a failure above, or the recording cannot be read; 2: a usage
error. "yume-cli rules test DIR" runs this check over every recording in DIR.

Replies to terminal queries (cursor position, device attributes, colours) are
left out of the comparison: a person's terminal answers them differently from
yume-cli's screen model. Where a rule types the prompt and --prompt is not
given, the replay types what the recording typed there, so a prompt a person
typed is not a mismatch.`,
		Example: `  yume-cli replay session.cast --trace
  yume-cli replay session.cast --approve 1,3      # approve questions 1 and 3, deny the rest
  yume-cli replay demo.cast --approve 1r,2         # revise question 1, approve question 2
  yume-cli replay session.cast --screen 2.5        # the screen 2.5 seconds in
  yume-cli replay rm-i.cast --golden rm-i.golden.jsonl
  yume-cli replay session.cast --allow unrecognised # a new question is not a failure
  yume-cli replay session.cast --html page.html    # a page: the recording, the trace's timeline
  yume-cli replay live.cast --html page.html --trace-in live.trace  # a live run's --record and --trace-file`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.File = args[0]
			if err := o.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			return runReplay(o)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&o.Provider, "provider", "P", "", "rule profile to replay with (default: guessed from the recorded command, else generic)")
	fs.StringVar(&o.RulesFile, "rules", "", "rule profile file that adds to or overrides the provider's rules")
	fs.StringVar(&o.Approve, "approve", "recorded", "answers to the questions: recorded (as the recording answered, read for meaning), all, none, or a list of question numbers to approve (N) or revise (Nr)")
	fs.StringVarP(&o.Prompt, "prompt", "p", "", "text typed where a rule asks for the prompt (default: what the recording typed)")
	fs.BoolVar(&o.Trace, "trace", false, "write one JSON line per rule decision to stderr")
	fs.StringVar(&o.Screen, "screen", "", "print the screen at this time (seconds) and exit")
	fs.StringVar(&o.Interrupt, "interrupt-at", "", "interrupt the session at this time (seconds), as a user would")
	fs.StringVar(&o.Protocol, "protocol-version", protocols[0], "event shapes: claude (nested messages) or flat")
	fs.StringVar(&o.HTML, "html", "", "also write a page to look at: the recording played back, the trace's timeline, the screen at each decision (one HTML file that opens offline)")
	fs.StringVar(&o.TraceIn, "trace-in", "", "with --html: show this trace (a live run's --trace-file, beside its --record cast) instead of the replay's own")
	fs.StringVar(&o.Golden, "golden", "", "compare the tool_use, tool_result and end events with this stream-json file (claude shapes)")
	fs.StringSliceVar(&o.Allow, "allow", nil, "failures that do not fail the replay: "+strings.Join(failKinds, ", "))
	fs.SortFlags = false
	return cmd
}

func (o *ReplayOptions) validate() error {
	var err error
	if o.decisions, err = parseDecisions(o.Approve); err != nil {
		return err
	}
	if o.screenAt, err = parseSeconds("screen", o.Screen); err != nil {
		return err
	}
	if o.interruptAt, err = parseSeconds("interrupt-at", o.Interrupt); err != nil {
		return err
	}
	if o.TraceIn != "" && o.HTML == "" {
		return usagef("--trace-in goes with --html: it is the trace the page shows")
	}
	if o.HTML != "" && o.Screen != "" {
		return usagef("--html and --screen do not go together: --screen prints one screen and replays nothing")
	}
	if err := checkReplayFlags(o.Provider, o.Allow); err != nil {
		return err
	}
	return oneOf("protocol-version", o.Protocol, protocols)
}

// parseSeconds reads a flag given in seconds ("2.5"); "" is 0.
func parseSeconds(flag, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f > 1e9 {
		return 0, usagef("invalid value %q for --%s: give a time in seconds, such as 2.5", s, flag)
	}
	return time.Duration(f * float64(time.Second)), nil
}

// decisions answers the questions of a replay by number.
type decisions struct {
	recorded bool
	all      bool
	approve  map[int]bool
	revise   map[int]bool
}

func parseDecisions(s string) (decisions, error) {
	switch s {
	case "recorded":
		return decisions{recorded: true}, nil
	case "all":
		return decisions{all: true}, nil
	case "none", "":
		return decisions{}, nil
	}
	d := decisions{approve: map[int]bool{}, revise: map[int]bool{}}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		set := d.approve
		if n, ok := strings.CutSuffix(item, "r"); ok {
			item, set = n, d.revise
		}
		n, err := strconv.Atoi(item)
		if err != nil || n < 1 {
			return decisions{}, usagef("invalid value %q for --approve: use recorded, all, none, or question numbers such as 1,3 (2r revises question 2)", s)
		}
		set[n] = true
	}
	return d, nil
}

// answer decides question n: approve, revise (feedback as recorded), or deny.
func (d decisions) answer(n int, _ *heuristics.Detection) permission.Answer {
	if d.revise[n] {
		return permission.Answer{Revise: true}
	}
	return permission.Answer{Allow: d.all || d.approve[n]}
}

// runReplay drives the recording and reports how its keys compare.
func runReplay(o *ReplayOptions) error {
	cast, err := readCast(o.File)
	if err != nil {
		return err
	}
	if o.Screen != "" {
		return printScreenAt(o.IO.Out, cast, o.screenAt)
	}
	name := o.Provider
	if name == "" {
		name = guessProvider(cast.Header.Command)
	}
	prov, _ := providers.Lookup(name)
	profile, err := run.LoadProfile(prov.Profile, o.RulesFile)
	if err != nil {
		return err
	}
	proto, _ := emit.ParseProtocol(o.Protocol)
	ro := replay.Options{
		Profile: profile, Answer: o.decisions.answer, AsRecorded: o.decisions.recorded,
		Prompt: o.Prompt, InterruptAt: o.interruptAt,
	}
	if o.Trace {
		ro.Trace = o.IO.ErrOut
	}
	out := o.IO.Out
	page, err := newHTMLPage(o, name) // nil without --html
	if err != nil {
		return err
	}
	if page != nil {
		out, ro.Trace = page.col.Stream(out), page.col.Trace(ro.Trace)
	}
	v, err := checkReplay(cast, ro, proto, out, o.Golden)
	if err != nil {
		return err
	}
	if page != nil {
		if err := page.write(); err != nil {
			return err
		}
	}
	v.mismatches = reportMismatches(o.IO.ErrOut, cast, v.result)
	reportUnrecognised(o.IO.ErrOut, v)
	reportGolden(o.IO.ErrOut, v)
	if failed := v.failures(o.Allow); len(failed) > 0 {
		fmt.Fprintf(o.IO.ErrOut, "yume-cli replay: failed: %s (--allow %s lets it pass)\n", strings.Join(failed, ", "), strings.Join(failed, ","))
		return &run.ExitError{Code: 1}
	}
	return nil
}

// readCast opens and parses a recording, naming the file in errors.
func readCast(path string) (*recordings.Cast, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	c, err := recordings.Read(f)
	if err != nil {
		return nil, fmt.Errorf("replay: %s: %w", path, err)
	}
	return c, nil
}

// guessProvider picks the profile for a recorded command line by the
// program's name: a recording of `gh copilot …` replays with gh-copilot.
func guessProvider(command string) string {
	fields := strings.Fields(command)
	if len(fields) == 0 {
		return providers.Generic
	}
	if p, ok := providers.ByBinary(filepath.Base(fields[0])); ok {
		if _, err := heuristics.LoadProfile(p.Profile); err == nil {
			return p.Name
		}
	}
	return providers.Generic
}
