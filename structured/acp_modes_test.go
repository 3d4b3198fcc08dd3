package structured

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/providers"
)

// The session modes real agents offered (session/new), and the one
// yume-cli must pick for its default, interactive, guard and deny modes.
func TestPickModeAgents(t *testing.T) {
	cases := []struct {
		agent, current string
		modes          []acpMode
		want           string
		class          modeClass
	}{
		{"claude-agent-acp 0.101 (starts in auto)", "auto", []acpMode{
			{"default", "Manual", "Always ask before making changes"}, {"acceptEdits", "Accept edits", "Automatically accept all file edits"},
			{"plan", "Plan", "Create a plan before making changes"}, {"auto", "Auto", "Claude handles permission decisions"}}, "default", modeAsks},
		{"claude-code-acp 0.16", "default", []acpMode{
			{"default", "Default", "Standard behavior, prompts for dangerous operations"}, {"acceptEdits", "Accept Edits", "Auto-accept file edit operations"},
			{"plan", "Plan Mode", "Planning mode, no actual tool execution"}, {"dontAsk", "Don't Ask", "Don't prompt for permissions, deny if not pre-approved"}}, "default", modeAsks},
		{"codex-acp 0.16", "auto", []acpMode{
			{"read-only", "Read Only", "Codex can read files in the current workspace. Approval is required to edit files or access the internet."},
			{"auto", "Default", "Codex can read and edit files in the current workspace, and run commands. Approval is required to access the internet or edit other files. (Identical to Agent mode)"},
			{"full-access", "Full Access", "Codex can edit files outside this workspace and access the internet without asking for approval. Exercise caution when using."}},
			// Read Only does not do the work (and still runs commands
			// unasked, the scout found): it stays in its working mode,
			// said not to ask.
			"auto", modeLoose},
		{"qwen 0.24 (starts in a classifier's mode)", "auto", []acpMode{
			{"plan", "Plan", "Analyze only, do not modify files or execute commands"}, {"default", "Default", "Require approval for file edits or shell commands"},
			{"auto-edit", "Auto Edit", "Automatically approve file edits"}, {"auto", "Auto", "LLM classifier auto-approves safe actions, blocks risky ones"},
			{"yolo", "YOLO", "Automatically approve all tools"}}, "default", modeAsks},
		{"gemini 0.61", "default", []acpMode{
			{"default", "Default", "Prompts for approval"}, {"autoEdit", "Auto Edit", "Auto-approves edit tools"}, {"yolo", "YOLO", "Auto-approves all tools"},
			{"plan", "Plan", "Read-only mode"}}, "default", modeAsks},
		{"copilot 1.0", "https://agentclientprotocol.com/protocol/session-modes#agent", []acpMode{
			{"https://agentclientprotocol.com/protocol/session-modes#agent", "Agent", "Default agent mode for conversational interactions"},
			{"https://agentclientprotocol.com/protocol/session-modes#plan", "Plan", "Plan mode for creating and executing multi-step plans"},
			{"https://agentclientprotocol.com/protocol/session-modes#autopilot", "Autopilot", "Autonomous mode that enables allow-all and runs until task completion without user interaction (experimental)"}},
			"https://agentclientprotocol.com/protocol/session-modes#agent", modeAsks},
		{"opencode 1.18 (a config option)", "build", []acpMode{
			{"build", "build", "The default agent. Executes tools based on configured permissions."}, {"plan", "plan", "Plan mode. Disallows all edit tools."}}, "build", modeAsks},
		{"none asks", "yolo", []acpMode{{"yolo", "YOLO", "Auto-approves all tools"}, {"plan", "Plan", "Plan only"}}, "yolo", modeLoose},
	}
	for _, c := range cases {
		got, ok := pickMode(c.modes, c.current)
		if !ok || got.mode.ID != c.want || got.class != c.class || got.change != (c.want != c.current) {
			t.Errorf("%s: picked %+v, want %s (%s)", c.agent, got, c.want, c.class)
		}
	}
	if _, ok := pickMode(nil, ""); ok {
		t.Error("no modes: a mode was picked")
	}
}

