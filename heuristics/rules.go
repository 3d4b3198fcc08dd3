package heuristics

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Kind says what a Detection means to the driver.
type Kind string

// The kinds a rule can have.
const (
	// KindSuggestion: a command is shown (group `command`). The driver
	// remembers it; it becomes the command of a later confirm or menu that
	// lacks one.
	KindSuggestion Kind = "suggestion"
	// KindConfirm: a yes/no question that needs the GUI's decision.
	KindConfirm Kind = "confirm"
	// KindMenu: a menu that needs the GUI's decision; approve/deny are
	// usually select: keys.
	KindMenu Kind = "menu"
	// KindInput: the program asks for something the driver answers by
	// itself, without asking the GUI: it types the rule's approve keys, with
	// <Prompt> replaced by the turn's prompt (Keys.WithPrompt). Examples: "What
	// would you like the shell command to do?" (approve '<Prompt><Enter>') or
	// a "what kind of command" menu (approve 'select:^generic shell command').
	// No tool_use is emitted.
	KindInput Kind = "input"
	// KindText: assistant text to emit once (group `text`).
	KindText Kind = "text"
	// KindResult: the output of an approved command as the program itself
	// shows it (group `output`), e.g. a TUI's result block. Full-screen
	// programs redraw in place, so the lines that scroll away are not the
	// output; a result rule reads it from the screen and ends the capture.
	KindResult Kind = "result"
	// KindDone: the program finished its work; the turn is over. A `text`
	// group is the final answer, emitted once. When the profile has quit
	// keys, the driver types them: an interactive TUI does not exit by
	// itself after a turn.
	KindDone Kind = "done"
	// KindFail: a screen yume-cli cannot answer (a login, a folder trust
	// question, an account error): the turn ends with an error that shows
	// the screen's words (group `text`, else the match) and says what to
	// do (the rule's hint), never a stall.
	KindFail Kind = "fail"
	// KindError: the model's service failed a request and the program says
	// so (group `text`, else the match: "API Error: 429 …"). The driver
	// tells the GUI once per message while the program retries, and ends
	// the turn with the error when the program gives up, or stops it
	// after modelerror.Bound without progress (modelerror.go).
	KindError Kind = "error"
)

// kinds lists the valid kinds in the order error messages show them.
var kinds = []Kind{KindSuggestion, KindConfirm, KindMenu, KindInput, KindText, KindResult, KindDone, KindFail, KindError}

// asks reports whether the driver types approve/deny keys for this kind.
func (k Kind) asks() bool { return k == KindConfirm || k == KindMenu || k == KindInput }

// CursorCond is an extra condition on where the cursor is.
type CursorCond string

// The cursor conditions a rule can have.
const (
	// CursorAny: no condition; the rule fires only on a settled screen.
	CursorAny CursorCond = ""
	// CursorEnd: the cursor sits right after the match's last character (a
	// prompt waiting for input). Such a rule may fire before the screen has
	// settled, because the cursor position already proves the prompt is
	// complete.
	CursorEnd CursorCond = "end"
)

// Area is the part of the terminal a rule looks at.
type Area string

// The areas a Look can name.
const (
	// AreaScreen: every visible row.
	AreaScreen Area = "screen"
	// AreaBottom: the visible rows from the N-th last non-blank row down to
	// the last non-blank row (blank rows in between included).
	AreaBottom Area = "bottom"
	// AreaTranscript: the last N scrollback lines, then every visible row.
	AreaTranscript Area = "transcript"
)

// DefaultTranscript is how many scrollback lines `look: transcript` reads.
const DefaultTranscript = 200

// Look is where a rule looks: written `screen`, `bottom:N` or
// `transcript[:N]` in a profile.
type Look struct {
	Area Area
	N    int // rows for bottom, scrollback lines for transcript; 0 otherwise
}

// ParseLook reads the notation of a Look; "" means screen.
func ParseLook(s string) (Look, error) {
	area, num, hasNum := strings.Cut(strings.TrimSpace(s), ":")
	switch Area(area) {
	case "", AreaScreen:
		if hasNum {
			return Look{}, fmt.Errorf("look %q: screen takes no count; use bottom:N for the last N rows", s)
		}
		return Look{Area: AreaScreen}, nil
	case AreaBottom, AreaTranscript:
		if !hasNum {
			if Area(area) == AreaBottom {
				return Look{}, fmt.Errorf("look %q needs a row count, e.g. bottom:5", s)
			}
			return Look{Area: AreaTranscript, N: DefaultTranscript}, nil
		}
		n, err := strconv.Atoi(num)
		if err != nil || n < 1 {
			return Look{}, fmt.Errorf("look %q: the count after ':' must be a whole number of at least 1", s)
		}
		return Look{Area: Area(area), N: n}, nil
	}
	return Look{}, fmt.Errorf("unknown look %q: use screen, bottom:N or transcript", s)
}

