// Package providers is the registry of the coding CLIs yume-cli drives: one
// descriptor per provider, one file each. Everything yume-cli knows about a
// provider lives in its descriptor — its binary and aliases, its PTY rule
// profile, how to start its JSON and ACP modes and from which version, which
// translator reads them, how its tool names map to Claude's, where its
// credentials are and how to install it. A provider's whole file set (the
// descriptor, its rule profile, the reading of its transcript, its
// translators in structured) is listed in docs/providers.md's "A
// provider's files", which TestProviderFiles holds against the registry:
// adding a provider is its descriptor here, its rule profile, a row there,
// and test fixtures.
package providers

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/transcript"
)

// Provider describes one CLI.
type Provider struct {
	// Name is how --provider names it.
	Name string
	// DebugLog, where set, is a debug log the program keeps of a run in
	// the structured modes, with its retries of a failed model request
	// that its stream does not tell (debuglog.go).
	DebugLog *DebugLog
	// Aliases are other names callers use (Yume's spawner says "openai").
	Aliases []string
	// Title is the CLI's own name, for help and doctor.
	Title string
	// Bin is the default program, looked up in PATH ("" = none: the user
	// gives the command after --).
	Bin string
	// Bins are other program names that are this provider (a recording of
	// a stand-in program replays with this provider's rules).
	Bins []string
	// Profile is the PTY rule profile (heuristics/profiles/NAME.yaml).
	Profile string
	// Install says how to install it.
	Install string
	// Tools are the Claude tool names it can run, for system/init when the
	// provider does not list its own.
	Tools []string
	// Credentials says where its login or API key is found.
	Credentials Credentials
	// Structured lists its machine-readable modes, best first; a newer
	// format of a mode goes above the older one (see ModeFor).
	Structured []Mode
	// MapTool turns one of its tool calls into Claude's tool name and
	// input (nil: its tools already have Claude's names).
	MapTool func(name string, args map[string]any) (string, map[string]any)
	// TUI says how to drive its interactive program in a PTY (nil: the
	// rule profile's command line, no transcript).
	TUI *TUI
	// SideAgentsOff, for a CLI whose own side requests run tools without
	// asking (Qwen Code's memory agents), makes the environment that
	// turns them off for one run (see SideAgentsEnv); nil: it has none.
	SideAgentsOff func(getenv func(string) string) ([]string, error)
	// BaseURLEnv is the environment variable that points the CLI at
	// another API endpoint (--api-base), "" when it has none.
	BaseURLEnv string
	// APIBaseCheck, when set, means --api-base goes into the CLI's own
	// configuration on its command line (Request.APIBase) instead of a
	// variable; it says whether --model names what to point there.
	APIBaseCheck func(model string) error
	// Instructions, for a CLI that takes text to add to its system prompt
	// (or its developer instructions) on its command line, are the
	// arguments that add text, put before the rest (nil: it takes none;
	// yume-cli then says the text did not reach it). See Instructed.
	Instructions func(text string) []string
	// KnownHelp is the part of the program's --help that TUI.Args and the
	// modes' Command read (their flags, and the values each takes), as the
	// newest verified release prints it. "" where nothing is read from
	// --help.
	KnownHelp string
	// Releases are older releases' KnownHelp: every verified release's
	// whose --help is known. With Packages, the release installed is read
	// from its package.json, and one listed here (or the newest verified)
	// starts at once with its own flags: no probe, no second start
	// (KnownProbe). Another release starts at once with the flags of the
	// nearest listed one older than it while its own --help is read in
	// the background (ProbeLater) and cached; one that then turns out not
	// to take those flags is started again with its own (the exception).
	Releases []Release
	// Packages are the npm packages the program comes in (a platform
	// build, "NAME-linux-x64", counts as NAME): where its release is read
	// without running it (PackageVersion).
	Packages []string
	// Updated, for a program that fetches its own updates and runs the
	// newest in place of its package's (Copilot CLI), lists the
	// directories whose x.y.z-named entries are those releases.
	Updated func(getenv func(string) string) []string
	// Verified is the oldest and newest release the live suite passed on
	// (`make drift`, the matrix in docs/providers.md); doctor warns outside it.
	Verified [2]string
}

// VerifiedOn reports whether version lies in the verified range (true
// when no range is recorded or the version is unknown).
func (p *Provider) VerifiedOn(version string) bool {
	if p.Verified[0] == "" || version == "" {
		return true
	}
	return CompareVersions(version, p.Verified[0]) >= 0 && CompareVersions(version, p.Verified[1]) <= 0
}

