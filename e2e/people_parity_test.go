package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/internal/fakemodel/offline"
)

// parityCommand is the command of every parity turn, as in the people
// corpus (scripts/person/record-tuis.sh): it makes a file, then lists the
// workspace, which holds notes.txt and plan.md besides.
const parityCommand = "touch seen.txt && ls"

// parityScript is the fake model's script of a parity turn: one shell call,
// then the answer the person's recordings end on.
func parityScript(provider string) fakemodel.Script {
	return fakemodel.Script{Replies: []fakemodel.Reply{
		{Text: "I will show the files.", ToolCalls: []fakemodel.ToolCall{shellCall(provider, parityCommand, "Show the files")}},
		{Text: "Those are the files in this folder."},
	}}
}

// parityWorkspace puts the people corpus's two files in the workspace.
func parityWorkspace(sb *offline.Sandbox) {
	for name, text := range map[string]string{"notes.txt": "notes\n", "plan.md": "plan\n"} {
		if err := os.WriteFile(filepath.Join(sb.Workspace, name), []byte(text), 0o644); err != nil {
			panic(err) // a temporary directory the test made
		}
	}
}

// liveTurn runs one parity turn live, the question approved or denied,
// recorded to cast when it is not "".
func liveTurn(t *testing.T, provider string, approve bool, cast string) *run {
	t.Helper()
	flags := []string{"--mode", "pty", "--prompt", "show me the files here"}
	if cast != "" {
		flags = append(flags, "--record", cast)
	}
	h := newHome(t, provider)
	parityWorkspace(h.sb)
	return h.run(t, parityScript(provider), gui{answer: func(int) bool { return approve }}, flags...)
}

// replayed is what `yume-cli replay CAST` reported: its tool_uses and
// tool_results, and its stderr (the differences it found).
func replayed(t *testing.T, cast string, flags ...string) (*run, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, yumeBin, append([]string{"replay", cast}, flags...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run() // A recording that ends in an error exits 1; the events say what happened.
	r := &run{raw: stdout.Bytes(), results: map[string]result{}}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var ev event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Errorf("replay stdout line is not JSON: %q", sc.Bytes())
			continue
		}
		r.events = append(r.events, ev)
		r.collect(ev)
	}
	return r, stderr.String()
}

// call is a tool_use and its tool_result, as compared live and replayed:
// the tool, the input fields that say what runs (command, file path,
// content, description), the output and whether it is an error.
type call struct {
	Name    string
	Input   map[string]string
	Output  string
	IsError bool
}

// calls are r's tool_uses in order, each with its result.
func calls(r *run) []call {
	var out []call
	for _, u := range r.uses {
		c := call{Name: u.Name, Input: map[string]string{}}
		for _, k := range []string{"command", "file_path", "content", "description"} {
			if v, ok := u.Input[k]; ok {
				c.Input[k] = fmt.Sprint(v)
			}
		}
		if res, ok := r.results[u.ID]; ok {
			c.Output, c.IsError = strings.TrimRight(res.Content, "\n"), res.IsError
		} else {
			c.Output = "(no tool_result)"
		}
		out = append(out, c)
	}
	return out
}

// differences lists where replayed calls differ from live ones.
func differences(live, replay []call) []string {
	var d []string
	if len(live) != len(replay) {
		d = append(d, fmt.Sprintf("%d tool_uses live, %d replayed", len(live), len(replay)))
	}
	for i := range min(len(live), len(replay)) {
		l, r := live[i], replay[i]
		if l.Name != r.Name {
			d = append(d, fmt.Sprintf("call %d: tool %q live, %q replayed", i+1, l.Name, r.Name))
		}
		if !reflect.DeepEqual(l.Input, r.Input) {
			d = append(d, fmt.Sprintf("call %d: input %q live, %q replayed", i+1, l.Input, r.Input))
		}
		if l.Output != r.Output || l.IsError != r.IsError {
			d = append(d, fmt.Sprintf("call %d: tool_result %q (error %v) live, %q (error %v) replayed", i+1, l.Output, l.IsError, r.Output, r.IsError))
		}
	}
	return d
}

