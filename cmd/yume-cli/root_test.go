package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/run"
)

// runMain runs the command line in memory and returns exit code, stdout, stderr.
func runMain(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(args, &run.IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut})
	return code, out.String(), errOut.String()
}

// execCmd runs cmd as its own root on args, output discarded, and
// returns its error: for NewCmdX tests, whose runF captures the options.
func execCmd(cmd *cobra.Command, args ...string) error {
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	return cmd.Execute()
}

// parsedAs checks what a command's runF saw: want nil means the arguments
// had to be refused, runF not called.
func parsedAs(t *testing.T, err error, got, want any) {
	t.Helper()
	if isNil(want) {
		if err == nil || !isNil(got) {
			t.Errorf("err %v, runF saw %+v; want an error and no run", err, got)
		}
		return
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("err %v, options %+v; want %+v", err, got, want)
	}
}

// isNil: nil, or a nil pointer in an interface.
func isNil(v any) bool {
	r := reflect.ValueOf(v)
	return v == nil || r.Kind() == reflect.Pointer && r.IsNil()
}

// streamTypes lists "type" or "type/subtype" of each stdout line and fails
// on any docs/protocol.md violation.
func streamTypes(t *testing.T, stdout string) []string {
	t.Helper()
	for _, p := range emittest.Validate([]byte(stdout)) {
		t.Errorf("conformance: %v", p)
	}
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if line == "" {
			continue
		}
		var ev struct{ Type, Subtype string }
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("stdout line is not JSON: %q", line)
		}
		if ev.Subtype != "" && ev.Type != "result" {
			ev.Type += "/" + ev.Subtype
		}
		types = append(types, ev.Type)
	}
	return types
}

// TestYumeSpawnLine: the exact line Yume's spawner uses parses into options.
func TestYumeSpawnLine(t *testing.T) {
	dir := t.TempDir()
	var got *StartOptions
	for _, prefix := range [][]string{nil, {"start"}} {
		args := append(prefix, "--provider", "gemini", "--model", "gemini-2.5-pro", "--cwd", dir,
			"--resume", "sess-1", "--history-file", "h.json", "--prompt", "fix the test",
			"--output-format", "stream-json", "--verbose")
		root := NewRootCmd(&run.IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, func(o *StartOptions) error { got = o; return nil })
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		gemini, _ := providers.Lookup("gemini")
		want := StartOptions{ProviderName: "gemini", PermissionMode: "default", ProtocolName: "claude", OutputFormat: "stream-json",
			Config: run.Config{Provider: gemini, Model: "gemini-2.5-pro", Cwd: dir, Resume: "sess-1", HistoryFile: "h.json",
				Prompt: "fix the test", Verbose: true, Permission: permission.Default, Mode: "auto",
				Protocol: emit.Claude, Cols: 120, Rows: 40,
				Bounds:    run.Bounds{Idle: driver.DefaultIdleTimeout, Turn: driver.DefaultTurnTimeout, Tool: driver.DefaultToolTimeout},
				NoChannel: permission.FallbackGuard, TrustFolders: "ask", AutoGuard: "on"}}
		if got.Dangers == nil || len(got.Dangers.Rules()) == 0 {
			t.Errorf("%v: no dangerous-command set loaded", args)
		}
		if got.Settings == nil || len(got.SettingRows) == 0 {
			t.Errorf("%v: no settings read", args)
		}
		if got.Started.IsZero() {
			t.Errorf("%v: the run's start is not kept", args)
		}
		got.IO, got.Dangers, got.Settings, got.SettingRows, got.Started = nil, nil, nil, nil, time.Time{}
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("%v:\n got %+v\nwant %+v", args, *got, want)
		}
	}
}