// TUI is how to run a provider's interactive program for one turn.
type TUI struct {
	// Args is the command line after the program: the permission mode,
	// the session to start or resume, the model, then the prompt as text
	// (after "--"). It fails when the program cannot be put in a mode
	// that asks while l.Mode must ask.
	Args func(l Launch) ([]string, error)
	// NewSession makes the id of a new provider session, when the
	// program takes one (Claude, Copilot, Gemini: --session-id); nil when
	// the program picks its own, which Transcript then finds.
	NewSession func() string
	// Transcript follows the program's own log of the session (not
	// yume-cli's --record asciicast).
	Transcript func(l Launch) transcript.Source
	// LogAfterRun: the log holds a call only once it ran (Gemini),
	// so a question is reported from the screen without waiting for it.
	LogAfterRun bool
	// LogEndsTurns: the log marks the end of each turn; otherwise
	// the screen's done rules (and the idle timeout) end it.
	LogEndsTurns bool
	// ModeName names the program's own mode for l.Mode, for the reports
	// of tool calls it ran without asking ("claude auto mode").
	ModeName func(l Launch) string
	// Env is environment the program gets on top of yume-cli's (nil:
	// none): a variable that would let it run tools unasked, turned off.
	Env func(l Launch) []string
	// PromptTyped says the command line of l does not carry the prompt
	// (nil: it always does): yume-cli types it at the profile's ready
	// input box.
	PromptTyped func(l Launch) bool
	// Cols is the terminal width the program gets unless --cols says
	// otherwise (0: yume-cli's default): wide enough that its question
	// boxes never wrap a command, where the transcript cannot say it exactly.
	Cols int
}

// Launch is what one PTY turn asks of a TUI.
type Launch struct {
	Prompt string
	Model  string
	// APIBase is --api-base, for a program that takes its endpoint in
	// its own configuration (APIBaseCheck set) rather than a variable.
	APIBase string
	Mode    permission.Mode
	// Session is the provider's own session id: the one to start with
	// (NewSession), or to continue when Resume is set.
	Session string
	Resume  bool
	Cwd     string
	// Getenv reads the program's environment (HOME and the like: where
	// it keeps its transcripts).
	Getenv func(string) string
	// Help is the program's --help, from which flags are detected.
	Help string
	// Started is when the program was started: a transcript it creates is
	// newer.
	Started time.Time
	// Bin is the program started (its name or path; "" outside the PTY
	// path), for a transcript read through the program itself.
	Bin string
}

// Mode is one machine-readable mode of a provider.
type Mode struct {
	// Name is "json" or "acp".
	Name string
	// Since is the first version that has it.
	Since string
	// Format names the translator that reads it (see structured).
	Format string
	// Resumes reports whether a session can be continued in this mode.
	Resumes bool
	// Command builds the command line for one turn.
	Command func(Request) Invocation
	// CannotAsk: the program cannot ask before a call in this mode (it
	// rejects what it would ask), so default and interactive modes, which
	// must ask, refuse it and say which mode to use.
	CannotAsk bool
	// AsksNothing: the program never asks before a call in this mode; it
	// rejects what it would ask (codex exec: a call outside its sandbox).
	// Unlike CannotAsk it runs when asked for, but when nobody can answer
	// and the guard answers instead (Yume as it ships), auto mode picks
	// the PTY, where the program asks and the guard can let a write run.
	AsksNothing bool
	// AutoName names the program's own allow-all that auto mode sets, for
	// the approved_by of the calls it then runs without asking ("" = it
	// still asks, and yume-cli's policy answers).
	AutoName string
	// TranscriptFillsGaps: the stream leaves out calls the program refused
	// (codex exec rejects a call its policy forbids without an item), so
	// after the run the TUI's transcript reports the calls the stream did not.
	TranscriptFillsGaps bool
	// WaitsForSideAgents: the program waits for its side requests before
	// its result, so each call they make is in its transcript by then.
	WaitsForSideAgents bool
	// UsageFromTranscript: the stream tells no tokens (Copilot's -p JSON), or
	// none split by the cache (Gemini's ACP counts the cached tokens into
	// its input), so the turn's usage is read from the program's own
	// transcript of the run (TUI.Transcript), which has them split.
	UsageFromTranscript bool
	// InputOmitsCache: the agent's ACP usage counts input without the
	// cache's tokens (opencode and Kilo count their own way), not with
	// them as the OpenAI API and Copilot do.
	InputOmitsCache bool
}

// The structured mode names.
const (
	ModeJSON = "json"
	ModeACP  = "acp"
)

// Request is what a turn asks of the provider's command line.
type Request struct {
	Prompt string
	Model  string
	// Resume is the provider's own session id to continue ("" = new).
	Resume string
	// Auto is true when yume-cli's permission mode lets tools run unasked.
	Auto bool
	// Help is the program's --help, from which flags are detected.
	Help string
	// APIBase is --api-base, for a provider with APIBaseCheck.
	APIBase string
}