// String gives the notation back.
func (l Look) String() string {
	switch l.Area {
	case AreaBottom:
		return fmt.Sprintf("bottom:%d", l.N)
	case AreaTranscript:
		if l.N == DefaultTranscript {
			return "transcript"
		}
		return fmt.Sprintf("transcript:%d", l.N)
	}
	return "screen"
}

// DefaultQuiet is how long output must be silent before a screen counts as
// settled, when a profile does not say.
const DefaultQuiet = 40 * time.Millisecond

// Profile is one provider's rules: how to start it and what its screens mean.
type Profile struct {
	Name        string
	Description string
	// Command is the argv template; {prompt} and {model} are substituted by
	// the caller. Empty for generic (the user names the program).
	Command []string
	// Quiet is the output silence after which the screen counts as
	// settled; 0 means DefaultQuiet (see Settle).
	Quiet time.Duration
	// Ready, when set, must match the screen before a prompt is typed: a
	// TUI drops keys that arrive before its input box is drawn.
	Ready *regexp.Regexp
	// Busy matches a screen on which the program is still working (its
	// spinner, "esc to interrupt"): a ready input box under it is not the
	// end of the turn.
	Busy *regexp.Regexp
	// Ran matches what the program draws under a command that runs
	// (Claude Code's "⎿  Running…"): seen after a denial, the command ran
	// although it was denied.
	Ran *regexp.Regexp
	// Echo matches lines the program prints to echo an answer (survey's
	// "> Yes"); they are dropped from the start of a command's output.
	Echo *regexp.Regexp
	// Quit leaves the program cleanly (may be empty). The driver types it
	// when a done rule fires, and again on each settled screen while the
	// program lingers ("press Ctrl-C again to exit").
	Quit Keys
	// QuitAlso are the program's other ways to leave (Ctrl-D, "/exit"):
	// in a replay of a person's session, a person leaving that way left
	// as the quit keys would.
	QuitAlso []Keys
	// Interrupt stops the program's turn and leaves it open (Esc in the AI
	// TUIs): how a persistent session's interrupt frame is carried out.
	Interrupt Keys
	// Newline is how the program's input box takes a line break typed as
	// keys, when bracketed paste is off (nil: as a space; see TypeText).
	// Input rules' <Prompt> follow it.
	Newline *Newline
	// ContextRows, when set, gives each question's tool_use what the
	// program printed for it since the last answer, up to this many rows
	// (a question row alone rarely says enough: "key already exists." /
	// "Overwrite (y/n)?").
	ContextRows int
	// KeepsRunning says the program works on while it waits for an
	// answer (an event loop with timers and animations: the AI TUIs), so
	// finding it on a CPU says nothing about whether a question on its
	// screen is one yet (nil: it does; see KeepsRunningWhileAsking).
	KeepsRunning *bool
	// DropsKeys says the program may drop keys it is typed (Claude Code
	// while it draws a dialog, Gemini CLI just after a paste), so a key
	// that changed nothing on screen for a while is typed again (nil:
	// never: an extra key may answer the next question).
	DropsKeys *bool
	// DialogEndMatch matches the rest of the program's dialog when it is drawn
	// whole (its other options, its footer: Claude Code's "Esc to
	// cancel"), read from the start of a question rule's last matched row:
	// a question whose dialog ends so is asked as soon as the program
	// pauses, whatever its spinners and clocks elsewhere on screen do
	// (nil: once the question's rows have held still; see the driver).
	DialogEndMatch *regexp.Regexp
	// ViewKeys only change what the program shows (Claude Code's and
	// Copilot CLI's Ctrl-O unfolds a command's output): in a replay of a
	// person's session they are the person's own, never an answer.
	ViewKeys []Keys
	// Rules are tried in order; the first that fires wins.
	Rules []*Rule
	// Source names where the profile came from, e.g. "profiles/generic.yaml".
	Source string
}

// KeepsRunningWhileAsking reports the profile's keeps_running.
func (p *Profile) KeepsRunningWhileAsking() bool { return p.KeepsRunning != nil && *p.KeepsRunning }

// MayDropKeys reports the profile's drops_keys.
func (p *Profile) MayDropKeys() bool { return p.DropsKeys != nil && *p.DropsKeys }

// Settle is the quiet period to use: Quiet, or DefaultQuiet when unset.
func (p *Profile) Settle() time.Duration {
	if p.Quiet > 0 {
		return p.Quiet
	}
	return DefaultQuiet
}

