//go:build unix

package driver_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
)

// TestDriveKeysOneAtATime drives generated dialogs of internal/keytui, a
// program that reads keys the way TUIs do, and misreads them the ways they
// do: several keys in one read lost but their Enter taken (Ink, Claude
// Code 2.1.197), keys lost while it draws, a highlight that moves only
// after a delay, frames drawn row by row. Layouts, option orders, where
// the highlight starts, how it is drawn and which profile answers (the
// dialog's shape, select:, arrows counted from the start) are drawn from
// a seed (printed; YUME_KEYS_SEED repeats it, YUME_KEYS_N sets the count).
// Whatever the program: a denied command never runs, an approved one
// does, and every read the program made of the answer held one key.
func TestDriveKeysOneAtATime(t *testing.T) {
	seed := time.Now().UnixNano()
	if s := os.Getenv("YUME_KEYS_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	n := 16
	if s := os.Getenv("YUME_KEYS_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	t.Logf("seed %d (YUME_KEYS_SEED=%d repeats it), %d cases", seed, seed, n)
	rng := rand.New(rand.NewSource(seed))
	for i := range n {
		c := newKeysCase(rng)
		t.Run(fmt.Sprintf("%02d-%s", i, c.name()), func(t *testing.T) {
			c.run(t)
		})
	}
}

// TestDriveKeyAgainUnderASpinner: a program that drops keys and turns a
// spinner above its dialog (Claude Code 2.1.332's logo and blinking
// "Running…" row) is never still as a whole. Its lost key is typed again
// once the dialog itself has been still for a second; waiting for the
// whole screen, the approval was cancelled after keyBound and the
// approved command never ran.
func TestDriveKeyAgainUnderASpinner(t *testing.T) {
	for _, approve := range []bool{true, false} {
		c := keysCase{layout: "numbered", read: "drop", style: "pointer", profile: "shape", options: optionSets["numbered"][0],
			approve: approve, animate: 150 * time.Millisecond, dropFor: 600 * time.Millisecond}
		t.Run(c.name(), c.run)
	}
}

// TestDriveKeysHandedOnLate: keys reach a pty's program later than the
// write returns (the kernel's worker hands on everything written by then
// at once; on a loaded machine tens of milliseconds later). A program still
// blocked reading looks as if it had read "y"; typing Enter then put "y"
// and Enter in one read (CI, 2026-11-29). The Enter waits until a thread
// that waited for the "y" has run.
func TestDriveKeysHandedOnLate(t *testing.T) {
	for _, approve := range []bool{true, false} {
		c := keysCase{layout: "yn", read: "keys", style: "color", profile: "rule", options: optionSets["yn"][0],
			approve: approve, late: 300 * time.Millisecond}
		t.Run(c.name(), c.run)
	}
}

// keysCase is one generated dialog and answer.
type keysCase struct {
	layout, read, style, profile string
	options                      []string
	start                        int // the option highlighted first
	delay, slow                  time.Duration
	animate, dropFor             time.Duration // a spinner above the dialog; drop mode's window (0: keytui's)
	approve                      bool
	late                         time.Duration // keys handed on this late (lateKeys)
}

func (c keysCase) name() string {
	spin := ""
	if c.animate > 0 {
		spin = "-spinner"
	}
	return fmt.Sprintf("%s-%s%s-%s-%s-%v", c.layout, c.read, spin, c.profile, c.style, map[bool]string{true: "approve", false: "deny"}[c.approve])
}

// The option lists a dialog may offer: one allows once, one rejects, the
// others allow more widely or do something else.
var optionSets = map[string][][]string{
	"numbered": {
		{"1. Yes", "2. Yes, and always allow access to ws/ from this project", "3. No"},
		{"1. Yes", "2. Yes, and don't ask again for printf commands", "3. Yes, and switch to auto mode", "4. No, and tell Claude what to do differently"},
		{"1. Allow once", "2. Allow for this session", "3. No, suggest changes"},
		{"1. No", "2. Yes"},
	},
	"choices":    {{"Yes", "No"}, {"No", "Yes"}, {"Yes", "Always", "No"}},
	"horizontal": {{"Allow once", "Allow always", "Reject"}, {"Reject", "Allow once"}},
	"boxed":      {{"1. Allow once", "2. Allow for this session", "3. No, suggest changes (esc)"}, {"1. Yes, allow once", "2. No"}},
	"yn":         {{"y", "n"}},
}

func newKeysCase(rng *rand.Rand) keysCase {
	pick := func(xs ...string) string { return xs[rng.Intn(len(xs))] }
	c := keysCase{layout: pick("numbered", "numbered", "choices", "horizontal", "boxed", "yn"), read: pick("keys", "ink", "ink", "drop"),
		style: pick("pointer", "reverse", "color"), approve: rng.Intn(2) == 0}
	sets := optionSets[c.layout]
	c.options = sets[rng.Intn(len(sets))]
	c.start = rng.Intn(len(c.options))
	c.delay = []time.Duration{0, 0, 50 * time.Millisecond, 300 * time.Millisecond}[rng.Intn(4)]
	c.slow = []time.Duration{0, 0, 5 * time.Millisecond}[rng.Intn(3)]
	c.animate = []time.Duration{0, 0, 200 * time.Millisecond}[rng.Intn(3)]
	switch {
	case c.layout == "yn":
		c.profile, c.start, c.read, c.delay = "rule", 0, "keys", 0
	case c.layout == "horizontal" || c.layout == "boxed":
		c.style = "reverse"
		if c.layout == "boxed" {
			c.style = "pointer"
		}
		c.profile = pick("shape", "select", "arrows")
	default:
		c.profile = pick("shape", "select", "arrows")
	}
	return c
}

// keysProfile is the profile for c: the dialog's shape alone, or a rule
// whose keys select the option by its words or move to it with arrows.
func (c keysCase) keysProfile(t *testing.T) *heuristics.Profile {
	allow, reject := -1, -1
	for i, o := range c.options {
		switch heuristics.OptionMeaning(o) {
		case heuristics.MeansAllow:
			if allow < 0 && !regexp.MustCompile(`(?i)always|session|don't|auto`).MatchString(o) {
				allow = i
			}
		case heuristics.MeansReject:
			reject = i
		}
	}
	if c.layout == "yn" {
		allow, reject = 0, 1
	}
	question := map[string]string{"numbered": `Do you want to proceed\?`, "choices": `\? Run .*\?`, "horizontal": `Allow this command\?`,
		"boxed": `│ Allow execution of \[Shell\]\?`, "yn": `Run .*\? \[y/n\]`}[c.layout]
	keys := func(i int) string {
		switch c.profile {
		case "select":
			return "select:^" + regexp.QuoteMeta(c.options[i]) + "$"
		case "arrows":
			fwd, back := "<Down>", "<Up>"
			if c.layout == "horizontal" {
				fwd, back = "<Right>", "<Left>"
			}
			if i >= c.start {
				return strings.Repeat(fwd, i-c.start) + "<Enter>"
			}
			return strings.Repeat(back, c.start-i) + "<Enter>"
		}
		return map[int]string{0: "y<Enter>", 1: "n<Enter>"}[i]
	}
	y := fmt.Sprintf("name: keytui\ndescription: a dialog read key by key\nquit: '<C-c>'\ndrops_keys: %v\nrules:\n", c.read == "drop")
	if c.profile != "shape" {
		y += fmt.Sprintf("  - name: question\n    match: '(?m)^ ?(?P<prompt>%s)'\n    kind: menu\n    approve: '%s'\n    deny: '%s'\n",
			question, keys(allow), keys(reject))
	}
	y += "  - name: done\n    match: '(?m)^\\* (?P<text>Finished.*)\\n\\nIDLE$'\n    kind: done\n"
	p, err := heuristics.ParseProfile("keytui.yaml", []byte(y))
	if err != nil {
		t.Fatalf("profile:\n%s\n%v", y, err)
	}
	return p
}

func (c keysCase) run(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "reads")
	flags := []string{"-layout", c.layout, "-options", strings.Join(c.options, "|"), "-highlight", strconv.Itoa(c.start),
		"-style", c.style, "-read", c.read, "-delay", c.delay.String(), "-slow", c.slow.String(), "-log", log, "-animate", c.animate.String()}
	if c.dropFor > 0 {
		flags = append(flags, "-drop-for", c.dropFor.String())
	}
	var tweak func(*driver.Config)
	if c.late > 0 {
		tweak = func(cfg *driver.Config) {
			late := newLateKeys(cfg.Term, c.late)
			t.Cleanup(late.stop) // before the leak check, registered earlier
			cfg.Term = late
		}
	}
	r := driveWith(t, dir, c.keysProfile(t), permission.Default, func(int, toolUse) bool { return c.approve }, nil, nil, tweak, keytuiArgv(flags...)...)
	if r.err != nil {
		t.Fatal(r.err)
	}
	ran := exists(filepath.Join(dir, "made.txt"))
	if ran != c.approve {
		t.Errorf("the command ran = %v, want %v (keys %q)", ran, c.approve, r.writes)
	}
	want := map[bool]string{true: "Finished: allowed.", false: "Finished: refused."}[c.approve]
	if res := r.result(t); res.str("result") != want {
		t.Errorf("result %q, want %q", res.str("result"), want)
	}
	defer func() {
		if t.Failed() || os.Getenv("YUME_KEYS_TRACE") != "" {
			t.Logf("trace:\n%s", r.trace)
		}
	}()
	reads, _ := os.ReadFile(log)
	for _, line := range strings.Split(strings.TrimSpace(string(reads)), "\n") {
		b, err := strconv.Unquote(line)
		if err != nil || len(line) == 0 {
			continue
		}
		if keys := keyCount(b); keys > 1 && !strings.Contains(b, "\x03") {
			t.Errorf("the program read %q in one read: %d keys together", b, keys)
		}
	}
}

// keyCount counts the keys in one read: escape sequences count once.
func keyCount(s string) int {
	n := 0
	for len(s) > 0 {
		switch {
		case strings.HasPrefix(s, "\x1b[") || strings.HasPrefix(s, "\x1bO"):
			s = s[min(3, len(s)):]
		default:
			s = s[1:]
		}
		n++
	}
	return n
}

// TestDriveDeniedButRan: a program that runs a command it was told not
// to is reported as exactly that: by the file the command names
// changing, or by the screen showing it run (the profile's ran); the
// tool_result says so, a system error says it where Yume shows it, and
// the turn ends as an error.
func TestDriveDeniedButRan(t *testing.T) {
	for _, c := range []struct{ name, cmd, ran, sign string }{
		{"a file it names", "printf hi > made.txt", "", "made.txt was created"},
		// A slow run (or a loaded machine): the screen says "Running…" and
		// settles before the file is made; the denial waits while it works.
		{"a file it names, slowly", "sleep 0.6; printf hi > made.txt", "", "made.txt was created"},
		{"the screen", "true", `ran: '^\s*⎿\s+Running…$'`, "the screen shows it running"},
	} {
		t.Run(c.name, func(t *testing.T) {
			prof, err := heuristics.ParseProfile("liar.yaml", []byte(`name: liar
description: a program that ignores a denial
quit: '<C-c>'
`+c.ran+`
rules:
  - name: done
    match: '(?m)^\* (?P<text>Finished.*)\n\nIDLE$'
    kind: done
`))
			if err != nil {
				t.Fatal(err)
			}
			r := driveProfile(t, t.TempDir(), prof, permission.Default, denyAll, nil, nil,
				keytuiArgv("-liar", "-cmd", c.cmd)...)
			if r.err != nil {
				t.Fatal(r.err)
			}
			if len(r.uses) != 1 {
				t.Fatalf("tool_uses %+v, want one", r.uses)
			}
			res := r.results[r.uses[0].ID]
			if res["is_error"] != true || !strings.Contains(res.str("content"), "although it was denied: "+c.sign) {
				t.Errorf("tool_result %v: want it to say the program ran it (%s)", res, c.sign)
			}
			final := r.result(t)
			if final["is_error"] != true || !strings.Contains(final.str("result"), "although it was denied") {
				t.Errorf("result %v: want an error saying the denied command ran", final)
			}
			seen := false
			for _, ev := range r.events {
				seen = seen || ev.str("type") == "system" && ev.str("subtype") == "error" && strings.Contains(ev.str("message"), "although it was denied")
			}
			if !seen {
				t.Errorf("no system error saying so (Yume shows only those)")
			}
		})
	}
}
