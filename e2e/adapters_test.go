package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// acpAgent is an ACP agent or adapter from npm that yume-cli drives as
// any ACP agent (--provider acp -- ARGV…), offline in the sandbox of the
// model API it speaks.
type acpAgent struct {
	name    string // its program in .e2e/bin
	sandbox string // the offline sandbox whose model API it uses
	argv    []string
	// shell is the model's call of the agent's shell tool.
	shell func(command string) fakemodel.ToolCall
	// write, when set, is the model's call writing a new file.
	write func(path, content string) fakemodel.ToolCall
}

// claudeShell is Claude's Bash; over ACP, Claude Code's adapter offers it
// as mcp__acp__Bash (run in yume-cli's terminal), since yume-cli offers
// terminals.
func claudeShell(tool string) func(string) fakemodel.ToolCall {
	return func(command string) fakemodel.ToolCall {
		return fakemodel.ToolCall{Name: tool, Args: map[string]any{"command": command, "description": "make the file", "timeout": 60000}}
	}
}

// acpAgents are the agents tried (docs/providers.md, "Any ACP agent"): the adapters
// of Claude Code and Codex, and the ACP modes of Gemini CLI and Copilot
// CLI, each run as an agent yume-cli knows nothing about.
var acpAgents = []acpAgent{
	{name: "claude-code-acp", sandbox: "claude", argv: []string{"claude-code-acp"}, shell: claudeShell("mcp__acp__Bash"),
		write: func(path, content string) fakemodel.ToolCall {
			return fakemodel.ToolCall{Name: "mcp__acp__Write", Args: map[string]any{"file_path": path, "content": content}}
		}},
	{name: "codex-acp", sandbox: "codex", argv: []string{"codex-acp"}, shell: func(command string) fakemodel.ToolCall {
		return shellCall("codex", command, "make the file")
	}},
	// The adapter that starts its sessions in a mode where Claude decides.
	{name: "claude-agent-acp", sandbox: "claude", argv: []string{"claude-agent-acp"}, shell: claudeShell("Bash"),
		write: func(path, content string) fakemodel.ToolCall {
			return fakemodel.ToolCall{Name: "Write", Args: map[string]any{"file_path": path, "content": content}}
		}},
	{name: "zed-claude-agent-acp", sandbox: "claude", argv: []string{"zed-claude-agent-acp"}, shell: claudeShell("Bash")},
	{name: "gemini", sandbox: "gemini", argv: []string{"gemini", "--acp"}, shell: func(command string) fakemodel.ToolCall {
		return shellCall("gemini", command, "make the file")
	}},
	{name: "copilot", sandbox: "copilot", argv: []string{"copilot", "--acp", "--stdio"}, shell: func(command string) fakemodel.ToolCall {
		return shellCall("copilot", command, "make the file")
	}},
}