// TestDashCommand: -- CMD ARGS… is the program, and implies generic.
func TestDashCommand(t *testing.T) {
	var got *StartOptions
	root := NewRootCmd(&run.IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, func(o *StartOptions) error { got = o; return nil })
	root.SetArgs([]string{"--permission-mode", "auto", "--", "rm", "-i", "--", "x"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.Provider.Name != "generic" || !reflect.DeepEqual(got.Command, []string{"rm", "-i", "--", "x"}) {
		t.Errorf("provider %q command %q", got.Provider.Name, got.Command)
	}
}

// TestBadInput: each mistake gets one clear stderr line, the protocol's
// error events when stream-json was asked for, and the right exit code.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	stream := []string{"--output-format", "stream-json"}
	errStream := []string{"system/init", "system/error", "result", "message_stop"}
	tests := []struct {
		name     string
		args     []string
		code     int
		stderr   string
		wantJSON bool
	}{
		{"unknown flag that limits the run", append([]string{"--provider", "gemini", "--max-cost", "3"}, stream...), 2, `unknown flag: --max-cost: this yume-cli `, true},
		// The format in force is stream-json whether a flag says so or not.
		{"unknown flag that limits the run, format not given", []string{"--allowed-tools=Read"}, 2, "unknown flag: --allowed-tools: ", true},
		{"unknown shorthand", append([]string{"--provider", "gemini", "-y"}, stream...), 2, `unknown shorthand flag: 'y' in -y`, true},
		{"bad agent type", append([]string{"--provider", "anthropic", "--agent-type", "wizard"}, stream...), 2, `invalid value "wizard" for --agent-type: use one of architect, explorer, implementer, guardian, specialist`, true},
		{"unknown provider", append([]string{"--provider", "nope", "--cwd", dir}, stream...), 2, `unknown provider "nope": use one of`, true},
		{"no provider", stream, 2, "no provider: pass --provider NAME", true},
		{"missing cwd", append([]string{"--provider", "gemini", "--cwd", filepath.Join(dir, "absent")}, stream...), 2, "is not a directory", true},
		{"bad permission mode", append([]string{"--provider", "gemini", "--permission-mode", "yolo"}, stream...), 2, `invalid value "yolo" for --permission-mode`, true},
		{"bad output format", []string{"--provider", "gemini", "--output-format", "text"}, 2, `invalid value "text" for --output-format`, true},
		{"bad size", append(stream, "--provider", "generic", "--cols", "3", "--", "true"), 2, "window size 3x40 is out of range", true},
		{"stray argument", append([]string{"frobnicate"}, stream...), 2, `unexpected argument "frobnicate"`, true},
		{"generic without command", append([]string{"--provider", "generic"}, stream...), 2, "--provider generic needs the program to run", true},
		{"binary not found", append([]string{"--cwd", dir, "--", filepath.Join(dir, "no-such-program")}, stream...), 1, "no-such-program does not exist or is not executable: check the path", true},
		{"bin not found", append([]string{"--provider", "gh-copilot", "--bin", "no-such-gh-xyz", "--prompt", "x"}, stream...), 1, "gh-copilot (no-such-gh-xyz) is not installed where yume-cli looks: PATH (", true},
		{"bin path missing", append([]string{"--provider", "claude", "--mode", "pty", "--bin", filepath.Join(dir, "no", "claude"), "--prompt", "x", "--cwd", dir}, stream...), 1, "claude (--bin) does not exist or is not executable: correct it, or remove it and install it with `npm install -g @anthropic-ai/claude-code`", true},
		{"provider not installed", append([]string{"--provider", "aider", "--bin", "no-such-aider-xyz", "--cwd", dir, "--prompt", "x"}, stream...), 1, "aider (no-such-aider-xyz) is not installed where yume-cli looks", true},
		{"json mode of a PTY-only provider", append([]string{"--provider", "aider", "--mode", "json"}, stream...), 2, "--mode json works with", true},
		{"bad api base", append([]string{"--provider", "gemini", "--api-base", "ftp://x"}, stream...), 2, `--api-base "ftp://x" is not an http(s) URL`, true},
		{"api base of a program without one", append(stream, "--api-base", "http://127.0.0.1:9", "--", "true"), 2, "--api-base: generic has no setting for its API endpoint", true},
		{"no prompt", append([]string{"--provider", "gemini", "--cwd", dir}, stream...), 1, "no prompt: pass --prompt TEXT or pipe it on stdin", true},
		{"blank prompt", append([]string{"--provider", "claude", "--cwd", dir, "--prompt", " \n "}, stream...), 1, "no prompt", true},
		{"history file missing", append([]string{"--provider", "gemini", "--history-file", filepath.Join(dir, "absent.json")}, stream...), 1, "--history-file: open ", true},
		{"structured provider missing", append([]string{"--provider", "codex", "--bin", "no-such-codex-xyz", "--prompt", "hi", "--cwd", dir}, stream...), 1, "no-such-codex-xyz", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d", code, tt.code)
			}
			if !strings.Contains(stderr, tt.stderr) || !strings.HasPrefix(stderr, "yume-cli: ") {
				t.Errorf("stderr = %q, want it to contain %q", stderr, tt.stderr)
			}
			if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") {
				t.Errorf("stack trace on stderr: %s", stderr)
			}
			if !tt.wantJSON {
				if stdout != "" {
					t.Errorf("stdout = %q, want nothing", stdout)
				}
				return
			}
			if got := streamTypes(t, stdout); strings.Join(got, ",") != strings.Join(errStream, ",") {
				t.Errorf("events %v, want %v", got, errStream)
			}
			if !strings.Contains(stdout, `"is_error":true`) {
				t.Errorf("result is not an error: %s", stdout)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, stdout, _ := runMain(t, "", args...)
		if code != 0 || !strings.HasPrefix(stdout, "yume-cli ") {
			t.Errorf("%v: code %d stdout %q", args, code, stdout)
		}
	}
}

func TestCompletion(t *testing.T) {
	code, stdout, stderr := runMain(t, "", "completion", "bash")
	if code != 0 || !strings.Contains(stdout, "__start_yume-cli") {
		t.Errorf("completion bash: code %d, stderr %q", code, stderr)
	}
}

// TestRunGeneric drives a real program end to end through Main.
func TestRunGeneric(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.txt")
	if err := os.WriteFile(victim, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runMain(t, "", "--cwd", dir, "--permission-mode", "auto", "--output-format", "stream-json",
		"--provider", "generic", "--", "rm", "-i", "victim.txt")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	want := "system/init,assistant,system/notice,user,result,message_stop"
	if got := strings.Join(streamTypes(t, stdout), ","); got != want {
		t.Errorf("events %s, want %s", got, want)
	}
	if _, err := os.Stat(victim); err == nil {
		t.Error("auto mode did not approve rm")
	}
}

// TestRunFlatProtocol: --protocol-version flat emits the flat forms.
func TestRunFlatProtocol(t *testing.T) {
	code, stdout, _ := runMain(t, "", "--protocol-version", "flat", "--permission-mode", "deny",
		"--", "sh", "-c", "printf 'Proceed? (y/n) '; read a; echo answered $a")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	want := "system/init,tool_use,system/notice,tool_result,result,message_stop"
	if got := strings.Join(streamTypes(t, stdout), ","); got != want {
		t.Errorf("events %s, want %s", got, want)
	}
}

// TestFailedTurnExitsOne: a provider that fails its turn (here: exits 1
// without a word) ends yume-cli with exit 1, as every runtime error does,
// after the error result.
func TestFailedTurnExitsOne(t *testing.T) {
	code, stdout, _ := runMain(t, "", "--provider", "gemini", "--mode", "json", "--bin", "/bin/false", "--prompt", "x",
		"--cwd", t.TempDir(), "--output-format", "stream-json")
	if code != 1 || !strings.Contains(stdout, `"is_error":true`) {
		t.Errorf("exit %d, stdout:\n%s\nwant exit 1 after an error result", code, stdout)
	}
}