// modeVocab are the words agents use for modes of each class: a name and
// a description, either may be missing.
var modeVocab = map[modeClass]struct{ names, descs []string }{
	modeAsks: {
		[]string{"Manual", "Ask", "Default", "Ask every time", "Supervised", "Careful", "On request", "Normal", "Standard"},
		[]string{"Always ask before making changes", "Asks before editing files or running commands", "Approval is required for edits and commands",
			"Requires approval for every tool call", "Prompts for approval", "Confirm each action before it runs", "Ask for permission before each change",
			"Standard behavior, prompts for dangerous operations", ""}},
	modeLoose: {
		[]string{"YOLO", "Full Access", "Autopilot", "Bypass Permissions", "Auto", "Accept Edits", "Don't Ask", "Auto Edit", "Trust All", "Unrestricted"},
		[]string{"Runs everything without asking", "Auto-approves all tools", "Never asks for approval", "Automatically accept all file edits",
			"The agent handles permission decisions", "Don't prompt for permissions, deny if not pre-approved", "Skip all permission prompts",
			"Autonomous mode without user interaction", "LLM classifier auto-approves safe actions", "Executes tools without confirmation", ""}},
	modePlan: {
		[]string{"Plan", "Architect", "Planning", "Read Only"},
		[]string{"Create a plan before making changes", "Analyze only, do not modify files or execute commands", "No actual tool execution", "",
			"Read-only mode", "Explore the codebase and plan changes without modifying files", "Answers questions and plans changes; asks before any file change",
			"Plans changes without making them", "Disallows all edit tools"}},
	modeNeutral: {
		[]string{"Build", "Code", "Agent", "Chat", "Coder", "Engineer"},
		[]string{"General coding", "For everyday work", "Conversational interactions", ""}},
}

// genModeID spells a mode's id as agents do: camelCase, kebab, snake, a
// URL's fragment, or an opaque id that says nothing.
func genModeID(r *rand.Rand, name string, i int) string {
	words := strings.FieldsFunc(strings.ToLower(strings.ReplaceAll(name, "'", "")), func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) })
	switch r.IntN(5) {
	case 0:
		for j := 1; j < len(words); j++ {
			words[j] = strings.ToUpper(words[j][:1]) + words[j][1:]
		}
		return strings.Join(words, "")
	case 1:
		return strings.Join(words, "-")
	case 2:
		return strings.Join(words, "_")
	case 3:
		return "https://agents.example/modes#" + strings.Join(words, "-")
	}
	return fmt.Sprintf("m%d", i)
}

// TestPickModeGenerated: generated mode lists, worded as agents word them,
// in any order and starting in any of them: yume-cli picks a mode that
// asks where one does; else it leaves a neutral mode as it is, or goes
// from one known to run calls unasked to a neutral one; else it stays and
// says none asks.
func TestPickModeGenerated(t *testing.T) {
	r := shapeSeed(t)
	for n := range 500 {
		var modes []acpMode
		var classes []modeClass
		used := map[string]bool{}
		for i := range 1 + r.IntN(5) {
			c := modeClass(r.IntN(4))
			v := modeVocab[c]
			name, desc := pick(r, v.names), pick(r, v.descs)
			if c == modeNeutral && r.IntN(3) == 0 {
				name = "" // a mode known by its opaque id only
			}
			id := genModeID(r, name, i)
			if name == "" {
				id = fmt.Sprintf("m%d", i)
			}
			if used[id] {
				continue
			}
			used[id] = true
			modes = append(modes, acpMode{ID: id, Name: name, Description: desc})
			classes = append(classes, c)
		}
		cur := r.IntN(len(modes))
		got, ok := pickMode(modes, modes[cur].ID)
		if !ok {
			t.Fatalf("%d: no pick", n)
		}
		idx := -1
		for i, m := range modes {
			if m.ID == got.mode.ID {
				idx = i
			}
		}
		has := func(c modeClass) bool {
			for _, x := range classes {
				if x == c {
					return true
				}
			}
			return false
		}
		b, _ := json.Marshal(modes)
		var why string
		switch {
		case idx < 0:
			why = "picked a mode not offered"
		case has(modeAsks):
			if classes[idx] != modeAsks || got.class != modeAsks {
				why = fmt.Sprintf("picked a %s mode (classified %s) where one asks", classes[idx], got.class)
			}
		case classes[cur] == modeNeutral:
			if idx != cur || got.change {
				why = "left a neutral current mode with none that asks"
			}
		case has(modeNeutral):
			if classes[idx] != modeNeutral || !got.change {
				why = "stayed in a mode that runs calls unasked (or plans) with a neutral one offered"
			}
		default:
			if idx != cur || got.change || got.class == modeAsks || got.class == modeNeutral {
				why = fmt.Sprintf("with none that asks: picked %s (%s), want the current one, said not to ask", got.mode.ID, got.class)
			}
		}
		if why != "" {
			t.Errorf("%d: %s\nmodes %s\nclasses %v, current %s, picked %+v", n, why, b, classes, modes[cur].ID, got)
		}
	}
}