// TestLiveACPAgents drives ACP agents and adapters from npm as any ACP
// agent, in default mode: each command is one Bash tool_use with the
// command as a person would type it, asked about once; approved, it runs
// and its tool_result is what it printed; denied, it does not run. A file
// written is a Write of that file, asked about, written once approved.
func TestLiveACPAgents(t *testing.T) {
	live(t)
	yes, no := true, false
	for ai, ag := range acpAgents {
		for ri, ar := range []agentRun{{"approve", "default", &yes, true}, {"deny", "default", &no, false}} {
			t.Run(ag.name+"/"+ar.name, func(t *testing.T) {
				cell(t, ai, len(acpAgents), ri, 2)
				cliPath(t, ag.name)
				h := newHome(t, ag.sandbox)
				h.provider = "acp"
				script := fakemodel.Script{Replies: []fakemodel.Reply{
					{Text: "Running it.", ToolCalls: []fakemodel.ToolCall{ag.shell(oneCommand)}},
					{Text: "All done."},
				}}
				flags := append([]string{"--permission-mode", ar.perm, "--prompt", "make the file", "--"}, ag.argv...)
				r := h.run(t, script, agentGUI(t, ar), flags...)
				checkAgentRun(t, r, ar, ag.name)
				checkNoRawShapes(t, r)
				if t.Failed() {
					t.Logf("stdout:\n%s\nstderr:\n%s", r.raw, lastLines(r.stderr, 30))
				}
			})
		}
		if ag.write == nil {
			continue
		}
		t.Run(ag.name+"/write", func(t *testing.T) {
			cliPath(t, ag.name)
			h := newHome(t, ag.sandbox)
			h.provider = "acp"
			path := filepath.Join(h.sb.Workspace, "notes.md")
			script := fakemodel.Script{Replies: []fakemodel.Reply{
				{Text: "Writing it.", ToolCalls: []fakemodel.ToolCall{ag.write(path, "# Notes\nhello\n")}},
				{Text: "Written."},
			}}
			r := h.run(t, script, gui{answer: func(int) bool { return true }}, append([]string{"--prompt", "write the notes", "--"}, ag.argv...)...)
			if len(r.uses) != 1 || r.uses[0].Name != "Write" || r.uses[0].Input["file_path"] != path || r.uses[0].Input["content"] != "# Notes\nhello\n" {
				t.Fatalf("tool_uses %+v: want one Write of %s with its content\n%s", r.uses, path, r.raw)
			}
			if r.asked != 1 {
				t.Errorf("the GUI was asked %d times, want once", r.asked)
			}
			if b, err := os.ReadFile(path); err != nil || string(b) != "# Notes\nhello\n" {
				t.Errorf("the file is %q, %v", b, err)
			}
		})
	}
}

// checkNoRawShapes: no tool_use input holds an argv or the agent's
// bookkeeping, and no tool_result is an object serialised.
func checkNoRawShapes(t *testing.T, r *run) {
	t.Helper()
	for _, u := range r.uses {
		if _, ok := u.Input["command"].(string); u.Name == "Bash" && !ok {
			t.Errorf("tool_use %s: command %v is not a string", u.ID, u.Input["command"])
		}
		for _, k := range []string{"call_id", "turn_id", "parsed_cmd", "cwd"} {
			if _, ok := u.Input[k]; ok {
				t.Errorf("tool_use %s has the agent's field %q: %v", u.ID, k, u.Input)
			}
		}
	}
	for id, res := range r.results {
		if c := strings.TrimSpace(res.Content); strings.HasPrefix(c, "{") || strings.Contains(c, `"call_id"`) || strings.HasPrefix(c, "```") {
			t.Errorf("tool_result %s is not what the command printed: %q", id, res.Content)
		}
	}
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TestLiveACPAgentsBare runs opencode, Kilo and Qwen Code as any ACP agent
// with nothing set by the user: Qwen starts in its classifier's mode and
// is switched to the one that asks; opencode and Kilo ask as their
// permission setting says, which yume-cli sets to ask. Each command is
// asked about; denied, it does not run.
func TestLiveACPAgentsBare(t *testing.T) {
	live(t)
	yes, no := true, false
	bare := map[string][]string{"opencode": {"opencode", "acp"}, "kilo": {"kilo", "acp"}, "qwen": {"qwen", "--acp"}}
	for ai, agent := range agents {
		for ri, ar := range []agentRun{{"approve", "default", &yes, true}, {"deny", "default", &no, false}} {
			t.Run(agent+"/"+ar.name, func(t *testing.T) {
				cell(t, ai, len(agents), ri, 2)
				cliPath(t, agent)
				h := newHome(t, agent)
				h.provider = "acp"
				flags := append([]string{"--permission-mode", ar.perm, "--prompt", "make the file", "--"}, bare[agent]...)
				r := h.run(t, agentScript(agent), agentGUI(t, ar), flags...)
				checkAgentRun(t, r, ar, agent)
				checkNoRawShapes(t, r)
			})
		}
	}
}
