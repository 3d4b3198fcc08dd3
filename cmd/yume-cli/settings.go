package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/run"
	"github.com/yume-cli/yume-cli/settings"
)

// The settings file ($YUME_HOME/settings.yaml) is where a Yume user, who
// passes no flag and whose shell profile never reaches an app started
// from the Dock, sets what a flag would. Each setting comes from, in
// order: a flag given, a variable set, the file, the default.

// knob is a setting with one value: its key in the file, its flag and
// variable ("" = none), its default, and what a value does to a run.
type knob struct {
	key, flag, env string
	file           func(*settings.Settings) settings.Value
	def            func() string
	apply          func(o *StartOptions, v string) error
}

var knobs = []knob{
	{"no_channel", "", "YUME_NO_CHANNEL", func(s *settings.Settings) settings.Value { return s.NoChannel },
		func() string { return string(permission.FallbackGuard) },
		func(o *StartOptions, v string) (err error) {
			o.NoChannel, err = permission.ParseFallback(v)
			return err
		}},
	{"trust_folders", "", "YUME_TRUST_FOLDERS", func(s *settings.Settings) settings.Value { return s.TrustFolders },
		func() string { return "ask" },
		func(o *StartOptions, v string) error {
			if v != "ask" && v != "yes" && v != "no" {
				return fmt.Errorf("%q is not one of ask, yes, no", v)
			}
			o.TrustFolders = v
			return nil
		}},
	{"auto_guard", "", autoGuardEnv, autoGuardFile,
		func() string { return "on" },
		func(o *StartOptions, v string) error {
			if v != "on" && v != "always" && v != "off" {
				return fmt.Errorf("%q is not one of on, always, off", v)
			}
			o.AutoGuard = v
			return nil
		}},
	{"timeouts.idle", "idle-timeout", "YUME_IDLE_TIMEOUT", func(s *settings.Settings) settings.Value { return s.IdleTimeout },
		func() string { return driver.DefaultIdleTimeout.String() },
		func(o *StartOptions, v string) (err error) { o.Bounds.Idle, err = positiveDuration(v); return err }},
	{"timeouts.turn", "turn-timeout", "YUME_TURN_TIMEOUT", func(s *settings.Settings) settings.Value { return s.TurnTimeout },
		func() string { return driver.DefaultTurnTimeout.String() },
		func(o *StartOptions, v string) (err error) { o.Bounds.Turn, err = positiveDuration(v); return err }},
	{"timeouts.tool", "tool-timeout", "YUME_TOOL_TIMEOUT", func(s *settings.Settings) settings.Value { return s.ToolTimeout },
		func() string { return driver.DefaultToolTimeout.String() },
		func(o *StartOptions, v string) (err error) { o.Bounds.Tool, err = positiveDuration(v); return err }},
}

// autoGuardEnv says when auto mode keeps the guard's list: on (the
// default: when nobody can answer), always, or off. The settings file has
// no key of its own for it: it sets it under env:, where yume-cli reads it
// too (autoGuardFile).
const autoGuardEnv = "YUME_AUTO_GUARD"

// autoGuardFile is YUME_AUTO_GUARD as the settings file's env: sets it.
func autoGuardFile(s *settings.Settings) settings.Value {
	for _, v := range s.Env {
		if v.Name == autoGuardEnv {
			return settings.Value{Text: v.Value, Line: v.Line}
		}
	}
	return settings.Value{}
}

// autoGuardSays is what auto mode does for a value of auto_guard, for
// doctor.
func autoGuardSays(v string) string {
	const kept = "the CLI runs in its asking mode, and yume-cli approves every call but those the guard flags (asked where someone can answer, else denied)"
	const allowAll = "the CLI's own allow-all runs: the guard flags what it sees, and stops only what the CLI still asks about"
	switch v {
	case "always":
		return "auto mode keeps the guard's list (YUME_AUTO_GUARD always): " + kept
	case "off":
		return "auto mode runs the CLI's own allow-all (YUME_AUTO_GUARD off): " + allowAll
	}
	return "with nobody to answer (stdin /dev/null: Yume, its background agents) auto mode keeps the guard's list: " + kept + "; with an approval channel " + allowAll
}

func positiveDuration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a duration: write it like 90s, 10m or 1h", v)
	}
	return d, nil
}

