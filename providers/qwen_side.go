package providers

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/transcript"
)

// Qwen Code makes side requests that carry tools. After a turn's first
// model reply, its managed memory extraction (on by default) runs a
// subagent of its own, "managed-auto-memory-extractor" (its other
// managed agents, dreamer, remember and skill extractor, are alike),
// offered read_file, grep_search, glob, run_shell_command, write_file and
// edit. It runs in its own yolo mode whatever the session's approval
// mode: a shell command its read-only check passes runs without asking,
// any other is denied; nothing is asked and nothing goes over ACP or into
// the stream-json. The only trace is in the transcript: a ui_telemetry
// entry "qwen-code.tool_call" per call (its arguments, status, decision
// and a prompt id "<session>#managed-…-<hex>#<n>"), without the output.
// Its follow-up suggestion request offers tools too, but Qwen drops any
// call in its answer unrun. yume-cli lets these agents run only in
// headless auto mode, where Qwen waits for them (side_agents.go); the
// readers here stay for a release that would not honour the switch.

// qwenTelemetry is a ui_telemetry entry's event.
type qwenTelemetry struct {
	Name      string         `json:"event.name"`
	CallID    string         `json:"call_id"`
	Function  string         `json:"function_name"`
	Args      map[string]any `json:"function_args"`
	Success   bool           `json:"success"`
	Decision  string         `json:"decision"`
	Error     string         `json:"error"`
	ErrorType string         `json:"error_type"`
	PromptID  string         `json:"prompt_id"`
}

// qwenSidePrompt reads the managed agent out of a side request's prompt
// id ("<session>#managed-auto-memory-extractor-51280d81#0"); the
// conversation's own are "<session>########<n>".
var qwenSidePrompt = lazyre.New(`^[^#]+#(managed-[a-z-]+?)(?:-[0-9a-f]+)?#\d+$`)

// qwenSideEvents are the tool_call and tool_result of a call a managed
// side agent made, from its telemetry; none for any other entry. A call
// that ran carries approved_by; its output is not in the transcript.
func qwenSideEvents(sys *qwenSystemPayload) []transcript.Event {
	if sys == nil || sys.UIEvent.Name != "qwen-code.tool_call" || sys.UIEvent.CallID == "" {
		return nil
	}
	u := sys.UIEvent
	m := qwenSidePrompt.FindStringSubmatch(u.PromptID)
	if m == nil {
		return nil
	}
	agent := m[1]
	name, input := geminiTool(u.Function, u.Args)
	if input == nil {
		input = map[string]any{}
	}
	id := "qwen_side_" + u.CallID
	res := transcript.Event{Kind: transcript.ToolResult, ID: id, IsError: !u.Success, Output: u.Error}
	if u.Success {
		input["approved_by"] = "qwen's " + agent + " side request, without asking (" + u.Decision + ")"
		res.Output = "(ran by qwen's " + agent + " side request; its output went to the model, and qwen's transcript does not keep it)"
	} else if res.Output == "" {
		res.Output = "qwen's " + agent + " side request: " + u.ErrorType
	}
	return []transcript.Event{{Kind: transcript.ToolCall, ID: id, Name: name, Input: input}, res}
}

// SideCalls are the calls a provider's side requests made in session
// l.Session since l.Started (an earlier run of a resumed session reported
// its own), as the provider's transcript holds them: a tool_call and a
// tool_result each, their ids not those of any call of the conversation. Only Qwen
// Code makes such calls (see above); none for the others, or when the
// transcript cannot be read.
func SideCalls(p *Provider, l Launch) []transcript.Event {
	if p == nil || p.Name != "qwen" || l.Session == "" {
		return nil
	}
	path, ok := firstMatch(filepath.Join(l.Getenv("HOME"), ".qwen", "projects", "*", "chats", l.Session+".jsonl"))
	if !ok {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []transcript.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if !strings.Contains(sc.Text(), `"qwen-code.tool_call"`) {
			continue
		}
		var rl qwenTranscriptLine
		if json.Unmarshal(sc.Bytes(), &rl) == nil && !writtenBefore(rl.Timestamp, l.Started) {
			out = append(out, qwenSideEvents(rl.SystemPayload)...)
		}
	}
	return out
}

// writtenBefore reports whether an entry stamped at (RFC 3339) was
// written before t; an entry with no readable stamp is not.
func writtenBefore(at string, t time.Time) bool {
	stamp, err := time.Parse(time.RFC3339Nano, at)
	return err == nil && stamp.Before(t)
}
