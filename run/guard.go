package run

import (
	"fmt"
	"slices"

	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/settings"
)

// GuardRows lists the file's guard rules and exceptions.
func GuardRows(s *settings.Settings) []SettingRow {
	var rows []SettingRow
	for _, r := range s.Block {
		what := r.Reason
		if r.Off {
			what = "off"
		}
		rows = append(rows, SettingRow{"guard.block." + r.Name, what, s.Where(r.Line)})
	}
	for _, a := range s.Allow {
		rows = append(rows, SettingRow{"guard.allow", a.Match + " (" + a.Reason + ")", s.Where(a.Line)})
	}
	return rows
}

// autoGuardHolds reports whether auto mode keeps the guard's list in
// this run: always, or (on, the default) when nobody can answer, where
// the guard is all that stands between the agent and what it flags.
func (cfg *Config) autoGuardHolds() bool {
	switch cfg.AutoGuard {
	case "always":
		return true
	case "on":
		return !hasControlChannel(cfg)
	}
	return false
}

// guardsAuto reports whether the run is in auto mode under the guard:
// the CLI is started in its asking mode (cliMode), so that every call
// reaches yume-cli, which approves all but what the guard flags.
func (cfg *Config) guardsAuto() bool {
	return cfg.Permission == permission.Auto && cfg.autoGuardHolds()
}

// cliMode is the permission mode the CLI is started in: the run's, but
// default (asking) for auto mode under the guard.
func (cfg *Config) cliMode() permission.Mode {
	if cfg.guardsAuto() {
		return permission.Default
	}
	return cfg.Permission
}

// guardAnswers reports whether the guard answers the run's questions:
// default mode, nobody to ask (no control channel), no_channel guard.
func (cfg *Config) guardAnswers() bool {
	return cfg.Permission == permission.Default && !hasControlChannel(cfg) &&
		(cfg.NoChannel == "" || cfg.NoChannel == permission.FallbackGuard)
}

// settleNoChannel runs as --permission-mode auto when no_channel is auto,
// no mode was given and the run knows at its start that nobody can
// answer: the CLI then runs with its own allow-all where it has one, as
// the person chose. It says what is in force, for --verbose.
func (cfg *Config) settleNoChannel() {
	if cfg.NoChannel == permission.FallbackAuto && !cfg.PermissionGiven && cfg.Permission == permission.Default && !hasControlChannel(cfg) {
		cfg.Permission = permission.Auto
		cfg.SettingRows = append(cfg.SettingRows, SettingRow{"permission mode", "auto", "no_channel auto, and no approval channel"})
	}
	if !cfg.Verbose {
		return
	}
	rows := cfg.SettingRows
	if cfg.Settings != nil {
		rows = append(slices.Clip(rows), GuardRows(cfg.Settings)...)
	}
	for _, r := range rows {
		fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: setting %s = %s (%s)\n", r.Key, r.Value, r.From)
	}
}
