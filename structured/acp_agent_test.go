package structured

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/transcript"
)

// agentRun runs the fake agent kind: as provider with the test binary
// as its program, or (provider "acp") as the command after --.
type agentRun struct {
	provider, kind, perm, resume string
	answer                       *bool                     // the GUI's answer to every question; nil: no control channel
	custom                       *providers.Provider       // instead of provider's own descriptor
	cwd                          string                    // the workspace (made when empty)
	home                         string                    // the agent's HOME (made when empty)
	seen                         func(line map[string]any) // each line written, as it is
}

func (a *agentRun) run(t *testing.T) (string, []byte, error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	home := cmp.Or(a.home, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tap := &lineTap{gui: a.seen}
	var controls chan emit.Control
	if a.answer != nil {
		controls = make(chan emit.Control, 4)
		defer close(controls)
		tap.gui = func(m map[string]any) {
			if a.seen != nil {
				a.seen(m)
			}
			approveWith(*a.answer)(m, controls, cancel)
		}
	}
	if a.cwd == "" {
		a.cwd = t.TempDir()
	}
	cwd := a.cwd
	p := a.custom
	if p == nil {
		p = prov(a.provider)
	}
	opts := Options{Provider: p, Cwd: cwd, Prompt: "do it", PermissionMode: permission.Mode(a.perm), Resume: a.resume,
		Controls: controls, Stderr: &syncWriter{w: &bytes.Buffer{}}, Env: []string{"YUME_FAKE_CLI=acp-agent:" + a.kind, "HOME=" + home}}
	if a.provider == "acp" {
		opts.Command = []string{exe, "--stdio"}
	} else {
		opts.Bin = exe
	}
	err = Run(ctx, opts, emit.NewWriter(tap, emit.Config{SessionID: "sess-fake"}))
	out := tap.bytes()
	for _, e := range emittest.Validate(out) {
		t.Errorf("conformance: %v", e)
	}
	assertNoLeftovers(t, home)
	return strings.ReplaceAll(runSummary(t, out), cwd, "$CWD"), bytes.ReplaceAll(out, []byte(cwd), []byte("$CWD")), err
}

func TestACPAgents(t *testing.T) {
	yes, no := true, false
	exe, _ := os.Executable()
	agent := exe[strings.LastIndexByte(exe, '/')+1:]
	cases := []struct {
		name string
		run  agentRun
		want string
		in   map[string]string // a tool_use id -> its input as JSON
	}{
		{"the command comes with the first update; allow picks allow_once; a diff is an Edit of the lines that changed",
			agentRun{provider: "acp", kind: "opencode", perm: "default", answer: &yes},
			"notice:yume-cli: " + exe + " --stdio in acp mode | use:c1:Bash | can_use_tool:c1 | result:c1:ok | use:c2:Edit | can_use_tool:c2 | result:c2:ok | text:Done. | end:success",
			map[string]string{"c1": `{"command":"make","description":"build"}`, "c2": `{"file_path":"$CWD/a.txt","new_string":"B\n","old_string":"b\n"}`}},
		{"deny picks reject_once", agentRun{provider: "acp", kind: "opencode", perm: "default", answer: &no},
			"notice:yume-cli: " + exe + " --stdio in acp mode | use:c1:Bash | can_use_tool:c1 | result:c1:err | use:c2:Edit | can_use_tool:c2 | result:c2:err | text:Done. | end:success+denials", nil},
		{"an agent that offers only \"always\": not picked, the call denied", agentRun{provider: "acp", kind: "alwaysonly", perm: "default", answer: &yes},
			"notice:yume-cli: " + exe + " --stdio in acp mode | use:c1:Bash | can_use_tool:c1 | result:c1:err | text:Done. | end:success+denials", nil},
		{"deny mode answers without asking", agentRun{provider: "opencode", kind: "opencode", perm: "deny"},
			"notice:yume-cli: opencode 9.9.9 in acp mode | use:c1:Bash | notice:denied (permission mode deny): make | result:c1:err | use:c2:Edit | notice:denied (permission mode deny): $CWD/a.txt | result:c2:err | text:Done. | end:success+denials", nil},
		{"a call the agent runs unasked in auto mode says who let it", agentRun{provider: "opencode", kind: "unasked", perm: "auto"},
			"notice:yume-cli: opencode 9.9.9 in acp mode | use:c1:Bash | result:c1:ok | text:Done. | end:success",
			map[string]string{"c1": `{"approved_by":"OPENCODE_PERMISSION {\"bash\":\"allow\",\"edit\":\"allow\"}","command":"make","description":"build"}`}},
		{"any ACP agent that runs a call without asking: reported at its end, saying so", agentRun{provider: "acp", kind: "unasked", perm: "auto"},
			"notice:yume-cli: " + exe + " --stdio in acp mode | use:c1:Bash | result:c1:ok | text:Done. | end:success",
			map[string]string{"c1": `{"approved_by":"` + agent + `, without asking","command":"make","description":"build"}`}},
		{"the same in default mode", agentRun{provider: "acp", kind: "unasked", perm: "default"},
			"notice:yume-cli: " + exe + " --stdio in acp mode | use:c1:Bash | result:c1:ok | text:Done. | end:success",
			map[string]string{"c1": `{"approved_by":"` + agent + `, without asking","command":"make","description":"build"}`}},
		{"auth_required: one error result saying how to log in", agentRun{provider: "acp", kind: "auth", perm: "default"},
			"notice:yume-cli: " + exe + " --stdio in acp mode | error:" + agent + " needs you to log in (Authentication required): Run `x auth login` in the terminal, then try again | end:error_during_execution", nil},
		{"auth_required, a named agent: its own login", agentRun{provider: "kilo", kind: "auth", perm: "default"},
			"notice:yume-cli: kilo 9.9.9 in acp mode | error:kilo needs you to log in (Authentication required): run `kilo auth login`, or set your model provider's API key (e.g. ANTHROPIC_API_KEY), then try again | end:error_during_execution", nil},
		{"resume where the agent offers no session/load", agentRun{provider: "acp", kind: "noload", perm: "default", resume: "s-0"},
			"notice:yume-cli: " + exe + " --stdio in acp mode | error:" + agent + " cannot resume sessions (its ACP capabilities offer no loadSession): start a new conversation without --resume | end:error_during_execution", nil},
		{"no control channel: the guard answers, and each tool_use says so", agentRun{provider: "acp", kind: "opencode", perm: "default"},
			"notice:yume-cli: " + exe + " --stdio in acp mode | use:c1:Bash | notice:approved by yume-cli's guard (no approval channel): make | result:c1:ok | use:c2:Edit | notice:approved by yume-cli's guard (no approval channel): $CWD/a.txt | result:c2:ok | text:Done. | end:success",
			map[string]string{"c1": `{"approved_by":"yume-cli guard: no approval channel","command":"make","description":"build"}`,
				"c2": `{"approved_by":"yume-cli guard: no approval channel","file_path":"$CWD/a.txt","new_string":"B\n","old_string":"b\n"}`}},
		{"no control channel: the guard blocks sudo, with a system error", agentRun{provider: "acp", kind: "sudo", perm: "default"},
			"notice:yume-cli: " + exe + " --stdio in acp mode | use:c1:Bash | warning:dangerous command (runs a command as root (sudo)): sudo make install | error:yum…(222 bytes)…lets it run. | result:c1:err | text:Done. | end:success+denials",
			map[string]string{"c1": `{"approved_by":"yume-cli guard: no approval channel","command":"sudo make install","dangerous":"runs a command as root (sudo)","description":"build"}`}},
		{"resume with session/load", agentRun{provider: "qwen", kind: "unasked", perm: "default", resume: "s-1"},
			"notice:yume-cli: qwen 9.9.9 in acp mode | use:c1:Bash | result:c1:ok | text:Done. | end:success", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, out, err := c.run.run(t)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if strings.Contains(string(out), "ALWAYS") {
				t.Error("yume-cli picked an \"always\" option")
			}
			for id, want := range c.in {
				if in := toolInput(t, out, id); in != want {
					t.Errorf("tool_use %s input %s, want %s", id, in, want)
				}
			}
			if t.Failed() {
				t.Logf("stdout:\n%s", out)
			}
		})
	}
}

