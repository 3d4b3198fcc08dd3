package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/run"
)

// version and commit are set at link time (scripts/dist.sh, `make dist`):
// -ldflags "-X main.version=v1.2.3 -X main.commit=abc1234".
var (
	version = ""
	commit  = ""
)

func versionString() string {
	bi, _ := debug.ReadBuildInfo() // nil in a binary built without module support
	return formatVersion(version, commit, bi)
}

// formatVersion is the `version` line: the stamped version and commit
// where the build stamped them, what the Go toolchain recorded otherwise
// (the module version; the VCS revision, cut to 12 characters, "-dirty"
// when the tree had changes), "dev" and no commit when neither is known.
func formatVersion(v, c string, bi *debug.BuildInfo) string {
	if v == "" {
		v = "dev"
		if bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
	}
	if c == "" && bi != nil {
		c = vcsCommit(bi.Settings)
	}
	if c != "" {
		c = "commit " + c + ", "
	}
	return fmt.Sprintf("yume-cli %s (%s%s, %s/%s)", v, c, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// vcsCommit is the short revision `go build` stamped from the checkout
// (-buildvcs), "" when it stamped none.
func vcsCommit(settings []debug.BuildSetting) string {
	var rev string
	var dirty bool
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return ""
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
}

// VersionOptions is what `yume-cli version` was asked to do.
type VersionOptions struct {
	IO *run.IOStreams
}

// NewCmdVersion builds the version command; runF replaces runVersion in
// tests of argument parsing.
func NewCmdVersion(ios *run.IOStreams, runF func(*VersionOptions) error) *cobra.Command {
	o := &VersionOptions{IO: ios}
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version and commit",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(o)
			}
			return runVersion(o)
		},
	}
}

func runVersion(o *VersionOptions) error {
	fmt.Fprintln(o.IO.Out, versionString())
	return nil
}
