package main

import (
	"testing"

	"github.com/yume-cli/yume-cli/run"
)

// TestNewCmdSessions: each leaf, under the group that owns --json, gets
// its arguments and the --json given before or after the leaf's name.
func TestNewCmdSessions(t *testing.T) {
	ios := &run.IOStreams{}
	tests := []struct {
		name string
		args []string
		want any // the options runF saw; nil: an error, runF not called
	}{
		{"list", []string{"list"}, &SessionsListOptions{IO: ios}},
		{"list --json", []string{"list", "--json"}, &SessionsListOptions{IO: ios, JSON: true}},
		{"--json list", []string{"--json", "list"}, &SessionsListOptions{IO: ios, JSON: true}},
		{"list an argument", []string{"list", "x"}, nil},
		{"show", []string{"show", "sess-1"}, &SessionsShowOptions{IO: ios, ID: "sess-1"}},
		{"show --json", []string{"show", "sess-1", "--json"}, &SessionsShowOptions{IO: ios, JSON: true, ID: "sess-1"}},
		{"--json show", []string{"--json", "show", "sess-1"}, &SessionsShowOptions{IO: ios, JSON: true, ID: "sess-1"}},
		{"show no id", []string{"show"}, nil},
		{"show two ids", []string{"show", "a", "b"}, nil},
		{"rm", []string{"rm", "a"}, &SessionsRmOptions{IO: ios, IDs: []string{"a"}}},
		{"rm several", []string{"rm", "a", "b", "c"}, &SessionsRmOptions{IO: ios, IDs: []string{"a", "b", "c"}}},
		{"rm --json", []string{"rm", "--json", "a"}, &SessionsRmOptions{IO: ios, IDs: []string{"a"}}},
		{"rm no id", []string{"rm"}, nil},
		{"json=maybe", []string{"list", "--json=maybe"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got any
			group := sessionsGroup(
				NewCmdSessionsList(ios, func(o *SessionsListOptions) error { got = o; return nil }),
				NewCmdSessionsShow(ios, func(o *SessionsShowOptions) error { got = o; return nil }),
				NewCmdSessionsRm(ios, func(o *SessionsRmOptions) error { got = o; return nil }))
			err := execCmd(group, tt.args...)
			parsedAs(t, err, got, tt.want)
		})
	}
}