// Rule is one pattern and what it means.
type Rule struct {
	Name    string
	Look    Look
	Match   *regexp.Regexp
	Kind    Kind
	Cursor  CursorCond
	Approve Keys
	Deny    Keys
	// ApproveAlso and DenyAlso are other answers that mean the same (Y,
	// yes, Enter for a shown default): a replay of a person's recording
	// compares what an answer means, not its bytes.
	ApproveAlso, DenyAlso []Keys
	// Revise, when set, answers a denial that carries feedback: instead of
	// the deny keys the driver types these (e.g. select "Revise command"),
	// and the next input rule's <Prompt> is filled with the feedback.
	Revise   Keys
	Followup bool
	// Once: an input rule types the prompt at its first question only; a
	// later one (a REPL's next prompt) is the user's turn again.
	Once bool
	// WholeCall: the question shows its call's whole input (its command
	// and description groups), so with the command on one row it is
	// asked from the screen at once; the program's transcript, which may
	// be written hundreds of milliseconds after the dialog (Copilot
	// CLI's), is matched to it when it comes.
	WholeCall bool
	// Hint says what to do about a fail rule's screen ("run `claude` once
	// and log in").
	Hint string
	// Tool is the Claude tool a question is about: Bash (""), or Write and
	// Edit for a file question, whose `file` group names the file.
	Tool   string // answers a question that follows an approved one, no new tool_use
	Line   int    // line of the rule in its source file
	Source string
}

// Merge returns base overridden by over (a --rules file): rules with a name
// base already has replace that rule in place; new rules are tried first, in
// over's order; scalar fields override when over sets them. Neither input is
// modified.
func (p *Profile) Merge(over *Profile) *Profile {
	out := *p
	if over == nil {
		out.Rules = append([]*Rule(nil), p.Rules...)
		return &out
	}
	if over.Name != "" {
		out.Name = over.Name
	}
	if over.Description != "" {
		out.Description = over.Description
	}
	if over.Command != nil {
		out.Command = append([]string(nil), over.Command...)
	}
	if over.Quiet != 0 {
		out.Quiet = over.Quiet
	}
	if over.Echo != nil {
		out.Echo = over.Echo
	}
	if over.Ready != nil {
		out.Ready = over.Ready
	}
	if over.Busy != nil {
		out.Busy = over.Busy
	}
	if over.Ran != nil {
		out.Ran = over.Ran
	}
	if !over.Quit.IsZero() {
		out.Quit = over.Quit
	}
	if over.QuitAlso != nil {
		out.QuitAlso = over.QuitAlso
	}
	if !over.Interrupt.IsZero() {
		out.Interrupt = over.Interrupt
	}
	if over.Newline != nil {
		out.Newline = over.Newline
	}
	if over.ContextRows != 0 {
		out.ContextRows = over.ContextRows
	}
	if over.KeepsRunning != nil {
		out.KeepsRunning = over.KeepsRunning
	}
	if over.DropsKeys != nil {
		out.DropsKeys = over.DropsKeys
	}
	if over.DialogEndMatch != nil {
		out.DialogEndMatch = over.DialogEndMatch
	}
	if over.ViewKeys != nil {
		out.ViewKeys = over.ViewKeys
	}
	if over.Source != "" {
		out.Source = p.Source + " + " + over.Source
	}
	byName := make(map[string]*Rule, len(over.Rules))
	var added []*Rule
	known := make(map[string]bool, len(p.Rules))
	for _, r := range p.Rules {
		known[r.Name] = true
	}
	for _, r := range over.Rules {
		if known[r.Name] {
			byName[r.Name] = r
		} else {
			added = append(added, r)
		}
	}
	out.Rules = append(make([]*Rule, 0, len(added)+len(p.Rules)), added...)
	for _, r := range p.Rules {
		if o, ok := byName[r.Name]; ok {
			r = o
		}
		out.Rules = append(out.Rules, r)
	}
	out.Rules = bindNewline(out.Rules, out.LineBreak(), true)
	return &out
}

// CommandLine is the command template with {prompt} and {model} put in,
// in one pass: text a prompt brings ("{model}") is not substituted again.
// Where the template puts {prompt} decides whether a prompt like "-x" is
// read as an option: the embedded profiles put it after "--" or glue it
// to its flag (--message={prompt}).
func (p *Profile) CommandLine(prompt, model string) []string {
	if len(p.Command) == 0 {
		return nil
	}
	r := strings.NewReplacer("{prompt}", prompt, "{model}", model)
	argv := make([]string, len(p.Command))
	for i, a := range p.Command {
		argv[i] = r.Replace(a)
	}
	return argv
}

// LineBreak is how the program takes a typed line break: Newline, or a
// space when the profile does not say.
func (p *Profile) LineBreak() Newline {
	if p.Newline == nil {
		return Newline{}
	}
	return *p.Newline
}

// bindNewline makes the <Prompt> of every input rule type line breaks as
// nl says; with cp the rules are copied first, not changed.
func bindNewline(rules []*Rule, nl Newline, cp bool) []*Rule {
	for i, r := range rules {
		if !r.Approve.NeedsPrompt() && !r.Deny.NeedsPrompt() {
			continue
		}
		if cp {
			c := *r
			r = &c
			rules[i] = r
		}
		r.Approve, r.Deny = r.Approve.withNewline(nl), r.Deny.withNewline(nl)
	}
	return rules
}