// Invocation is a provider's command line for one turn.
type Invocation struct {
	Args []string
	// Env is environment the program gets on top of yume-cli's: its
	// permission settings and configuration for this turn.
	Env []string
	// Stdin is written to the provider's stdin ("" = stdin is /dev/null,
	// unless KeepStdin).
	Stdin string
	// KeepStdin leaves stdin open after Stdin, for a provider that takes
	// control responses there.
	KeepStdin bool
	// Session is the id of the new provider session the command line
	// names, when the CLI takes one: the resume handle is known before
	// the provider says a word.
	Session string
}

// Credentials lists where a provider's credentials may be.
type Credentials struct {
	Env []string
	// Files are relative to HOME unless absolute.
	Files []string
	// HomeEnv names a variable that moves the provider's config directory;
	// Files[0]'s base name is then looked for in it too.
	HomeEnv string
	// LoginKeys are top-level keys of a .json file whose presence means a
	// logged-in user.
	LoginKeys []string
	// EnvFiles are files (relative to HOME) of NAME=value lines the CLI
	// reads its variables from (Gemini CLI's ~/.gemini/.env), best first.
	EnvFiles []string
	// SettingsEnv is a JSON settings file (relative to HOME) whose "env"
	// object the CLI sets its variables from (Claude Code's).
	SettingsEnv string
	// Login logs the CLI in for good with a key exported in a shell
	// profile ({var} names it), where the CLI has such a command.
	Login string
	// Fix says what to run when none are found.
	Fix string
}

// registry holds every provider, in the order doctor and help list them.
var registry []*Provider

// register adds a provider; each descriptor file calls it from init.
func register(p *Provider) {
	if _, ok := Lookup(p.Name); ok {
		panic("providers: " + p.Name + " registered twice")
	}
	registry = append(registry, p)
}

// All returns every provider, in a stable order.
func All() []*Provider {
	out := slices.Clone(registry)
	sort.SliceStable(out, func(i, j int) bool { return order(out[i]) < order(out[j]) })
	return out
}

// order lists the AI CLIs first, then the PTY-only ones.
func order(p *Provider) string {
	if len(p.Structured) > 0 {
		return "0" + p.Name
	}
	return "1" + p.Name
}

// Lookup finds a provider by name or alias.
func Lookup(name string) (*Provider, bool) {
	for _, p := range registry {
		if p.Name == name || slices.Contains(p.Aliases, name) {
			return p, true
		}
	}
	return nil, false
}

// ByCommand is the provider whose program a command line runs, by the
// program's base name (qwen in `/opt/bin/qwen --acp`); nil for any other.
func ByCommand(argv []string) *Provider {
	if len(argv) == 0 {
		return nil
	}
	p, _ := ByBinary(filepath.Base(argv[0]))
	return p
}

// ByBinary finds the provider whose program is bin (a base name).
func ByBinary(bin string) (*Provider, bool) {
	for _, p := range All() {
		if p.Bin != "" && p.Bin == bin || slices.Contains(p.Bins, bin) {
			return p, true
		}
	}
	return nil, false
}

// Names lists every name --provider accepts, aliases included, sorted.
func Names() []string {
	var names []string
	for _, p := range registry {
		names = append(names, p.Name)
		names = append(names, p.Aliases...)
	}
	sort.Strings(names)
	return names
}

// WithStructured lists the providers that have a machine-readable mode.
func WithStructured() []string {
	var names []string
	for _, p := range All() {
		if len(p.Structured) > 0 {
			names = append(names, p.Name)
		}
	}
	return names
}

// Modes lists the structured modes version supports, best first. An
// unknown or unparsable version is taken as current: the user installed it
// recently.
func (p *Provider) Modes(version string) []string {
	var out []string
	for _, m := range p.Structured {
		if Supports(version, m.Since) && !slices.Contains(out, m.Name) {
			out = append(out, m.Name)
		}
	}
	return out
}

// ModeFor is the mode called name that version has: the first such entry
// of Structured whose Since it reaches, so a newer format of the same mode
// is listed above the older one. An unknown version gets the first entry.
func (p *Provider) ModeFor(name, version string) (Mode, bool) {
	for _, m := range p.Structured {
		if m.Name == name && Supports(version, m.Since) {
			return m, true
		}
	}
	return Mode{}, false
}

// Program is the binary to run: bin when given, else the default.
func (p *Provider) Program(bin string) string {
	if bin != "" {
		return bin
	}
	return p.Bin
}

// InstallHint says how to install the provider, as an instruction.
func (p *Provider) InstallHint() string {
	if p.Install == "" {
		return "install " + p.Title
	}
	return p.Install
}

// String is the provider's name.
func (p *Provider) String() string { return p.Name }

// Describe is one line for help: name, aliases and title.
func (p *Provider) Describe() string {
	s := p.Name
	if len(p.Aliases) > 0 {
		s += " (alias " + strings.Join(p.Aliases, ", ") + ")"
	}
	return fmt.Sprintf("%s: %s", s, p.Title)
}
