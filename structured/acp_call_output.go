package structured

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

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
	if a.tools.finished(u.ToolCallID) || a.isAwaited(u.ToolCallID) || u.Status != "completed" && u.Status != "failed" || !a.tools.seen(u.ToolCallID) {
		return nil
	}
	return a.result(u)
}

// result writes the tool_result of the call u ends: what it printed,
// from the content the agent shows (its text without a code fence around
// it), else the output of the terminals that ran it (yume-cli's own, by
// what yume-cli ran; one the agent runs itself, by its
// _meta.terminal_output), else from the usual output fields of its
// rawOutput, else from the agent's own transcript; never the rawOutput
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
	if !ok && a.fromTranscript != nil {
		if out, ok = a.fromTranscript(id); !ok {
			a.await(id, u.Status, o.raw, failed) // the agent records it once it sent its end
			return nil
		}
	}
	return a.writeResult(id, u.Status, out, ok, o.raw, failed)
}

// writeResult writes the tool_result of a call that ended with status:
// out, what it printed, where it was found (ok).
func (a *acpTranslator) writeResult(id, status, out string, ok bool, raw json.RawMessage, failed bool) error {
	switch out = strings.TrimRight(out, "\n"); {
	case !ok:
		out = noOutput(status, raw)
	case out == "":
		out = status // it printed nothing
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
