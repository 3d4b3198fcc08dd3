package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/run"
)

// useSettings gives the test a YUME_HOME of its own holding text as its
// settings file ("" = none), and returns the file's path.
func useSettings(t *testing.T, text string) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("YUME_HOME", home)
	path := filepath.Join(home, "settings.yaml")
	if text != "" {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// parsed is the options Yume's spawn line (plus extra) makes.
func parsed(t *testing.T, extra ...string) *StartOptions {
	t.Helper()
	var got *StartOptions
	root := NewRootCmd(&run.IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, func(o *StartOptions) error { got = o; return nil })
	root.SetArgs(append([]string{"--provider", "aider", "--model", "m", "--cwd", t.TempDir(), "--prompt", "hi",
		"--output-format", "stream-json", "--verbose"}, extra...))
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestSettingsPrecedence: a flag given wins over a variable, which wins
// over the file, which wins over the default; each says where it came
// from.
func TestSettingsPrecedence(t *testing.T) {
	const file = "no_channel: deny\ntimeouts:\n  idle: 7s\n  turn: 3m\nproviders:\n  aider:\n    bin: /opt/aider/bin/aider\n"
	for _, c := range []struct {
		name      string
		file      string
		env       map[string]string
		flags     []string
		idle      time.Duration
		turn      time.Duration
		noChannel permission.Fallback
		bin       string
		from      map[string]string // key -> where it came from
	}{
		{"defaults", "", nil, nil, 5 * time.Second, 10 * time.Minute, permission.FallbackGuard, "",
			map[string]string{"no_channel": "default", "timeouts.idle": "default"}},
		{"the file", file, nil, nil, 7 * time.Second, 3 * time.Minute, permission.FallbackDeny, "/opt/aider/bin/aider",
			map[string]string{"no_channel": "settings.yaml:1", "timeouts.idle": "settings.yaml:3", "timeouts.turn": "settings.yaml:4", "providers.aider.bin": "settings.yaml:7"}},
		{"a variable over the file", file, map[string]string{"YUME_IDLE_TIMEOUT": "9s", "YUME_NO_CHANNEL": "auto"}, nil, 9 * time.Second, 3 * time.Minute, permission.FallbackAuto, "/opt/aider/bin/aider",
			map[string]string{"no_channel": "env YUME_NO_CHANNEL", "timeouts.idle": "env YUME_IDLE_TIMEOUT", "timeouts.turn": "settings.yaml:4"}},
		{"a flag over both", file, map[string]string{"YUME_IDLE_TIMEOUT": "9s"}, []string{"--idle-timeout", "11s", "--bin", "/usr/bin/aider"}, 11 * time.Second, 3 * time.Minute, permission.FallbackDeny, "/usr/bin/aider",
			map[string]string{"timeouts.idle": "flag --idle-timeout", "timeouts.turn": "settings.yaml:4"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			useSettings(t, c.file)
			for _, k := range []string{"YUME_IDLE_TIMEOUT", "YUME_NO_CHANNEL", "YUME_TURN_TIMEOUT", "YUME_TOOL_TIMEOUT"} {
				t.Setenv(k, c.env[k])
			}
			o := parsed(t, c.flags...)
			if o.Bounds.Idle != c.idle || o.Bounds.Turn != c.turn || o.NoChannel != c.noChannel || o.Bin != c.bin {
				t.Errorf("idle %v turn %v no_channel %s bin %q; want %v %v %s %q", o.Bounds.Idle, o.Bounds.Turn, o.NoChannel, o.Bin, c.idle, c.turn, c.noChannel, c.bin)
			}
			for key, want := range c.from {
				found := false
				for _, r := range o.SettingRows {
					if r.Key == key {
						found = true
						if !strings.HasSuffix(r.From, want) {
							t.Errorf("%s comes from %q, want …%s", key, r.From, want)
						}
					}
				}
				if !found {
					t.Errorf("%s: not among the settings in force %+v", key, o.SettingRows)
				}
			}
		})
	}
}

// TestSettingsBadVariable: a variable's bad value stops the run naming it.
func TestSettingsBadVariable(t *testing.T) {
	useSettings(t, "")
	t.Setenv("YUME_TURN_TIMEOUT", "soon")
	code, stdout, stderr := runMain(t, "", "--provider", "aider", "--cwd", t.TempDir(), "--prompt", "hi", "--output-format", "stream-json")
	if code == 0 || !strings.Contains(stderr, `timeouts.turn (env YUME_TURN_TIMEOUT): "soon" is not a duration`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, `"subtype":"error"`) {
		t.Errorf("no system error on stdout:\n%s", stdout)
	}
}

// TestSettingsMalformed: a malformed file stops the run before anything
// starts, on stderr and as a system error and an error result on stdout
// (Yume shows system errors), naming the file and the line.
func TestSettingsMalformed(t *testing.T) {
	path := useSettings(t, "no_channel: guard\ntimeouts:\n  turn: 10 minutes\n")
	code, stdout, stderr := runMain(t, "", "--provider", "aider", "--cwd", t.TempDir(), "--prompt", "hi", "--output-format", "stream-json", "--verbose")
	where := path + ":3:9: timeouts.turn"
	if code != 1 || !strings.Contains(stderr, where) {
		t.Errorf("exit %d, stderr %q; want 1 and %s", code, stderr, where)
	}
	if got := strings.Join(streamTypes(t, stdout), ","); got != "system/init,system/error,result,message_stop" {
		t.Errorf("events %s", got)
	}
	for _, want := range []string{`"subtype":"error","message":"` + where, `"is_error":true`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %s:\n%s", want, stdout)
		}
	}
}

// TestSettingsGuard: the file's rules and exceptions join the guard's set.
func TestSettingsGuard(t *testing.T) {
	useSettings(t, `guard:
  block:
    - name: terraform-destroy
      reason: destroys infrastructure
      scope: command
      match: '^terraform\s+destroy(\s|$)'
    - name: force-push
      off: true
  allow:
    - match: 'rm -rf (node_modules|dist)'
      reason: build outputs
`)
	o := parsed(t)
	for cmd, want := range map[string]string{
		"terraform destroy -auto-approve": "destroys infrastructure",
		"git push --force":                "",
		"rm -rf node_modules":             "",
		"rm -rf src":                      "deletes a directory tree (rm -r)",
	} {
		if got := o.Dangers.Check(cmd); got != want {
			t.Errorf("%s: %q, want %q", cmd, got, want)
		}
	}
}

// TestSettingsEnvironment: the file's variables reach the provider's CLI
// where yume-cli's environment has none (the provider's own over the
// ones for all), and its path goes before PATH.
func TestSettingsEnvironment(t *testing.T) {
	useSettings(t, "path: [/opt/tools/bin]\nenv:\n  YUME_T_ALL: all\n  YUME_T_BOTH: all\n  YUME_T_SET: file\nproviders:\n  aider:\n    env:\n      YUME_T_BOTH: aider\n")
	t.Setenv("PATH", "/usr/bin:/bin")
	t.Setenv("YUME_T_ALL", "")
	t.Setenv("YUME_T_BOTH", "")
	t.Setenv("YUME_T_SET", "shell")
	o := parsed(t)
	for k, want := range map[string]string{"YUME_T_ALL": "all", "YUME_T_BOTH": "aider", "YUME_T_SET": "shell", "PATH": "/opt/tools/bin:/usr/bin:/bin"} {
		if got := os.Getenv(k); got != want {
			t.Errorf("%s=%q, want %q", k, got, want)
		}
	}
	for _, r := range o.SettingRows {
		if strings.Contains(r.Value, "all") || strings.Contains(r.Value, "aider") || strings.Contains(r.Value, "file") {
			t.Errorf("a variable's value is shown: %+v", r)
		}
	}
}

// TestDoctorSettings: doctor shows the settings in force, where each came
// from, variables masked; --json too; a malformed file is an error it
// shows (exit 1) beside the providers.
func TestDoctorSettings(t *testing.T) {
	path := useSettings(t, "no_channel: deny\nproviders:\n  gemini:\n    env:\n      GEMINI_API_KEY: AIza-very-secret\n")
	t.Setenv("YUME_TOOL_TIMEOUT", "1m")
	t.Setenv("GEMINI_API_KEY", "")
	t.Setenv("PATH", t.TempDir()) // no provider CLI: doctor stays quick
	code, stdout, _ := runMain(t, "", "doctor")
	if code != 0 {
		t.Errorf("doctor exit %d", code)
	}
	for _, want := range []string{"settings: " + path, "SETTING", "no_channel", "deny", path + ":1",
		"timeouts.tool", "env YUME_TOOL_TIMEOUT", "timeouts.idle", "default",
		"providers.gemini.env.GEMINI_API_KEY", "•••• (16 characters)", path + ":5", "PROVIDER"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("doctor lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "AIza") {
		t.Errorf("doctor printed a secret:\n%s", stdout)
	}
	_, stdout, _ = runMain(t, "", "doctor", "--json")
	var rep doctorReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, stdout)
	}
	if !rep.Settings.Found || rep.Settings.File != path || len(rep.Providers) == 0 || strings.Contains(stdout, "AIza") {
		t.Errorf("doctor --json: %+v", rep.Settings)
	}
	if e := rep.Settings.Entries[0]; e != (run.SettingRow{Key: "no_channel", Value: "deny", From: path + ":1"}) {
		t.Errorf("first entry %+v", e)
	}
	if err := os.WriteFile(path, []byte("no_channel: sometimes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ = runMain(t, "", "doctor")
	if code != 1 || !strings.Contains(stdout, path+":1:13: no_channel") || !strings.Contains(stdout, "PROVIDER") {
		t.Errorf("doctor with a malformed file: exit %d\n%s", code, stdout)
	}
}

// TestIsDevNull: only the null device is /dev/null, not a file or a pipe.
func TestIsDevNull(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	other, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if !isDevNull(f) || isDevNull(other) || isDevNull(r) {
		t.Errorf("isDevNull: /dev/null %v, a file %v, a pipe %v", isDevNull(f), isDevNull(other), isDevNull(r))
	}
}
