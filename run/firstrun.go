package run

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/settings"
)

// firstRunNote is the driver's FirstRun hook: when a fail rule (a first-run
// screen such as folder trust) fires, the other first-run problems of the
// provider yume-cli can see on its own (credentials missing, as `yume-cli
// doctor` finds them), naming the --cwd folder; nil for a provider with
// nothing to check.
func firstRunNote(cfg *Config) func(screen string) string {
	p := cfg.provider()
	if p == nil || p.Credentials.Fix == "" {
		return nil
	}
	return func(screen string) string { return p.FirstRunNote(screen, cfg.Cwd) }
}

// findProgram finds the program a run starts where a Yume user has it,
// whose app runs with launchd's PATH: --bin, the settings file's
// providers.P.bin, PATH (the settings' path first), then the places
// people install CLIs (npm's global folder, nvm, Homebrew…). A program
// found outside PATH becomes cfg.Bin (or the command's program); the folder
// of the interpreter a script found needs (node) goes on PATH, for it and
// what it starts. Not found is an error naming the places and what to do.
func (cfg *Config) findProgram() error {
	p := cfg.provider()
	s := providers.SearchNow(cfg.settingsFile())
	var prog providers.Program
	var err error
	switch {
	case len(cfg.Command) > 0:
		var nf *providers.NotInstalledError
		if prog, err = s.LocateCommand(cfg.Command[0]); errors.As(err, &nf) {
			return nil // the run says so, as for any program it cannot start
		}
		if err == nil && !prog.InPATH {
			cfg.Command = append([]string{prog.Path}, cfg.Command[1:]...)
		}
	case p == nil || p.Bin == "" && cfg.Bin == "":
		return nil
	default:
		if prog, err = s.Locate(p, cfg.Bin, cfg.BinFrom); err == nil && !prog.InPATH {
			cfg.Bin = prog.Path
		}
	}
	if err != nil {
		return err
	}
	if cfg.Verbose {
		fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: program %s (found: %s)\n", prog.Path, prog.How)
	}
	if prog.InterpreterDir != "" {
		path := os.Getenv("PATH")
		if path != "" {
			path += string(filepath.ListSeparator)
		}
		_ = os.Setenv("PATH", path+prog.InterpreterDir) // Best effort: the program then says what it misses.
		if cfg.Verbose {
			fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: %s runs with %s from %s, put on PATH\n", prog.Path, prog.Interpreter, prog.InterpreterDir)
		}
	}
	return nil
}

// checkProfileKey stops a run of a provider whose only credentials are a
// variable a shell profile exports: an app started from the Dock never
// reads a profile, so the CLI would fail on a login it cannot see. The
// error says where to put the key instead; its value is never read.
func (cfg *Config) checkProfileKey() error {
	p := cfg.provider()
	if p == nil || len(cfg.Command) > 0 {
		return nil
	}
	home, _ := os.UserHomeDir()
	if e, ok := p.KeyInProfile(os.Getenv, home); ok {
		return p.ProfileKeyError(e, cfg.settingsFile())
	}
	return nil
}

// settingsFile is the settings file's path, for what errors suggest.
func (cfg *Config) settingsFile() string {
	if cfg.Settings != nil {
		return cfg.Settings.File
	}
	return settings.DefaultPath()
}