// TestReadSessionModes: modes from session/new's modes, else from a
// config option of category mode (flat or grouped options).
func TestReadSessionModes(t *testing.T) {
	cases := []struct {
		res, current, ids, config string
	}{
		{`{"sessionId":"s","modes":{"currentModeId":"a","availableModes":[{"id":"a","name":"A"},{"id":"b"}]},"configOptions":[{"id":"mode","category":"mode","type":"select","currentValue":"a","options":[{"value":"x"}]}]}`, "a", "a,b", ""},
		{`{"sessionId":"s","configOptions":[{"id":"model","category":"model","type":"select","currentValue":"m","options":[{"value":"m"}]},{"id":"perm","category":"mode","type":"select","currentValue":"build","options":[{"value":"build","name":"build"},{"value":"plan"}]}]}`, "build", "build,plan", "perm"},
		{`{"sessionId":"s","configOptions":[{"id":"mode","type":"select","currentValue":"x","options":[{"group":"g","name":"G","options":[{"value":"x"},{"value":"y"}]}]}]}`, "x", "x,y", "mode"},
		{`{"sessionId":"s"}`, "", "", ""},
	}
	for _, c := range cases {
		sm := readSessionModes(json.RawMessage(c.res))
		var ids []string
		for _, m := range sm.modes {
			ids = append(ids, m.ID)
		}
		if sm.current != c.current || strings.Join(ids, ",") != c.ids || sm.configID != c.config {
			t.Errorf("%s: current %q modes %v config %q", c.res, sm.current, ids, sm.configID)
		}
	}
}

// TestPermissionEnv: an agent yume-cli knows that asks as its environment
// says gets that setting at ask when run as any ACP agent; others nothing.
func TestPermissionEnv(t *testing.T) {
	cases := map[string]string{
		"opencode": `OPENCODE_PERMISSION={"bash":"ask","edit":"ask"}`,
		"kilo":     `KILO_PERMISSION={"bash":"ask","edit":"ask"}`,
		"qwen":     "", "gemini": "", "claude-code-acp": "",
	}
	for bin, want := range cases {
		got := strings.Join(permissionEnv(providers.ByCommand([]string{"/x/" + bin, "acp"})), " ")
		if got != want {
			t.Errorf("%s: %q, want %q", bin, got, want)
		}
	}
}

// TestClassifyModeWords: a mode is read by what its id, name and
// description say together: an "Auto" whose description says its
// auto-approval is off asks; a mode that only reads, plans or answers
// does not act, whatever it says of asking; a refusal only until it asks
// is asking.
func TestClassifyModeWords(t *testing.T) {
	cases := []struct {
		mode acpMode
		want modeClass
	}{
		{acpMode{"auto", "Auto", "Auto-approve is off: the agent asks before each edit or command"}, modeAsks},
		{acpMode{"auto", "Auto", "Auto-approval disabled"}, modeAsks},
		{acpMode{"auto", "Auto", "Does not auto-approve tools; asks before running them"}, modeAsks},
		{acpMode{"auto", "Auto", "Never auto-approves anything"}, modeAsks},
		{acpMode{"auto", "Auto", "Auto-approve: off"}, modeAsks},
		{acpMode{"auto", "Auto", "Automatic approval is turned off; every call is confirmed"}, modeAsks},
		{acpMode{"auto", "Auto", "No auto-approval: you approve each tool call"}, modeAsks},
		{acpMode{"auto", "Auto", "Auto-approves all tools"}, modeLoose},
		{acpMode{"auto", "Auto", "Claude handles permission decisions"}, modeLoose},
		{acpMode{"auto", "Auto", ""}, modeLoose},
		{acpMode{"auto_approve", "Auto-approve tools", "Automatically approve all tool calls without asking for permission"}, modeLoose},
		{acpMode{"ask", "Ask", "Answers questions and plans changes; asks before any file change"}, modePlan},
		{acpMode{"review", "Review", "Read-only: explores the code and asks before anything"}, modePlan},
		{acpMode{"read-only", "Read Only", "Codex can read files in the current workspace. Approval is required to edit files or access the internet."}, modePlan},
		{acpMode{"plan", "Plan", "Explore the codebase and plan changes without modifying files"}, modePlan},
		{acpMode{"act", "Act", "Make changes to the codebase"}, modeNeutral},
		{acpMode{"default", "Default", "Does not run commands without approval"}, modeAsks},
		{acpMode{"agent", "Agent", "Plans and executes tasks, asking before each change"}, modeAsks},
		{acpMode{"chat", "Chat", "Explains code; never modifies files"}, modePlan},
		{acpMode{"careful", "Careful", "Asks questions before each change"}, modeAsks},
		{acpMode{"qa", "Q&A", "The agent answers questions about your code"}, modePlan},
		{acpMode{"code", "Code", "Writes code and answers questions"}, modeNeutral},
	}
	for _, c := range cases {
		if got, _ := classifyMode(c.mode); got != c.want {
			t.Errorf("%+v: %s, want %s", c.mode, got, c.want)
		}
	}
}