// pick is where a knob's value comes from: a flag given (flags nil: no
// flags, as in doctor), a variable, the file, the default.
func (k knob) pick(s *settings.Settings, flags *pflag.FlagSet, getenv func(string) string) (value, from string) {
	if flags != nil && k.flag != "" && flags.Changed(k.flag) {
		return flags.Lookup(k.flag).Value.String(), "flag --" + k.flag
	}
	if k.env != "" && getenv(k.env) != "" {
		return getenv(k.env), "env " + k.env
	}
	if v := k.file(s); v.Set() {
		return v.Text, s.Where(v.Line)
	}
	return k.def(), "default"
}

// applySettings reads the settings file and fills in what no flag gave:
// the knobs, the provider's program, the guard's rules and exceptions,
// and the environment its CLI gets. A malformed file stops the run.
func (o *StartOptions) applySettings(flags *pflag.FlagSet) error {
	s, err := settings.Load(settings.DefaultPath())
	if err != nil {
		return err
	}
	o.Settings = s
	o.SettingRows = nil
	for _, k := range knobs {
		v, from := k.pick(s, flags, os.Getenv)
		o.SettingRows = append(o.SettingRows, run.SettingRow{Key: k.key, Value: v, From: from})
		if strings.HasPrefix(from, "flag") {
			continue // the flag already set it
		}
		if err := k.apply(o, v); err != nil {
			return fmt.Errorf("%s (%s): %w", k.key, from, err)
		}
	}
	o.PermissionGiven = flags != nil && flags.Changed("permission-mode")
	p, ok := providers.Lookup(o.ProviderName)
	if !ok {
		return nil // validate says so
	}
	switch b := s.Provider(p.Name).Bin; {
	case o.Bin != "":
		o.BinFrom = "--bin"
	case b.Set():
		o.Bin = b.Text
		o.BinFrom = "providers." + p.Name + ".bin in " + s.Where(b.Line)
		o.SettingRows = append(o.SettingRows, run.SettingRow{Key: "providers." + p.Name + ".bin", Value: b.Text, From: s.Where(b.Line)})
	}
	o.SettingRows = append(o.SettingRows, applyEnvironment(s, p.Name)...)
	return nil
}

// applyEnvironment puts the file's path before PATH and sets its
// variables (the provider's own over the ones for all) where yume-cli's
// environment has none: yume-cli and every program it starts see them.
func applyEnvironment(s *settings.Settings, provider string) []run.SettingRow {
	rows := environmentRows(s, provider, os.Getenv)
	prependPath(s)
	for _, v := range slices.Concat(s.Provider(provider).Env, s.Env) {
		if os.Getenv(v.Name) == "" {
			_ = os.Setenv(v.Name, v.Value) // Best effort, as above.
		}
	}
	return rows
}

// prependPath puts the file's path before PATH, for yume-cli's own
// lookups and every program it starts.
func prependPath(s *settings.Settings) {
	if len(s.Path) == 0 {
		return
	}
	dirs := make([]string, 0, len(s.Path)+1)
	for _, d := range s.Path {
		dirs = append(dirs, d.Text)
	}
	if old := os.Getenv("PATH"); old != "" {
		dirs = append(dirs, old)
	}
	_ = os.Setenv("PATH", strings.Join(dirs, string(filepath.ListSeparator))) // Best effort: a failed Setenv leaves PATH as it was.
}

// environmentRows says what the file's path and variables do for a run
// of provider ("" = every provider's, for doctor), values masked.
func environmentRows(s *settings.Settings, provider string, getenv func(string) string) []run.SettingRow {
	var rows []run.SettingRow
	for _, d := range s.Path {
		rows = append(rows, run.SettingRow{Key: "path", Value: d.Text, From: s.Where(d.Line) + " (before PATH)"})
	}
	add := func(key string, v settings.Var) {
		row := run.SettingRow{Key: key, Value: masked(v.Value), From: s.Where(v.Line)}
		if getenv(v.Name) != "" && getenv(v.Name) != v.Value {
			row.From = "env " + v.Name + " (the environment wins over " + s.Where(v.Line) + ")"
		}
		rows = append(rows, row)
	}
	for _, name := range providers.Names() {
		if provider != "" && name != provider {
			continue
		}
		for _, v := range s.Provider(name).Env {
			add("providers."+name+".env."+v.Name, v)
		}
		if b := s.Provider(name).Bin; provider == "" && b.Set() {
			rows = append(rows, run.SettingRow{Key: "providers." + name + ".bin", Value: b.Text, From: s.Where(b.Line)})
		}
	}
	for _, v := range s.Env {
		add("env."+v.Name, v)
	}
	return rows
}

// masked shows that a secret is set, never what it is.
func masked(v string) string {
	if v == "" {
		return "(empty)"
	}
	return fmt.Sprintf("•••• (%d characters)", len([]rune(v)))
}
