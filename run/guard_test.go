package run

import (
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/permission"
)

// TestNoChannelAuto: no_channel auto runs as --permission-mode auto only
// when nobody can answer from the start and no mode was given.
func TestNoChannelAuto(t *testing.T) {
	for _, c := range []struct {
		name      string
		io        IOStreams
		fb        permission.Fallback
		modeGiven bool
		want      string
	}{
		{"stdin /dev/null", IOStreams{In: strings.NewReader(""), InIsNull: true}, permission.FallbackAuto, false, "auto"},
		{"no stdin", IOStreams{}, permission.FallbackAuto, false, "auto"},
		{"a terminal", IOStreams{In: strings.NewReader(""), InIsTerminal: true}, permission.FallbackAuto, false, "auto"},
		{"a pipe: someone may answer", IOStreams{In: strings.NewReader("")}, permission.FallbackAuto, false, "default"},
		{"--permission-mode default given", IOStreams{In: strings.NewReader(""), InIsNull: true}, permission.FallbackAuto, true, "default"},
		{"no_channel guard", IOStreams{In: strings.NewReader(""), InIsNull: true}, permission.FallbackGuard, false, "default"},
	} {
		t.Run(c.name, func(t *testing.T) {
			io := c.io
			o := &Config{IO: &io, Permission: permission.Default, Prompt: "hi", NoChannel: c.fb, PermissionGiven: c.modeGiven}
			o.settleNoChannel()
			if string(o.Permission) != c.want {
				t.Errorf("permission mode %s, want %s", o.Permission, c.want)
			}
		})
	}
}

// TestControlChannel: which stdin can carry frames.
func TestControlChannel(t *testing.T) {
	pipe := strings.NewReader("")
	for _, c := range []struct {
		name string
		o    Config
		want bool
	}{
		{"a pipe", Config{IO: &IOStreams{In: pipe}, Permission: permission.Default}, true},
		{"none", Config{IO: &IOStreams{}, Permission: permission.Default}, false},
		{"/dev/null", Config{IO: &IOStreams{In: pipe, InIsNull: true}, Permission: permission.Default}, false},
		{"a terminal", Config{IO: &IOStreams{In: pipe, InIsTerminal: true}, Permission: permission.Default}, false},
		{"a terminal, interactive", Config{IO: &IOStreams{In: pipe, InIsTerminal: true}, Permission: permission.Interactive}, true},
		{"a persistent session", Config{IO: &IOStreams{In: pipe, InIsNull: true}, SessionID: "s", Provider: prov(t, "opencode")}, true},
	} {
		if got := hasControlChannel(&c.o); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
