package main

import (
	"testing"

	"github.com/yume-cli/yume-cli/run"
)

// TestNewCmdDoctor: --json reaches the options; arguments and a --json
// that is not a boolean are refused before doctor runs.
func TestNewCmdDoctor(t *testing.T) {
	ios := &run.IOStreams{}
	tests := []struct {
		name string
		args []string
		want *DoctorOptions // nil: an error, runF not called
	}{
		{"table", nil, &DoctorOptions{IO: ios}},
		{"json", []string{"--json"}, &DoctorOptions{IO: ios, JSON: true}},
		{"json=false", []string{"--json=false"}, &DoctorOptions{IO: ios}},
		{"an argument", []string{"x"}, nil},
		{"json=maybe", []string{"--json=maybe"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *DoctorOptions
			err := execCmd(NewCmdDoctor(ios, func(o *DoctorOptions) error { got = o; return nil }), tt.args...)
			parsedAs(t, err, got, tt.want)
		})
	}
}
