//go:build windows

package ptyhost

import "testing"

func TestExitStatusOf(t *testing.T) {
	tests := []struct {
		code    uint32
		stopped bool
		want    ExitStatus
	}{
		{0, false, ExitStatus{Code: 0}},
		{1, true, ExitStatus{Code: 1}},
		{stoppedExitCode, false, ExitStatus{Code: stoppedExitCode}}, // the program's own 137
		{stoppedExitCode, true, ExitStatus{Code: -1, Signal: "SIGKILL"}},
		{statusControlCExit, false, ExitStatus{Code: -1, Signal: "SIGINT"}},
		{0xC0000005, false, ExitStatus{Code: 0xC0000005}},
	}
	for _, tt := range tests {
		if got := exitStatusOf(tt.code, tt.stopped); got != tt.want {
			t.Errorf("exitStatusOf(%#x, %v) = %+v; want %+v", tt.code, tt.stopped, got, tt.want)
		}
	}
}
