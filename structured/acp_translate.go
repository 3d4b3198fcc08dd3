package structured

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
)

// acpTranslator maps ACP session/update notifications, permission requests
// and the prompt's stop reason to emit events.
type acpTranslator struct {
	*turn
	plans int // TodoWrite revisions written, for unique ids
	// recorded finds a call's output in the agent's own record of the
	// session, for an agent that sends none over ACP (Gemini's shell
	// calls); nil when there is no record.
	recorded func(id string) (string, bool)
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
		if a.tools.finished(u.ToolCallID) {
			delete(a.outputs, u.ToolCallID) // reported (denied): a late frame
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
			if rest, ok := strings.CutPrefix(part, p); ok && heuristics.SaysRetry(rest) {
				a.watch.sawText(rest)
			}
		}
	}
}

// use writes the tool_use of an ACP tool call now, with what is known of
// it (its permission request is being asked).
func (a *acpTranslator) use(u acpUpdate) error { return a.track(u, true) }

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

// callOutput is what a call's updates said of its output before it ended.
type callOutput struct {
	raw       json.RawMessage // the last rawOutput
	terminals []string        // terminals shown in its content, in order
	// meta are the terminals the agent runs itself (Zed's
	// _meta.terminal_output and terminal_exit), by terminal id.
	meta map[string]*metaTerminal
	// metaOrder are their ids as first heard of.
	metaOrder []string
}

// metaTerminal is what _meta.terminal_output and terminal_exit said of a
// terminal the agent runs itself.
type metaTerminal struct {
	out    strings.Builder
	exited bool
	code   *int
	signal *string
}

// result is the terminal's output as a tool_result, how it ended said
// when that was not success.
func (m *metaTerminal) result() (string, bool) {
	out := strings.TrimRight(m.out.String(), "\n")
	switch {
	case m.code != nil && *m.code != 0:
		return strings.TrimLeft(out+"\nexit code "+strconv.Itoa(*m.code), "\n"), true
	case m.signal != nil && *m.signal != "":
		return strings.TrimLeft(out+"\nkilled ("+*m.signal+")", "\n"), true
	}
	return out, false
}

// noteOutput keeps what u says of its call's output.
func (a *acpTranslator) noteOutput(u acpUpdate) *callOutput {
	if a.outputs == nil {
		a.outputs = map[string]*callOutput{}
	}
	o := a.outputs[u.ToolCallID]
	if o == nil {
		o = &callOutput{}
		a.outputs[u.ToolCallID] = o
	}
	if len(u.RawOutput) > 0 && string(u.RawOutput) != "null" {
		o.raw = u.RawOutput
	}
	for _, t := range contentTerminals(u.Content) {
		if !slices.Contains(o.terminals, t) {
			o.terminals = append(o.terminals, t)
		}
	}
	meta := func(tid string) *metaTerminal {
		tid = cmp.Or(tid, u.ToolCallID)
		if o.meta == nil {
			o.meta = map[string]*metaTerminal{}
		}
		m := o.meta[tid]
		if m == nil {
			m = &metaTerminal{}
			o.meta[tid] = m
			o.metaOrder = append(o.metaOrder, tid)
		}
		return m
	}
	if t := u.Meta.TerminalOutput; t != nil {
		meta(t.TerminalID).out.WriteString(t.Data)
	}
	if t := u.Meta.TerminalExit; t != nil {
		m := meta(t.TerminalID)
		m.exited, m.code, m.signal = true, t.ExitCode, t.Signal
	}
	return o
}

// maybeResult writes the tool_result once the call completed or failed
// and its tool_use is written (an end heard before the call waits with
// it, track); a late frame of a call already reported is not news.
func (a *acpTranslator) maybeResult(u acpUpdate) error {
	if a.tools.finished(u.ToolCallID) || u.Status != "completed" && u.Status != "failed" || !a.tools.seen(u.ToolCallID) {
		return nil
	}
	return a.result(u)
}

