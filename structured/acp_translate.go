package structured

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/modelerror"
	"github.com/yume-cli/yume-cli/providers"
)

// acpTranslator maps ACP session/update notifications, permission requests
// and the prompt's stop reason to emit events.
type acpTranslator struct {
	*turn
	plans int // TodoWrite revisions written, for unique ids
	// fromTranscript finds a call's output in the agent's own transcript
	// of the session, for an agent that sends none over ACP (Gemini's
	// shell calls); nil when there is no transcript.
	fromTranscript func(id string) (string, bool)
	// awaiting are the ended calls whose output the transcript does not
	// have yet (acp_awaited_output.go); lookForOutputs starts the
	// background look for them, awaitErr is its failure to write.
	awaiting       []awaited
	lookForOutputs func()
	awaitErr       error
	// calls are the tool calls announced whose tool_use waits for what
	// they do (acp_calls.go).
	calls map[string]*acpCall
	// unaskedBy, when set, is what lets the agent run its calls without
	// asking (its own allow-all, in auto mode): said in their tool_use.
	unaskedBy string
	// agent names the agent in the approved_by of a call it ran without
	// asking anyone.
	agent string
	// outputs are what the running calls' updates said of their output.
	outputs map[string]*callOutput
	// terminalOutput is the output of a terminal yume-cli runs for the
	// agent (acp_terminal.go; nil: none).
	terminalOutput func(id string) (out string, failed, ok bool)
	// callTerms are the terminals yume-cli created for a call (its
	// output, whether or not the agent's updates show them).
	callTerms map[string][]string
	// unasked are the calls reported as run by the agent's own allow-all
	// (unaskedBy): their terminals run as allowed.
	unasked map[string]bool
	// seq numbers the calls as they are first heard of.
	seq int
}

type acpUpdate struct {
	SessionUpdate string          `json:"sessionUpdate"`
	Content       json.RawMessage `json:"content"`
	ToolCallID    string          `json:"toolCallId"`
	Title         string          `json:"title"`
	Kind          string          `json:"kind"`
	Status        string          `json:"status"`
	RawInput      map[string]any  `json:"rawInput"`
	RawOutput     json.RawMessage `json:"rawOutput"`
	// Name is the agent's own tool name (ACP's optional "name").
	Name string `json:"name"`
	// Meta.ClaudeCode.ToolName is Claude's own name of a tool (Claude
	// Code's adapters); Meta.Usage is the tokens of the model request a
	// message chunk ends (Qwen Code: an empty chunk after each request,
	// input counting the cached tokens).
	Meta struct {
		ClaudeCode struct {
			ToolName string `json:"toolName"`
		} `json:"claudeCode"`
		Usage *struct {
			InputTokens      int `json:"inputTokens"`
			OutputTokens     int `json:"outputTokens"`
			CachedReadTokens int `json:"cachedReadTokens"`
		} `json:"usage"`
		// TerminalOutput and TerminalExit are Zed's terminal extension
		// (Claude's and Codex's adapters): the output and end of a
		// terminal the agent runs itself and shows as terminal content.
		TerminalOutput *struct {
			TerminalID string `json:"terminal_id"`
			Data       string `json:"data"`
		} `json:"terminal_output"`
		TerminalExit *struct {
			TerminalID string  `json:"terminal_id"`
			ExitCode   *int    `json:"exit_code"`
			Signal     *string `json:"signal"`
		} `json:"terminal_exit"`
	} `json:"_meta"`
	Locations []struct {
		Path string `json:"path"`
	} `json:"locations"`
	Entries []struct {
		Content string `json:"content"`
		Status  string `json:"status"`
	} `json:"entries"`
}

// toolName is the agent's own name for the call's tool, where it gives one.
func (u acpUpdate) toolName() string {
	return cmp.Or(u.Name, u.Meta.ClaudeCode.ToolName)
}

