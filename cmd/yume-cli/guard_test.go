//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeAider stands in for aider: it suggests the command its message
// names ("run: CMD") and asks before running it, as aider does.
const fakeAider = `#!/bin/sh
cmd=${1#--message=run: }
printf '%s\n\nRun shell command? (Y)es/(N)o/(D)on'"'"'t ask again [Yes]: ' "$cmd"
read answer
case $answer in
y*|Y*) sh -c "$cmd" ;;
*) echo Skipped. ;;
esac
`

// yumeRun is yume-cli started exactly as Yume starts it: its spawn line,
// no permission flag, stdin /dev/null (or a pipe that ends while a
// question waits), and launchd's kind of environment (PATH=/usr/bin:/bin
// and HOME, nothing else). The provider's program is found through the
// settings file under HOME, as a Yume user would set it.
type yumeRun struct {
	bin, home, cwd, provider string
	// closeWhileAsked: stdin is a pipe, closed when the first permission
	// request comes out (the GUI went away while a question waited).
	closeWhileAsked bool
	// fails: the run must end with exit status 1 (an error it reports).
	fails bool
}

func (r yumeRun) run(t *testing.T, prompt string) (events []map[string]any, raw, stderr string) {
	t.Helper()
	cmd := exec.Command(r.bin, "--provider", r.provider, "--model", "m", "--cwd", r.cwd, "--prompt", prompt,
		"--output-format", "stream-json", "--verbose")
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + r.home}
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	var stdin io.WriteCloser
	if r.closeWhileAsked {
		var err error
		if stdin, err = cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
	} // else nil: exec gives the program /dev/null
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		var e map[string]any
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("stdout line is not JSON: %q", sc.Text())
		}
		events = append(events, e)
		if e["type"] == "control_request" && stdin != nil {
			_ = stdin.Close()
			stdin = nil
		}
	}
	if err := cmd.Wait(); (err != nil) != r.fails || r.fails && cmd.ProcessState.ExitCode() != 1 {
		t.Errorf("yume-cli: %v (want an exit status of 1: %v)\n%s\n%s", err, r.fails, out.String(), errBuf.String())
	}
	_ = streamTypes(t, out.String()) // conformance
	return events, out.String(), errBuf.String()
}

