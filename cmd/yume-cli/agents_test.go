package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentFlags: the ACP agents' flag mistakes are usage errors that say
// what to do, and a command after -- of --provider acp that is not there
// is a runtime error naming it; each still ends the stream properly.
func TestAgentFlags(t *testing.T) {
	dir := t.TempDir()
	stream := []string{"--output-format", "stream-json", "--cwd", dir, "--prompt", "hi"}
	errStream := "system/init,system/error,result,message_stop"
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"acp without a command", append([]string{"--provider", "acp"}, stream...), 2, "--provider acp needs the program to run: yume-cli --provider acp -- CMD ARGS…"},
		{"acp in the PTY", append(append([]string{"--provider", "acp", "--mode", "pty"}, stream...), "--", "x"), 2, "acp has no PTY mode: use --mode acp"},
		{"acp in JSON mode", append(append([]string{"--provider", "acp", "--mode", "json"}, stream...), "--", "x"), 1, "a command after -- runs in ACP mode with --provider acp"},
		{"opencode --api-base without provider/model", append([]string{"--provider", "opencode", "--model", "m", "--api-base", "http://127.0.0.1:9/v1"}, stream...), 2,
			"--api-base with opencode needs --model PROVIDER/MODEL"},
		{"kilo --api-base without a model", append([]string{"--provider", "kilo", "--api-base", "http://127.0.0.1:9/v1"}, stream...), 2,
			"--api-base with kilo needs --model PROVIDER/MODEL"},
		{"acp --api-base", append(append([]string{"--provider", "acp", "--api-base", "http://127.0.0.1:9/v1"}, stream...), "--", "x"), 2,
			"--api-base: acp has no setting for its API endpoint"},
		{"acp agent not found", append(append([]string{"--provider", "acp"}, stream...), "--", filepath.Join(dir, "no-agent"), "acp"), 1,
			"no-agent does not exist or is not executable"},
		{"acp agent not in PATH", append(append([]string{"--provider", "acp"}, stream...), "--", "no-such-agent-xyz"), 1,
			"no-such-agent-xyz not found in PATH"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, "", tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.stderr)
			}
			if got := strings.Join(streamTypes(t, stdout), ","); got != errStream {
				t.Errorf("events %s, want %s", got, errStream)
			}
		})
	}
}