// update handles the params of one session/update notification.
func (a *acpTranslator) update(params json.RawMessage) error {
	var n struct {
		Update acpUpdate `json:"update"`
	}
	if err := decode(params, &n); err != nil {
		return err
	}
	u := n.Update
	if _, err := a.writeAwaited(true); err != nil {
		return err // the agent moved on: what it recorded is read first
	}
	switch u.SessionUpdate {
	case "agent_message_chunk":
		var c struct{ Type, Text string }
		if json.Unmarshal(u.Content, &c) == nil && c.Type == "text" {
			if err := a.ensureInit(); err != nil {
				return err
			}
			if err := a.buffer(c.Text); err != nil {
				return err
			}
			a.statusLine(c.Text)
		}
		if mu := u.Meta.Usage; mu != nil {
			// The request's text is its message.
			ru := emit.Split(mu.InputTokens, mu.OutputTokens, mu.CachedReadTokens, 0)
			a.addUsage(ru)
			a.w.MessageUsage(&ru)
			err := a.flush()
			a.w.MessageUsage(nil)
			return err
		}
	case "tool_call", "tool_call_update":
		if u.ToolCallID == "" {
			return nil // no call to pair it with
		}
		if a.tools.finished(u.ToolCallID) || a.isAwaited(u.ToolCallID) {
			delete(a.outputs, u.ToolCallID) // reported (denied), or its output awaited: a late frame
		} else {
			a.noteOutput(u)
		}
		if err := a.track(u, false); err != nil {
			return err
		}
		return a.maybeResult(u)
	case "plan":
		a.plans++
		id := fmt.Sprintf("plan_%s_%d", a.w.SessionID(), a.plans)
		list := make([]any, 0, len(u.Entries))
		for _, e := range u.Entries {
			list = append(list, map[string]any{"content": e.Content, "status": e.Status, "activeForm": e.Content})
		}
		input := map[string]any{"todos": providers.Todos(list, "content")}
		if err := a.toolUse(id, "TodoWrite", input); err != nil {
			return err
		}
		return a.toolResult(id, "plan updated", false)
	}
	return nil // thoughts, commands, modes, usage: not shown.
}

// statusLine tells the GUI of a model error an agent says as text while
// it retries ("Info: Request failed due to a transient API error.
// Retrying...", Copilot's), at once; its answer text is not read so.
func (a *acpTranslator) statusLine(text string) {
	for _, part := range strings.SplitAfter(text, "...") {
		part = strings.TrimSpace(part)
		for _, p := range []string{"Info: ", "Warning: ", "Error: "} {
			if rest, ok := strings.CutPrefix(part, p); ok && modelerror.SaysRetry(rest) {
				a.watch.sawText(rest)
			}
		}
	}
}

// use writes the tool_use of an ACP tool call now, with what is known of
// it (its permission request is being asked).
func (a *acpTranslator) use(u acpUpdate) error {
	if _, err := a.writeAwaited(true); err != nil {
		return err
	}
	return a.track(u, true)
}

// track adds what u says about its tool call and writes the call's
// tool_use: now (force: its permission request is being asked); in auto
// mode, where the agent's allow-all lets it run unasked, once it says
// what it does; otherwise when it ends without having asked, saying that
// the agent ran it without asking. Frames come in any order for a call
// (Cline sends an update first and its tool_call only after the
// permission, Codex the permission first): they are paired by
// toolCallId, and one tool_use is written per call. An end heard of a
// call that has said nothing of itself yet waits for what it is (its
// tool_call may follow), to the end of the turn at the latest.
func (a *acpTranslator) track(u acpUpdate, force bool) error {
	id := u.ToolCallID
	if a.tools.seen(id) {
		return nil
	}
	if a.calls == nil {
		a.calls = map[string]*acpCall{}
	}
	c := a.calls[id]
	if c == nil {
		a.seq++
		c = &acpCall{seq: a.seq}
		a.calls[id] = c
	}
	c.merge(u)
	if u.Status == "completed" || u.Status == "failed" {
		end := u
		c.ended = &end
	}
	ended := c.ended != nil
	by := ""
	switch {
	case force:
	case ended && c.empty():
		return nil // an end before a word of what the call is: wait for its tool_call
	case a.unaskedBy != "" && (ended || c.ready()):
		by = a.unaskedBy
	case ended:
		by = cmp.Or(a.agent, a.provider.Name) + ", without asking"
	default:
		return nil // its permission request, or its end, is still to come
	}
	return a.write(id, c, by)
}