// writeSettings writes HOME/.yume/settings.yaml.
func writeSettings(t *testing.T, home, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(home, ".yume"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".yume", "settings.yaml"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestGuardAsYumeStartsIt: a PTY program and a structured one (Claude's
// JSON mode), started as Yume starts them: an ordinary command runs and
// says the guard approved it; a guarded one does not run, and is
// reported (a tool_result naming the rule, a system error Yume shows,
// the result's permission_denials). The same when stdin ends while the
// question waits.
func TestGuardAsYumeStartsIt(t *testing.T) {
	bin := buildCLI(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, provider := range []string{"aider", "claude"} {
		for _, closeWhileAsked := range []bool{false, true} {
			for _, guarded := range []bool{false, true} {
				name := provider + map[bool]string{false: "/stdin-null", true: "/stdin-ends-while-asked"}[closeWhileAsked] +
					map[bool]string{false: "/ordinary", true: "/guarded"}[guarded]
				t.Run(name, func(t *testing.T) {
					home, cwd := t.TempDir(), t.TempDir()
					if err := os.Mkdir(filepath.Join(cwd, "victim"), 0o755); err != nil {
						t.Fatal(err)
					}
					command := "touch made.txt"
					if guarded {
						command = "rm -rf victim"
					}
					switch provider {
					case "aider":
						aider := filepath.Join(home, "fake-aider")
						if err := os.WriteFile(aider, []byte(fakeAider), 0o755); err != nil {
							t.Fatal(err)
						}
						writeSettings(t, home, "providers:\n  aider:\n    bin: "+aider+"\n")
					case "claude":
						// The test binary plays Claude Code (TestMain): the
						// variable that makes it so comes from the settings.
						writeSettings(t, home, "providers:\n  claude:\n    bin: "+self+"\n    env:\n      YUME_FAKE_CLAUDE: '"+command+"'\n")
					}
					events, raw, stderr := yumeRun{bin: bin, home: home, cwd: cwd, provider: provider, closeWhileAsked: closeWhileAsked}.run(t, "run: "+command)
					checkGuarded(t, events, raw, stderr, command, guarded)
					_, madeErr := os.Stat(filepath.Join(cwd, "made.txt"))
					_, victimErr := os.Stat(filepath.Join(cwd, "victim"))
					if guarded && victimErr != nil || !guarded && madeErr != nil {
						t.Errorf("what ran is not what the guard decided (made.txt: %v, victim: %v)\n%s", madeErr, victimErr, raw)
					}
				})
			}
		}
	}
}

// checkGuarded checks how the stream reports the guard's decision.
func checkGuarded(t *testing.T, events []map[string]any, raw, stderr, command string, guarded bool) {
	t.Helper()
	var sysErr, result string
	var denials []any
	for _, e := range events {
		switch e["type"] {
		case "system":
			if e["subtype"] == "error" {
				sysErr, _ = e["message"].(string)
			}
		case "user":
			for _, b := range e["message"].(map[string]any)["content"].([]any) {
				if b, _ := b.(map[string]any); b["type"] == "tool_result" {
					result, _ = b["content"].(string)
				}
			}
		case "result":
			denials, _ = e["permission_denials"].([]any)
		}
	}
	said := strings.Contains(raw, `"approved_by":"yume-cli guard: no approval channel"`) ||
		strings.Contains(raw, "approved by yume-cli's guard (no approval channel): "+command)
	if !guarded {
		if !said || sysErr != "" || len(denials) != 0 {
			t.Errorf("ordinary %q: guard said so %v, system error %q, denials %v\n%s\n%s", command, said, sysErr, denials, raw, stderr)
		}
		return
	}
	if !strings.Contains(result, "Blocked by yume-cli's guard (rule recursive-delete") {
		t.Errorf("tool_result %q does not name the rule\n%s", result, raw)
	}
	if !strings.Contains(sysErr, "yume-cli guard blocked "+command+" (rule recursive-delete") {
		t.Errorf("system error %q does not name the command and the rule\n%s", sysErr, raw)
	}
	if len(denials) != 1 {
		t.Errorf("permission_denials %v, want the blocked call\n%s", denials, raw)
	}
}

// TestNoChannelAutoAsYumeStartsIt: with no_channel: auto in the settings
// file, a run started as Yume starts it is a run in auto mode: an
// ordinary command is approved; a dangerous one is not (nobody to ask),
// and the person hears of it.
func TestNoChannelAutoAsYumeStartsIt(t *testing.T) {
	bin := buildCLI(t)
	for _, guarded := range []bool{false, true} {
		home, cwd := t.TempDir(), t.TempDir()
		if err := os.Mkdir(filepath.Join(cwd, "victim"), 0o755); err != nil {
			t.Fatal(err)
		}
		aider := filepath.Join(home, "fake-aider")
		if err := os.WriteFile(aider, []byte(fakeAider), 0o755); err != nil {
			t.Fatal(err)
		}
		writeSettings(t, home, "no_channel: auto\nproviders:\n  aider:\n    bin: "+aider+"\n")
		command := map[bool]string{false: "touch made.txt", true: "rm -rf victim"}[guarded]
		_, raw, _ := yumeRun{bin: bin, home: home, cwd: cwd, provider: "aider"}.run(t, "run: "+command)
		want := []string{`"permissionMode":"auto"`, "auto-approved (permission mode auto): touch made.txt"}
		if guarded {
			want = []string{`"permissionMode":"auto"`, `"subtype":"error","message":"yume-cli did not run rm -rf victim (rule recursive-delete`,
				"is never auto-approved", `"permission_denials":[{"tool_name":"Bash"`}
		}
		for _, w := range want {
			if !strings.Contains(raw, w) {
				t.Errorf("%s: stream lacks %s\n%s", command, w, raw)
			}
		}
		if _, err := os.Stat(filepath.Join(cwd, "victim")); err != nil {
			t.Errorf("%s: the victim is gone", command)
		}
	}
}
