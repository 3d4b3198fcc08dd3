//go:build !unix && !windows

package main

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/run"
)

// RecordOptions is what `yume-cli record` was asked to do; on this OS it
// can do nothing (see record.go for the Unix command).
type RecordOptions struct {
	IO      *run.IOStreams
	Command []string
}

// NewCmdRecord builds a record command that says why it cannot run here:
// recording needs a pseudo-terminal, which yume-cli has on Unix and Windows.
func NewCmdRecord(ios *run.IOStreams, runF func(*RecordOptions) error) *cobra.Command {
	o := &RecordOptions{IO: ios}
	return &cobra.Command{
		Use:                "record [-o FILE] -- CMD ARGS…",
		Short:              "Record a terminal session as an asciinema cast (Unix and Windows only)",
		DisableFlagParsing: true,
		RunE: func(_ *cobra.Command, args []string) error {
			o.Command = args
			if runF != nil {
				return runF(o)
			}
			return fmt.Errorf("record runs a program in a pseudo-terminal, which is unavailable on %s: record on Linux, macOS or Windows", runtime.GOOS)
		},
	}
}