// TestLiveReplayParity runs a turn of each AI TUI live with --record, its
// question approved once and denied once, then replays the recording, and
// holds the replay's tool_uses and tool_results to the live run's.
func TestLiveReplayParity(t *testing.T) {
	live(t)
	mismatched := 0
	cases := 0
	for _, provider := range providers {
		for _, approve := range []bool{true, false} {
			name := provider + map[bool]string{true: "-approve", false: "-deny"}[approve]
			t.Run(name, func(t *testing.T) {
				cliPath(t, provider)
				cases++
				cast := filepath.Join(t.TempDir(), name+".cast")
				live := liveTurn(t, provider, approve, cast)
				if len(live.uses) == 0 {
					t.Fatalf("no tool_use live:\n%s", live.raw)
				}
				keep(t, cast, live.trace)
				rp, stderr := replayed(t, cast)
				if strings.Contains(stderr, "keys differ") || strings.Contains(stderr, "after the last output") {
					t.Errorf("the replay reports differences:\n%s", stderr)
				}
				if d := differences(calls(live), calls(rp)); len(d) > 0 {
					mismatched++
					t.Errorf("replay differs from the live run:\n%s\nlive:\n%s\nreplay:\n%s", strings.Join(d, "\n"), live.raw, rp.raw)
				}
			})
		}
	}
	t.Logf("live vs replay: %d of %d cases differ", mismatched, cases)
}

// keep copies cast, and the live run's trace beside it, into $E2E_KEEP (a
// directory) when it is set, to look at them after the test.
func keep(t *testing.T, cast, trace string) {
	dir := os.Getenv("E2E_KEEP")
	if dir == "" {
		return
	}
	b, err := os.ReadFile(cast)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, filepath.Base(cast)), b, 0o600)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, strings.TrimSuffix(filepath.Base(cast), ".cast")+".trace.jsonl"), []byte(trace), 0o600)
	}
	if err != nil {
		t.Errorf("E2E_KEEP: %v", err)
	}
}

// peopleTUIs are the people corpus's recordings of the AI TUIs
// (recordings/testdata/people): a person typed parityScript's prompt and
// answered the dialog, at the releases .e2e/bin held when recorded.
// noRecord marks the ones whose program never drew the command's output
// (Claude Code folds it into "Ran 1 shell command", Copilot until Ctrl-O)
// in a recording that holds no transcript: their replayed tool_result
// must say so, where a live run reads the output from that log. In
// claude-unfold and copilot-unfold the person pressed Ctrl-O, which draws
// it: the replay reads it there.
var peopleTUIs = []struct {
	cast, provider string
	approve        bool
	noRecord       bool
}{
	{"claude-approve", "claude", true, true},
	{"claude-deny", "claude", false, false},
	{"claude-unfold", "claude", true, false},
	{"codex-approve", "codex", true, false},
	{"codex-slow-enter", "codex", true, false},
	{"copilot-approve", "copilot", true, true},
	{"copilot-unfold", "copilot", true, false},
	{"gemini-approve", "gemini", true, false},
}

// noOutputResult is the replayed tool_result of a command whose output a
// recording never showed (driver.noOutputRecorded).
const noOutputResult = "(the program showed no output for this command, and the recording does not have it: a live run reads it from the program's transcript)"

// TestLivePeopleParity replays each person's recording of an AI TUI and
// runs the same prompt live, answered alike: the tool_uses and
// tool_results must be the same, except the output a recording without
// the program's transcript never showed, which the replay must say it
// lacks.
func TestLivePeopleParity(t *testing.T) {
	live(t)
	mismatched, departures, cases := 0, 0, 0
	for _, p := range peopleTUIs {
		t.Run(p.cast, func(t *testing.T) {
			cliPath(t, p.provider)
			cases++
			rp, stderr := replayed(t, filepath.Join("..", "recordings", "testdata", "people", p.cast+".cast"))
			if strings.Contains(stderr, "keys differ") || strings.Contains(stderr, "after the last output") {
				t.Errorf("the replay reports differences:\n%s", stderr)
			}
			live := liveTurn(t, p.provider, p.approve, "")
			lc, rc := calls(live), calls(rp)
			if p.noRecord {
				if len(rc) != 1 || rc[0].Output != noOutputResult || rc[0].IsError {
					t.Errorf("replayed calls %+v: want one whose tool_result is %q", rc, noOutputResult)
				} else {
					departures++
					t.Logf("departure (documented): live output %q, replayed %q", lc[0].Output, rc[0].Output)
					rc[0].Output = lc[0].Output // the rest must match
				}
			}
			if d := differences(lc, rc); len(d) > 0 {
				mismatched++
				t.Errorf("replay differs from the live run:\n%s\nlive:\n%s\nreplay:\n%s", strings.Join(d, "\n"), live.raw, rp.raw)
			}
		})
	}
	t.Logf("people casts vs live: %d of %d differ; %d replay without the output the recording lacks", mismatched, cases, departures)
}
