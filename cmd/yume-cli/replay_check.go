package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/replay"
)

// A replay is a regression check: it fails where the rules in force
// would not have done what the person did. What fails it, unless --allow
// names it:
const (
	failUnrecognised = "unrecognised" // a question no rule recognised
	failKeys         = "keys"         // keys other than the person's
	failGolden       = "golden"       // events other than the golden file's
)

var failKinds = []string{failUnrecognised, failKeys, failGolden}

// checkReplayFlags checks the flags replay and rules test share: a
// provider to replay with, and the failure kinds allowed.
func checkReplayFlags(provider string, allow []string) error {
	if provider != "" {
		if _, err := lookupProvider(provider); err != nil {
			return err
		}
	}
	for _, a := range allow {
		if err := oneOf("allow", a, failKinds); err != nil {
			return err
		}
	}
	return nil
}

// verdict is what one replay found.
type verdict struct {
	result       replay.Result
	questions    int
	unrecognised []driver.Unrecognised
	mismatches   int                   // places the keys differ (reported by reportMismatches)
	known        []driver.Unrecognised // unrecognised as the golden file says they are
	golden       []string
	goldenFile   string
	stream       []byte
}

// failures are the kinds of failure the replay found that allow does not
// excuse.
func (v *verdict) failures(allow []string) []string {
	var out []string
	for _, k := range failKinds {
		if slices.Contains(allow, k) {
			continue
		}
		if k == failUnrecognised && len(v.unrecognised) > 0 || k == failKeys && v.mismatches > 0 || k == failGolden && len(v.golden) > 0 {
			out = append(out, k)
		}
	}
	return out
}

// asPerson is how many questions the rules answered as the person did.
func (v *verdict) asPerson() int {
	return max(v.questions-len(v.result.Outcome.KeyDiffs), 0)
}

// asked is how many questions the program asked: those a rule recognised
// and those none did.
func (v *verdict) asked() int { return v.questions + len(v.unrecognised) + len(v.known) }

// checkReplay replays cast with profile, writing its events to out (and
// keeping them for the golden file, if any) and its trace to trace.
func checkReplay(cast *recordings.Cast, ro replay.Options, proto emit.Protocol, out io.Writer, goldenFile string) (*verdict, error) {
	var stream bytes.Buffer
	w := io.Writer(&stream)
	if out != nil {
		w = io.MultiWriter(out, &stream)
	}
	ro.Out = emit.NewWriter(w, emit.Config{Protocol: proto})
	r := replay.Run(context.Background(), cast, ro)
	var ke *driver.KeysError
	if r.Err != nil && !errors.As(r.Err, &ke) {
		return nil, r.Err
	}
	v := &verdict{result: r, questions: r.Outcome.Questions, unrecognised: r.Outcome.Unrecognised, stream: stream.Bytes(), goldenFile: goldenFile}
	if goldenFile != "" {
		want, err := os.ReadFile(goldenFile)
		if err != nil {
			return nil, fmt.Errorf("--golden: %w", err)
		}
		if v.golden, err = replay.GoldenDiff(v.stream, want); err != nil {
			return nil, fmt.Errorf("--golden %s: %w", goldenFile, err)
		}
		v.unrecognised, v.known = splitKnown(v.unrecognised, replay.GoldenUnrecognised(want))
	}
	return v, nil
}

// splitKnown separates the questions the golden file also met without a
// rule (each of its notices excuses one) from the new ones.
func splitKnown(us []driver.Unrecognised, golden []string) (news, known []driver.Unrecognised) {
	left := map[string]int{}
	for _, q := range golden {
		left[q]++
	}
	for _, u := range us {
		if left[u.Question] > 0 {
			left[u.Question]--
			known = append(known, u)
			continue
		}
		news = append(news, u)
	}
	return news, known
}

// whyUnrecognised says, in a line, why a question went unrecognised: the
// rule nearest to matching it, where it is, and what of it failed.
func whyUnrecognised(u driver.Unrecognised) string {
	if len(u.Nearest) == 0 {
		return fmt.Sprintf("%q: no question rule starts to match", u.Question)
	}
	return fmt.Sprintf("%q: nearest rule %s", u.Question, ruleMiss(u.Nearest[0]))
}

func ruleMiss(rm heuristics.RuleMiss) string {
	return fmt.Sprintf("%s (%s): %s", rm.Rule.Name, rm.Rule.Where(), rm.Miss)
}

// reportUnrecognised tells, for each question no rule recognised, the
// rules that came nearest, why each missed, and the screen.
func reportUnrecognised(w io.Writer, v *verdict) {
	for _, u := range v.unrecognised {
		fmt.Fprintf(w, "yume-cli replay: at %.3fs the program asked %q and no rule recognised it\n", u.At.Seconds(), u.Question)
		if len(u.Nearest) == 0 {
			fmt.Fprintln(w, "  no question rule of the profile starts to match this screen")
		}
		for _, rm := range u.Nearest {
			fmt.Fprintf(w, "  rule %s\n", ruleMiss(rm))
		}
		fmt.Fprintf(w, "  screen at that moment:\n%s", indent(trimScreen(strings.Split(u.Screen, "\n"))))
	}
	for _, u := range v.known {
		fmt.Fprintf(w, "yume-cli replay: at %.3fs the program asked %q, which no rule recognises, as %s records (not a failure)\n", u.At.Seconds(), u.Question, v.goldenFile)
	}
}

// reportGolden tells how the events differ from the golden file's.
func reportGolden(w io.Writer, v *verdict) {
	if len(v.golden) == 0 {
		return
	}
	fmt.Fprintf(w, "yume-cli replay: the events differ from %s (regenerate it with `yume-cli replay CAST > %s` once the change is right)\n", v.goldenFile, v.goldenFile)
	for _, d := range v.golden {
		fmt.Fprintf(w, "  %s\n", d)
	}
}
