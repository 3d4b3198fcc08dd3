package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/run"
	"github.com/yume-cli/yume-cli/settings"
)

// doctorReport is doctor's --json: the settings in force, then the
// providers.
type doctorReport struct {
	Settings  doctorSettings     `json:"settings"`
	Providers []providers.Status `json:"providers"`
}

type doctorSettings struct {
	File  string `json:"file"`
	Found bool   `json:"found"`
	// Error is what is wrong with the file (a run stops on it).
	Error   string           `json:"error,omitempty"`
	Entries []run.SettingRow `json:"entries"`
	// AutoMode says what --permission-mode auto does with the guard.
	AutoMode string `json:"auto_mode"`
}

// DoctorOptions is what `yume-cli doctor` was asked to do.
type DoctorOptions struct {
	IO *run.IOStreams

	JSON bool
}

// NewCmdDoctor builds the doctor command; runF replaces runDoctor in tests
// of flag parsing.
func NewCmdDoctor(ios *run.IOStreams, runF func(*DoctorOptions) error) *cobra.Command {
	o := &DoctorOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Show the settings in force, which provider CLIs are installed, their modes, and what to fix",
		Long: `doctor shows the settings in force and where each came from (a variable,
the settings file and its line, or the default; variables' values masked),
then checks each provider yume-cli knows: is it installed, where, which
version, which modes that version supports (acp, json, pty), whether
credentials appear configured (presence only: nothing is sent anywhere, no
secret is printed), and what to run to fix what is missing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return runDoctor(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the report as JSON")
	return cmd
}

func runDoctor(ctx context.Context, o *DoctorOptions) error {
	rep, s := doctorSettingsNow()
	prependPath(s) // where a run would look for the CLIs
	rep.Providers = providers.DoctorWith(ctx, providers.DoctorSetup{
		Run: func(name string) (string, string, func(string) string) {
			b, from := s.Provider(name).Bin, ""
			if b.Set() {
				from = "providers." + name + ".bin in " + s.Where(b.Line)
			}
			return b.Text, from, settingsEnv(s, name)
		},
		Yume:     func(name string) func(string) string { return yumeEnv(s, name) },
		Settings: s.File,
	})
	if o.JSON {
		enc := json.NewEncoder(o.IO.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printDoctor(o.IO, rep)
	}
	if rep.Settings.Error != "" {
		return &run.ExitError{Code: 1} // said above: a run would stop on it
	}
	return nil
}

// doctorSettingsNow reads the settings file and says what is in force
// with no flag given. A malformed file is reported, and the defaults
// shown beside it.
func doctorSettingsNow() (doctorReport, *settings.Settings) {
	path := settings.DefaultPath()
	s, err := settings.Load(path)
	rep := doctorReport{Settings: doctorSettings{File: path}}
	if err != nil {
		rep.Settings.Error = err.Error()
		s = &settings.Settings{File: path}
	}
	rep.Settings.Found = s.Found
	for _, k := range knobs {
		v, from := k.pick(s, nil, os.Getenv)
		rep.Settings.Entries = append(rep.Settings.Entries, run.SettingRow{Key: k.key, Value: v, From: from})
		if k.key == "auto_guard" {
			rep.Settings.AutoMode = autoGuardSays(v)
		}
	}
	rep.Settings.Entries = append(rep.Settings.Entries, environmentRows(s, "", os.Getenv)...)
	rep.Settings.Entries = append(rep.Settings.Entries, run.GuardRows(s)...)
	return rep, s
}

// settingsEnv reads a variable as a run of provider would: yume-cli's
// environment, else the file's value for that provider, else for all.
func settingsEnv(s *settings.Settings, provider string) func(string) string {
	return func(name string) string {
		if v := os.Getenv(name); v != "" {
			return v
		}
		for _, v := range slices.Concat(s.Provider(provider).Env, s.Env) {
			if v.Name == name {
				return v.Value
			}
		}
		return ""
	}
}

// launchdPATH is the PATH of an app started from the Dock or Finder.
const launchdPATH = "/usr/bin:/bin:/usr/sbin:/sbin"

// yumeEnv reads a variable as a run of provider that Yume started from
// the Dock or Finder would: launchd's PATH after the settings file's path,
// HOME, the file's variables, nothing a shell profile exports.
func yumeEnv(s *settings.Settings, provider string) func(string) string {
	home, _ := os.UserHomeDir()
	return func(name string) string {
		switch name {
		case "PATH":
			var dirs []string
			for _, d := range s.Path {
				dirs = append(dirs, d.Text)
			}
			return strings.Join(append(dirs, launchdPATH), string(filepath.ListSeparator))
		case "HOME":
			return home
		}
		for _, v := range slices.Concat(s.Provider(provider).Env, s.Env) {
			if v.Name == name {
				return v.Value
			}
		}
		return ""
	}
}

func printDoctor(ios *run.IOStreams, rep doctorReport) {
	st := rep.Settings
	switch {
	case st.Error != "":
		fmt.Fprintf(ios.Out, "settings: %s is not valid (a run stops on it):\n%s\n", st.File, st.Error)
	case st.Found:
		fmt.Fprintf(ios.Out, "settings: %s\n", st.File)
	default:
		fmt.Fprintf(ios.Out, "settings: %s (none: the defaults)\n", st.File)
	}
	tw := tabwriter.NewWriter(ios.Out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SETTING\tVALUE\tFROM")
	for _, r := range st.Entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Key, r.Value, r.From)
	}
	_ = tw.Flush() // Best effort: a closed stdout has no reader to tell.
	fmt.Fprintf(ios.Out, "auto mode: %s\n\n", st.AutoMode)
	tw = tabwriter.NewWriter(ios.Out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROVIDER\tINSTALLED\tVERSION\tMODES\tCREDENTIALS\tFOUND\tFROM YUME\tPATH")
	for _, s := range rep.Providers {
		creds := "-"
		if s.Credentials {
			creds = "yes (" + s.CredentialSource + ")"
		} else if s.Installed {
			creds = "not found"
		}
		fromYume := s.FromYume
		if fromYume == "" && s.Installed {
			fromYume = "not found"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Name, yesNo(s.Installed), orDash(s.Version),
			orDash(strings.Join(s.Modes, ",")), creds, orDash(s.Found), orDash(fromYume), orDash(s.Path))
	}
	_ = tw.Flush() // Best effort, as above.
	for _, s := range rep.Providers {
		for i, p := range s.Problems {
			fix := ""
			if i < len(s.Fix) {
				fix = ": " + s.Fix[i]
			}
			fmt.Fprintf(ios.Out, "%s: %s%s\n", s.Name, p, fix)
		}
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
