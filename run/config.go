package run

import (
	"os"
	"time"

	"github.com/yume-cli/yume-cli/background"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/settings"
)

// Config is one run, built once by the command from its flags, the
// settings file and the environment, with every value typed: the
// provider's descriptor, the permission mode, the event shapes, the
// bounds. Start owns it from then on; what the run learns as it goes
// (the provider as driven, the AgentOutput's recorder) is kept beside it.
type Config struct {
	IO *IOStreams

	// Provider is the provider's descriptor (--provider, or generic for
	// a bare -- CMD): never nil once the command built the Config.
	Provider *providers.Provider
	// Permission is the run's permission mode; PermissionGiven says the
	// flag was given (no_channel auto yields to it).
	Permission      permission.Mode
	PermissionGiven bool
	// NoChannel is who answers when nobody can (settings no_channel).
	NoChannel permission.Fallback
	// AutoGuard says when auto mode keeps the guard's list (settings
	// auto_guard: on, always, off; see autoGuardHolds): the CLI then runs
	// in its asking mode and yume-cli approves all but what the guard flags.
	AutoGuard string
	// Dangers is the dangerous-command set, judged against Cwd.
	Dangers *permission.Dangers

	Mode     string // auto, pty, json or acp
	Protocol emit.Protocol
	Bounds   Bounds

	Model       string
	Cwd         string
	Resume      string
	HistoryFile string
	APIBase     string
	Prompt      string
	Verbose     bool
	SessionID   string
	RulesFile   string
	RecordFile  string
	RecordRaw   bool // keep secrets in the --record cast
	Trace       bool
	TraceFile   string
	Bin         string
	BinFrom     string // where Bin was given: "--bin", the settings file's line
	Cols, Rows  int
	ColsSet     bool     // --cols was given: a provider's own width does not apply
	Command     []string // after "--"

	// Settings is the settings file (nil: none); SettingRows are the
	// settings in force with where each came from (--verbose says them).
	Settings    *settings.Settings
	SettingRows []SettingRow
	// TrustFolders answers an agent's "trust this folder?" (settings).
	TrustFolders string

	// Yume's background agents (background.go): the agent's role, the
	// AgentOutput file, progress lines on stderr, the branch to work on.
	AgentType  string
	OutputFile string
	Async      bool
	GitBranch  string

	// Newer says, one note each, the flags of a newer Yume this yume-cli
	// ignored: the stream says them too, after init.
	Newer []string
	// Started is when the run started (the AgentOutput's duration).
	Started time.Time

	// driven is the provider as this run drives it (driven.go); nil
	// until the run starts: then Provider.
	driven *providers.Provider
	// recorder keeps the AgentOutput and says progress (nil: neither).
	recorder *background.Recorder
	// outputDone: --output-file was written.
	outputDone bool
}

// Bounds are a run's time limits (--idle-timeout, --turn-timeout,
// --tool-timeout); zero is the driver's default.
type Bounds struct {
	Idle, Turn, Tool time.Duration
}

// SettingRow is one setting in force and where it came from, for doctor
// and --verbose.
type SettingRow struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	From  string `json:"from"`
}

// provider is the descriptor of the run's provider: as the run drives it
// once it started.
func (cfg *Config) provider() *providers.Provider {
	if cfg.driven != nil {
		return cfg.driven
	}
	return cfg.Provider
}

// providerEnv is what the provider's program gets on top of yume-cli's
// environment from the run: its API endpoint (--api-base).
func (cfg *Config) providerEnv() []string {
	// No program yume-cli drives updates itself under it (providers.NoSelfUpdate).
	env := providers.NoSelfUpdate(os.Getenv)
	if cfg.APIBase == "" || cfg.provider().BaseURLEnv == "" {
		return env // none, or it goes into the provider's own config
	}
	return append(env, cfg.provider().BaseURLEnv+"="+cfg.APIBase)
}

// OutputWritten reports whether --output-file was written.
func (cfg *Config) OutputWritten() bool { return cfg.outputDone }