// toolInput is the input of tool_use id in out, as JSON.
func toolInput(t *testing.T, out []byte, id string) string {
	for _, e := range events(t, out) {
		msg, _ := e["message"].(map[string]any)
		blocks, _ := msg["content"].([]any)
		for _, b := range blocks {
			if m, _ := b.(map[string]any); m["type"] == "tool_use" && m["id"] == id {
				in, _ := json.Marshal(m["input"])
				return string(in)
			}
		}
	}
	return ""
}

// TestACPCallInput: what a tool call's frames say, merged, as Claude's tool.
func TestACPCallInput(t *testing.T) {
	old := "a\nb\nc\n"
	cases := []struct {
		name    string
		updates []string // acpUpdate JSON, in order
		ready   bool
		tool    string // name and input JSON
	}{
		{"opencode bash: announced without its command", []string{`{"kind":"execute","title":"bash","rawInput":{"cwd":"/ws"}}`}, false, `Bash {"command":"bash","description":"command from the agent's title for the call: its input named none"}`},
		{"opencode bash: the first update has it", []string{`{"kind":"execute","title":"bash","rawInput":{"cwd":"/ws"}}`,
			`{"kind":"execute","title":"ls -la","rawInput":{"command":"ls -la","description":"list","cwd":"/ws"}}`}, true, `Bash {"command":"ls -la","description":"list"}`},
		{"qwen shell: empty rawInput", []string{`{"kind":"execute","title":"Shell","rawInput":{}}`}, false, `Bash {"command":"Shell","description":"command from the agent's title for the call: its input named none"}`},
		{"cline run_commands: the commands, never the title", []string{`{"kind":"execute","title":"run_commands: echo a; ls","rawInput":{"commands":["echo a","ls"]}}`},
			true, `Bash {"command":"echo a; ls"}`},
		{"commands as argvs", []string{`{"kind":"execute","rawInput":{"commands":[["git","commit","-m","two words"],["ls"]]}}`}, true, `Bash {"command":"git commit -m 'two words'; ls"}`},
		{"no input: the title, its tool name off, said so", []string{`{"kind":"execute","title":"run_commands: make test"}`}, false, `Bash {"command":"make test","description":"command from the agent's title for the call: its input named none"}`},
		{"the agent's tool name off its title", []string{`{"kind":"execute","name":"mcp__x__Shell","title":"mcp__x__Shell: ls -la"}`}, false, `Bash {"command":"ls -la","description":"command from the agent's title for the call: its input named none"}`},
		{"the model's description kept, the title said", []string{`{"kind":"execute","title":"npm test","rawInput":{"description":"run the tests"}}`}, false,
			`Bash {"command":"npm test","description":"run the tests (command from the agent's title for the call: its input named none)"}`},
		{"cline editor: new_text alone makes the file", []string{`{"kind":"edit","title":"editor: {\"path\":\"/ws/new.txt\",\"...","rawInput":{"path":"/ws/new.txt","new_text":"hello\n"}}`},
			true, `Write {"content":"hello\n","file_path":"/ws/new.txt"}`},
		{"cline editor: old_text and new_text", []string{`{"kind":"edit","rawInput":{"path":"/ws/a.txt","old_text":"a","new_text":"b"}}`},
			true, `Edit {"file_path":"/ws/a.txt","new_string":"b","old_string":"a"}`},
		{"cline run_commands with no kind", []string{`{"title":"run_commands: ls","rawInput":{"commands":["ls"]}}`}, true, `Bash {"command":"ls"}`},
		{"opencode write", []string{`{"kind":"edit","title":"write","rawInput":{}}`, `{"kind":"edit","rawInput":{"filePath":"/ws/n.txt","content":"hi\n"}}`},
			true, `Write {"content":"hi\n","file_path":"/ws/n.txt"}`},
		{"opencode edit: the model's strings win over the diff", []string{`{"kind":"edit","rawInput":{"filePath":"/ws/a.txt","oldString":"b","newString":"B","replaceAll":true}}`,
			`{"kind":"edit","content":[{"type":"diff","path":"/ws/a.txt","oldText":"a\nb\n","newText":"a\nB\n"}]}`},
			true, `Edit {"file_path":"/ws/a.txt","new_string":"B","old_string":"b","replace_all":true}`},
		{"a diff of a new file is a Write", []string{`{"kind":"edit","content":[{"type":"diff","path":"/ws/n.txt","oldText":null,"newText":"x\n"}]}`},
			true, `Write {"content":"x\n","file_path":"/ws/n.txt"}`},
		{"a diff of a change is an Edit of its lines", []string{`{"kind":"edit","content":[{"type":"diff","path":"/ws/a.txt","oldText":` + mustJSONString(old) + `,"newText":"a\nX\nY\nc\n"}]}`},
			true, `Edit {"file_path":"/ws/a.txt","new_string":"X\nY\n","old_string":"b\n"}`},
		{"qwen edit", []string{`{"kind":"edit","rawInput":{"file_path":"/ws/a.txt","old_string":"b","new_string":"c"}}`}, true, `Edit {"file_path":"/ws/a.txt","new_string":"c","old_string":"b"}`},
		{"a read with only a location", []string{`{"kind":"read","title":"read","locations":[{"path":"/ws/a.txt"}]}`}, true, `Read {"file_path":"/ws/a.txt"}`},
		{"a tool with nothing yet", []string{`{"kind":"other","title":"todowrite","rawInput":{}}`}, false, `Tool {"description":"todowrite"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var call acpCall
			for _, u := range c.updates {
				var up acpUpdate
				if err := json.Unmarshal([]byte(u), &up); err != nil {
					t.Fatal(err)
				}
				call.merge(up)
			}
			name, in := call.tool()
			b, _ := json.Marshal(in)
			if got := name + " " + string(b); got != c.tool || call.ready() != c.ready {
				t.Errorf("tool %s ready %v; want %s ready %v", got, call.ready(), c.tool, c.ready)
			}
		})
	}
}

// closingTranscript is an agent's transcript with nothing in it that says
// whether it was closed.
type closingTranscript struct{ closed atomic.Bool }

func (r *closingTranscript) Poll() ([]transcript.Event, error) { return nil, nil }
func (r *closingTranscript) Path() string                      { return "" }
func (r *closingTranscript) Close() error                      { r.closed.Store(true); return nil }

// TestACPClosesTranscript: the agent's own transcript, read for outputs ACP
// leaves out, is closed when the run ends, so a read in flight (a
// subprocess of opencode's CLI) does not outlive yume-cli.
func TestACPClosesTranscript(t *testing.T) {
	p := *prov("opencode")
	tui := *p.TUI
	src := &closingTranscript{}
	tui.Transcript = func(providers.Launch) transcript.Source { return src }
	p.TUI = &tui
	ar := agentRun{provider: "opencode", kind: "unasked", perm: "auto", custom: &p}
	got, _, err := ar.run(t)
	if err != nil || !strings.HasSuffix(got, "end:success") {
		t.Fatalf("run %q, %v", got, err)
	}
	if !src.closed.Load() {
		t.Error("the agent's transcript was left open at the end of the run")
	}
}

// TestACPModesAndClient: an agent that starts in a mode where it decides
// by itself is switched to the one that asks, so every call is asked
// about; one that offers no such mode is said to (a system error Yume
// shows); an agent that uses yume-cli's terminals and file system gets
// them under the permission policy: a command it asked about runs once,
// its output the call's result; a command or write it did not ask about
// is reported as its own Bash or Write and asked about first; denied, it
// does not happen; the session's end ends every command.
func TestACPModesAndClient(t *testing.T) {
	yes, no := true, false
	cases := []struct {
		name string
		run  agentRun
		want []string // in the summary, in order
		not  []string // nowhere in the summary
		ran  bool     // own-ran.txt and notes.md were made
	}{
		{"starts in auto: switched to the mode that asks, asked, approved", agentRun{provider: "acp", kind: "modes-auto", perm: "default", answer: &yes},
			[]string{"text:mode=default. ", "use:c1:Bash", "can_use_tool:c1", "result:c1:ok", "end:success"}, []string{"without asking", "error:"}, false},
		{"starts in auto: denied, not run", agentRun{provider: "acp", kind: "modes-auto", perm: "default", answer: &no},
			[]string{"text:mode=default. ", "can_use_tool:c1", "result:c1:err", "end:success+denials"}, nil, false},
		{"the guard answers for nobody, in the mode that asks", agentRun{provider: "acp", kind: "modes-auto", perm: "default"},
			[]string{"text:mode=default. ", "use:c1:Bash", "notice:approved by yume-cli's guard (no approval channel): make"}, nil, false},
		{"an agent that leaves the mode that asks is put back, saying so", agentRun{provider: "acp", kind: "modes-leave", perm: "default", answer: &yes},
			[]string{"error:", "text:mode=default. ", "can_use_tool:c1", "result:c1:ok", "end:success"}, nil, false},
		{"no mode asks: said as a system error", agentRun{provider: "acp", kind: "modes-none", perm: "default", answer: &yes},
			[]string{"error:", "text:mode=yolo. "}, nil, false},
		{"terminals and files, approved", agentRun{provider: "acp", kind: "client", perm: "default", answer: &yes},
			[]string{"text:mode=default. ", "use:c1:Bash", "can_use_tool:c1", "result:c1:err", `exit=map[exitCode:3 signal:<nil>] output="one\ntwo\n". `,
				"use:term_2:Bash", "can_use_tool:term_2", "result:term_2:ok", "own terminal: true. ", "use:term_3:Bash", "can_use_tool:term_3", "long terminal: true. ",
				"use:fswrite_1:Write", "can_use_tool:fswrite_1", "result:fswrite_1:ok", "write: true. ", `read "# hi\n". `, "use:fsread_2:Read", "can_use_tool:fsread_2", "result:fsread_2:err", "key read: false.", "result:term_3:err", "end:success"}, nil, true},
		{"terminals and files, denied", agentRun{provider: "acp", kind: "client", perm: "default", answer: &no},
			[]string{"use:c1:Bash", "can_use_tool:c1", "result:c1:err", "use:term_1:Bash", "can_use_tool:term_1", "result:term_1:err",
				"own terminal: false. ", "use:term_2:Bash", "result:term_2:err", "long terminal: false. ", "use:fswrite_1:Write", "result:fswrite_1:err",
				"write: false. ", "read failed", "use:fsread_2:Read", "can_use_tool:fsread_2", "result:fsread_2:err", "key read: false.", "end:success+denials"}, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, out, err := c.run.run(t)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			rest := got
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Errorf("summary lacks %q (in order)\n%s", w, got)
					break
				}
				rest = rest[i+len(w):]
			}
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Errorf("summary has %q\n%s", n, got)
				}
			}
			if c.run.kind == "modes-leave" && !strings.Contains(string(out), `switched itself to its session mode Auto (auto), which does not ask before it acts; yume-cli puts it back in Manual (default)`) {
				t.Error("no system error saying the agent left the mode that asks")
			}
			if c.run.kind == "modes-none" && !strings.Contains(string(out), `"subtype":"error","message":"structured.test offers no session mode that asks before it acts (its modes: YOLO (yolo), Plan (plan); now yolo)`) {
				t.Error("no system error saying that no mode asks")
			}
			if c.run.kind == "client" {
				_, errOwn := os.Stat(filepath.Join(c.run.cwd, "own-ran.txt"))
				_, errNotes := os.Stat(filepath.Join(c.run.cwd, "notes.md"))
				if (errOwn == nil) != c.ran || (errNotes == nil) != c.ran {
					t.Errorf("own command ran %v, notes written %v; want %v", errOwn == nil, errNotes == nil, c.ran)
				}
			}
			if t.Failed() {
				t.Logf("stdout:\n%s", out)
			}
		})
	}
}

