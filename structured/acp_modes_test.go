package structured

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

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
			{"full-access", "Full Access", "Codex can edit files outside this workspace and access the internet without asking for approval. Exercise caution when using."}}, "read-only", modeAsks},
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
		[]string{"Manual", "Ask", "Default", "Ask every time", "Supervised", "Careful", "Read Only", "On request", "Normal", "Standard"},
		[]string{"Always ask before making changes", "Asks before editing files or running commands", "Approval is required for edits and commands",
			"Requires approval for every tool call", "Prompts for approval", "Confirm each action before it runs", "Ask for permission before each change",
			"Standard behavior, prompts for dangerous operations", ""}},
	modeLoose: {
		[]string{"YOLO", "Full Access", "Autopilot", "Bypass Permissions", "Auto", "Accept Edits", "Don't Ask", "Auto Edit", "Trust All", "Unrestricted"},
		[]string{"Runs everything without asking", "Auto-approves all tools", "Never asks for approval", "Automatically accept all file edits",
			"The agent handles permission decisions", "Don't prompt for permissions, deny if not pre-approved", "Skip all permission prompts",
			"Autonomous mode without user interaction", "LLM classifier auto-approves safe actions", "Executes tools without confirmation", ""}},
	modePlan: {
		[]string{"Plan", "Architect", "Planning"},
		[]string{"Create a plan before making changes", "Analyze only, do not modify files or execute commands", "No actual tool execution", ""}},
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