// write writes a tracked call's tool_use, and its result when its end
// was heard before.
func (a *acpTranslator) write(id string, c *acpCall, by string) error {
	delete(a.calls, id)
	if err := a.ensureInit(); err != nil {
		return err
	}
	name, input := c.tool()
	if by != "" {
		input["approved_by"] = by
	}
	if by != "" && by == a.unaskedBy {
		if a.unasked == nil {
			a.unasked = map[string]bool{}
		}
		a.unasked[id] = true
	}
	if err := a.toolUse(id, name, input); err != nil {
		return err
	}
	if c.ended != nil {
		return a.result(*c.ended)
	}
	return nil
}

// flushCalls writes the calls whose end was heard but not what they
// were (their tool_call never came), as the turn ends.
func (a *acpTranslator) flushCalls() error {
	var ended []string
	for id, c := range a.calls {
		if c.ended != nil {
			ended = append(ended, id)
		}
	}
	slices.SortFunc(ended, func(x, y string) int { return cmp.Compare(a.calls[x].seq, a.calls[y].seq) })
	for _, id := range ended {
		if err := a.write(id, a.calls[id], cmp.Or(a.agent, a.provider.Name)+", without asking"); err != nil {
			return err
		}
	}
	return nil
}

// adoptCall takes a call the agent announced, has not asked about and
// whose tool_use is not written, that runs command (the agent runs it in
// yume-cli's terminal): its id, tool name and input, for yume-cli to
// report and ask about; "" when there is none.
func (a *acpTranslator) adoptCall(command string) (string, string, map[string]any) {
	best := ""
	for id, c := range a.calls {
		if c.ended != nil {
			continue
		}
		if name, in := c.tool(); name == "Bash" {
			if cmd, _ := in["command"].(string); sameCommand(cmd, command) && (best == "" || c.seq < a.calls[best].seq) {
				best = id
			}
		}
	}
	if best == "" {
		return "", "", nil
	}
	name, in := a.calls[best].tool()
	delete(a.calls, best)
	return best, name, in
}

// terminalFor says that yume-cli's terminal term runs call id: its
// output is the call's.
func (a *acpTranslator) terminalFor(id, term string) {
	if a.callTerms == nil {
		a.callTerms = map[string][]string{}
	}
	if !slices.Contains(a.callTerms[id], term) {
		a.callTerms[id] = append(a.callTerms[id], term)
	}
}

// stop ends the turn from the prompt's stop reason.
func (a *acpTranslator) stop(reason string) error {
	if err := a.settle(); err != nil {
		return err
	}
	switch reason {
	case "end_turn", "":
		if msg := a.errorOnlyAnswer(); msg != "" {
			// Its answer is its failure to get one (Copilot: "Info: Request
			// failed… Retrying…Error: Authentication failed… (HTTP 401)").
			return a.end(emit.Result{IsError: true, Errors: []string{msg}})
		}
		return a.end(emit.Result{})
	case "cancelled":
		return a.abort()
	case "max_turn_requests":
		return a.end(emit.Result{IsError: true, Subtype: "error_max_turns", Errors: []string{"the agent reached its limit of model requests for one turn"}})
	}
	return a.end(emit.Result{IsError: true, Errors: []string{"the agent stopped: " + reason}})
}

// errorStatement opens a line an agent writes for a failure, not an answer.
var errorStatement = lazyre.New(`(?:^|\.\.\.|\n)\s*Error: ([^\n]*?)(?:Info: |Warning: |$|\n)`)

// errorOnlyAnswer is the error an agent gave as its whole answer, with no
// tool call ("Info: …Retrying…Error: …"), in its last words; "" when the
// answer is an answer.
func (a *acpTranslator) errorOnlyAnswer() string {
	text := strings.TrimSpace(a.last + a.text.String())
	if len(a.tools.pending)+len(a.tools.done) > 0 || !strings.HasPrefix(text, "Info: ") && !strings.HasPrefix(text, "Error: ") {
		return ""
	}
	if modelerror.Find(text) == nil {
		return ""
	}
	if m := errorStatement.FindAllStringSubmatch(text, -1); len(m) > 0 {
		return strings.TrimSpace(m[len(m)-1][1])
	}
	return text
}