// recordLate is how long after a call's end the "record-late" agent
// records its output: well past transcriptWait as the test sets it.
const recordLate = 500 * time.Millisecond

// recordSource is the fake agent's transcript: the output of its call c1,
// once the agent has recorded it in $HOME/record.
type recordSource struct{ path string }

func (r recordSource) Poll() ([]transcript.Event, error) {
	b, err := os.ReadFile(r.path)
	if err != nil || !bytes.HasSuffix(b, []byte("\n")) {
		// Not recorded yet, or being written: os.WriteFile truncates, then
		// writes, and a read between the two found the record empty (its
		// tool_result "completed", 1 package run in about 30 under load).
		// A real agent's log is read by whole lines (transcript.Tail): a
		// line without its end waits the same way.
		return nil, nil
	}
	return []transcript.Event{{Kind: transcript.ToolResult, ID: "c1", Output: string(b)}}, nil
}
func (r recordSource) Path() string { return r.path }

// TestACPOutputFromTheTranscript: a call whose output ACP leaves out
// (Gemini's shell calls) gets it from the agent's transcript, which the
// agent writes after it sent the call's end: as soon as it is there,
// without waiting for the agent to speak again; and however late it is
// written, before the agent's next word (Gemini records a call before it
// asks its model again), never "completed" for want of a fixed wait.
func TestACPOutputFromTheTranscript(t *testing.T) {
	wait := transcriptWait
	transcriptWait = recordLate / 5
	t.Cleanup(func() { transcriptWait = wait })
	for _, kind := range []string{"record-late", "record-then-wait"} {
		t.Run(kind, func(t *testing.T) {
			p := *prov("gemini")
			tui := *p.TUI
			tui.Transcript = func(l providers.Launch) transcript.Source {
				return recordSource{filepath.Join(l.Getenv("HOME"), "record")}
			}
			p.TUI = &tui
			home := t.TempDir()
			var results []string
			ar := agentRun{provider: "gemini", kind: kind, perm: "auto", custom: &p, home: home, seen: func(m map[string]any) {
				if m["type"] != "user" {
					return
				}
				for _, b := range m["message"].(map[string]any)["content"].([]any) {
					if b := b.(map[string]any); b["type"] == "tool_result" {
						results = append(results, b["content"].(string))
						_ = os.WriteFile(filepath.Join(home, "result-seen"), nil, 0o600) // the agent waits for it
					}
				}
			}}
			got, _, err := ar.run(t)
			if err != nil || !strings.HasSuffix(got, "result:c1:ok | text:Done. | end:success") {
				t.Errorf("run %q, %v; want the call's result, then the agent's answer", got, err)
			}
			if len(results) != 1 || results[0] != "hi-from-the-record" {
				t.Errorf("tool_results %q, want the transcript's output once", results)
			}
		})
	}
}