// TestPickModeNeverStopsWork: yume-cli never moves an agent from a mode
// that works to one that plans, reads or answers instead; an "Auto" that
// says it asks is kept.
func TestPickModeNeverStopsWork(t *testing.T) {
	cases := []struct {
		name, current string
		modes         []acpMode
		want          string
		class         modeClass
	}{
		{"an Auto that says it asks, beside a mode that plans and asks", "auto", []acpMode{
			{"auto", "Auto", "Auto-approve is off: the agent asks before each edit or command"},
			{"ask", "Ask", "Answers questions and plans changes; asks before any file change"}}, "auto", modeAsks},
		{"cline: act, with plan offered", "act", []acpMode{
			{"plan", "Plan", "Explore the codebase and plan changes without modifying files"}, {"act", "Act", "Make changes to the codebase"}}, "act", modeNeutral},
		{"a read-only mode that asks is not picked over a working one", "code", []acpMode{
			{"code", "Code", "Writes and runs code"}, {"ro", "Read Only", "Asks before every change"}}, "code", modeNeutral},
		{"from yolo to the working mode, not the one that plans", "yolo", []acpMode{
			{"yolo", "YOLO", "Auto-approves all tools"}, {"architect", "Architect", "Plans; asks first"}, {"build", "Build", ""}}, "build", modeNeutral},
	}
	for _, c := range cases {
		got, ok := pickMode(c.modes, c.current)
		if !ok || got.mode.ID != c.want || got.class != c.class || got.change != (c.want != c.current) {
			t.Errorf("%s: picked %+v, want %s (%s)", c.name, got, c.want, c.class)
		}
	}
}

// TestReadSessionToggles: Cline's boolean config option auto_approve is
// read with its words and value, and its words say it auto-approves;
// other booleans do not.
func TestReadSessionToggles(t *testing.T) {
	rec, err := os.ReadFile("testdata/acp-frames/cline-allow.acp")
	if err != nil {
		t.Fatal(err)
	}
	var res json.RawMessage
	for _, l := range strings.Split(string(rec), "\n") {
		if strings.HasPrefix(l, "< ") && strings.Contains(l, `"configOptions"`) {
			var m acpMessage
			if err := json.Unmarshal([]byte(l[2:]), &m); err != nil {
				t.Fatal(err)
			}
			res = m.Result
		}
	}
	sm := readSessionModes(res)
	if len(sm.toggles) != 1 || sm.toggles[0].ID != "auto_approve" || sm.toggles[0].value == nil || *sm.toggles[0].value || !sm.toggles[0].autoApproves() {
		t.Errorf("toggles %+v: want Cline's auto_approve, off, auto-approving", sm.toggles)
	}
	if sm.current != "act" || len(sm.modes) != 2 {
		t.Errorf("modes %+v", sm)
	}
	for _, o := range []acpToggle{{acpMode: acpMode{ID: "fast", Name: "Fast mode", Description: "Faster output"}}, {acpMode: acpMode{ID: "web", Name: "Web search"}}} {
		if o.autoApproves() {
			t.Errorf("%+v read as auto-approving", o)
		}
	}
}

// TestTogglesChanged: an auto-approve option yume-cli turned off that
// the agent turns back on is said, and turned off again.
func TestTogglesChanged(t *testing.T) {
	var out strings.Builder
	sent := &syncWriter{w: &bytes.Buffer{}}
	s := &acpSession{tr: &acpTranslator{turn: newTurn(emit.NewWriter(&out, emit.Config{}), prov("acp"), "default")}, agent: "cline",
		offToggles: map[string]acpToggle{"auto_approve": {acpMode: acpMode{ID: "auto_approve", Name: "Auto-approve tools"}}}}
	s.conn = newACPConn(sent, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	params := json.RawMessage(`{"sessionId":"s","update":{"sessionUpdate":"config_option_update","configOptions":[{"type":"boolean","id":"auto_approve","name":"Auto-approve tools","currentValue":true}]}}`)
	if err := s.togglesChanged(ctx, params); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "cline turned its option Auto-approve tools (auto_approve) back on") {
		t.Errorf("no system error: %s", out.String())
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		sent.mu.Lock()
		got := sent.w.String()
		sent.mu.Unlock()
		if strings.Contains(got, `"method":"session/set_config_option"`) && strings.Contains(got, `"value":false`) && strings.Contains(got, `"type":"boolean"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not turned off again: %s", got)
		}
	}
	off := json.RawMessage(strings.Replace(string(params), "true", "false", 1))
	before := out.Len()
	if err := s.togglesChanged(ctx, off); err != nil || out.Len() != before {
		t.Errorf("an option left off was said again: %v %s", err, out.String())
	}
}