// result writes the tool_result of the call u ends: what it printed,
// from the content the agent shows (its text without a code fence around
// it), else the output of the terminals that ran it (yume-cli's own, by
// what yume-cli ran; one the agent runs itself, by its
// _meta.terminal_output), else from the usual output fields of its
// rawOutput, else from the agent's own record; never the rawOutput
// serialised. A failure the output says (success:false, an error, an exit
// code) is an error result.
func (a *acpTranslator) result(u acpUpdate) error {
	id := u.ToolCallID
	o := a.outputs[id] // what its updates said (update)
	if o == nil {
		o = &callOutput{}
	}
	delete(a.outputs, id)
	terms := append(slices.Clone(a.callTerms[id]), o.terminals...)
	delete(a.callTerms, id)
	delete(a.unasked, id)
	failed := u.Status == "failed"
	out, ok := acpContentText(u.Content)
	// exited is how an agent's own terminal that printed nothing it sent
	// ended, when that was not success: said if nothing else is.
	exited := ""
	if !ok {
		var parts []string
		done := map[string]bool{}
		meta := func(m *metaTerminal) {
			s, bad := m.result()
			switch {
			case m.out.Len() > 0:
				parts, ok, failed = append(parts, s), true, failed || bad
			case bad:
				exited, failed = s, true
			}
		}
		for _, t := range terms {
			if done[t] {
				continue
			}
			done[t] = true
			if a.terminalOutput != nil {
				if s, bad, found := a.terminalOutput(t); found {
					parts, ok, failed = append(parts, s), true, failed || bad
					continue
				}
			}
			if m := o.meta[t]; m != nil {
				meta(m)
			}
		}
		// The agent's own terminal for the call, shown in no content.
		for _, t := range o.metaOrder {
			if !done[t] {
				meta(o.meta[t])
			}
		}
		out = strings.Join(parts, "\n")
	}
	if !ok {
		var bad bool
		out, bad, ok = rawOutputResult(o.raw)
		failed = failed || bad
	}
	if !ok && exited != "" {
		out, ok = exited, true
	}
	if !ok && a.recorded != nil {
		out, ok = a.recorded(id)
	}
	switch out = strings.TrimRight(out, "\n"); {
	case !ok:
		out = noOutput(u.Status, o.raw)
	case out == "":
		out = u.Status // it printed nothing
	}
	return a.toolResult(id, out, failed)
}

// acpContentText flattens ToolCallContent items to text: text content
// without a code fence around it, a diff as the file it edited; ok false
// when the items hold neither (none, or only terminals).
func acpContentText(raw json.RawMessage) (string, bool) {
	var items []struct {
		Type    string          `json:"type"`
		Content json.RawMessage `json:"content"`
		Path    string          `json:"path"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return "", false
	}
	var parts []string
	for _, it := range items {
		switch it.Type {
		case "content":
			var c struct{ Type, Text string }
			if json.Unmarshal(it.Content, &c) == nil && c.Text != "" {
				parts = append(parts, unfence(c.Text))
			}
		case "diff":
			parts = append(parts, "edited "+it.Path)
		}
	}
	return strings.Join(parts, "\n"), len(parts) > 0
}

// contentTerminals are the terminal ids a ToolCallContent list shows.
func contentTerminals(raw json.RawMessage) []string {
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var items []struct {
		Type       string `json:"type"`
		TerminalID string `json:"terminalId"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return nil
	}
	var ids []string
	for _, it := range items {
		if it.Type == "terminal" && it.TerminalID != "" {
			ids = append(ids, it.TerminalID)
		}
	}
	return ids
}

// permissionCall reads a session/request_permission request.
type permissionCall struct {
	ToolCall acpUpdate `json:"toolCall"`
	Options  []struct {
		OptionID string `json:"optionId"`
		Kind     string `json:"kind"`
	} `json:"options"`
}

// pickOption returns the id of the first option of kind offered.
func (p permissionCall) pickOption(kind string) string {
	for _, o := range p.Options {
		if o.Kind == kind {
			return o.OptionID
		}
	}
	return ""
}

// outcome builds the RequestPermissionResponse for a decision: the
// agent's allow-once or reject-once option, never an "always" one (the
// next call must be asked about too). Without such an option the request
// is answered cancelled, and the call does not run.
func (p permissionCall) outcome(d permission.Answer) map[string]any {
	id := p.pickOption("reject_once")
	if d.Allow {
		id = p.pickOption("allow_once")
	}
	if id == "" {
		return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}
	}
	return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": id}}
}

// stop ends the turn from the prompt's stop reason.
func (a *acpTranslator) stop(reason string) error {
	if err := a.flushCalls(); err != nil {
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
	if heuristics.FindModelError(text) == nil {
		return ""
	}
	if m := errorStatement.FindAllStringSubmatch(text, -1); len(m) > 0 {
		return strings.TrimSpace(m[len(m)-1][1])
	}
	return text
}
