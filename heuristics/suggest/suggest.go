// The package's API: the options, the suggested profile, its rules and the
// answers they came from. FromCast (recording.go) makes a Profile and YAML
// (yaml.go) writes it.

// Package suggest proposes a rule profile from a recording of a person
// answering a program's questions: `yume-cli rules suggest FILE.cast`.
//
// The recording's output is played through the screen model (vt)
// up to each answer the person typed. The screen at the first key of an
// answer says what was asked: the row the cursor waits on (or, for an
// arrow-key menu, the question above its options), the non-blank row just
// above it (context), whether the cursor sits at the end of the question
// (cursor: end), and whether it is a numbered or arrow menu. The keys up to
// Enter are the answer. Each question becomes one rule: a match anchored on
// the question row with the variable parts generalised, the kind (confirm,
// menu or input), the keys the person typed (approve, or deny when they said
// no) and the opposite answer.
//
// The result is a starting point that a person must review: it is
// generalised from one recording. It always parses (heuristics.ParseProfile)
// and, unedited, its rules answer the recording's own questions with the
// recording's own keys when it is replayed over the generic profile.
package suggest

import (
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
)

// Options tunes a suggestion.
type Options struct {
	// Name is the profile's name; "" derives one from the recorded command.
	Name string
	// File names the recording in the header comment ("" = "the recording").
	File string
	// Output names the profile file in the header's example commands ("" =
	// PROFILE.yaml).
	Output string
}

// Profile is a suggested rule profile.
type Profile struct {
	Name, Description string
	// Command is the recorded command line, as argv.
	Command []string
	// CommandLine is the recorded command as the cast has it.
	CommandLine string
	Rules       []*Rule
	// Answers are the answers found in the recording, in order, each with
	// the rule it made or joined, or why it made none.
	Answers      []*Answer
	file, output string
}

// Rule is one suggested rule, in the profile file's terms.
type Rule struct {
	Name      string
	Match     string
	Kind      heuristics.Kind
	CursorEnd bool
	Approve   string // key notation (heuristics.ParseKeys)
	Deny      string // "" for none
	// Notes are comment lines written above the rule: the answers it came
	// from.
	Notes []string
	body  string // the match without its context: the question itself
}

// Answer is one answer a person typed.
type Answer struct {
	At       time.Duration // when the first key was typed
	Question string        // the question row, as on the screen
	Keys     string        // what was typed, in key notation
	// Rule is the rule the answer made or joined; nil when it made none,
	// and Skipped says why.
	Rule    *Rule
	Skipped string
	// Asks is true for a confirm or menu answer: a replay numbers these
	// questions, and Approved says whether the person's keys were the
	// rule's approve keys (false: they were its deny keys).
	Asks, Approved bool
}
