package structured

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/modelerror"
	"github.com/yume-cli/yume-cli/providers"
)

// copilotTranslator translates `copilot -p … --output-format json` (JSONL
// session events). Complete assistant.message events carry the text and the
// tool requests; deltas are kept only to recover a message cut off mid-way.
type copilotTranslator struct {
	*turn
	deltas  map[string]*strings.Builder // messageId -> streamed text not yet confirmed
	order   []string                    // delta message ids in arrival order
	hidden  map[string]bool             // tool calls not shown (report_intent)
	failure string                      // session.error message
}

// copilotLine and copilotData are Copilot's wire types (declared once,
// in providers), with structured's fast decoders (copilot_decode.go).
type (
	copilotLine providers.CopilotEvent
	copilotData providers.CopilotData
)

// copilotSkipped are frequent event types with nothing to show; they are
// recognised from the line prefix without decoding.
var copilotSkipped = map[string]bool{
	"session.skills_loaded": true, "session.mcp_servers_loaded": true, "session.tools_updated": true,
	"user.message": true, "assistant.turn_start": true, "assistant.turn_end": true,
	"model.call_start": true, "model.call_finished": true, "model.call_final_result": true,
	"assistant.message_start": true, "assistant.tool_call_delta": true,
	"assistant.reasoning_delta": true, "assistant.reasoning": true, "assistant.idle": true,
	"session.background_tasks_changed": true, "tool.execution_partial_result": true,
	"assistant.turn_retry": true,
}

// Line implements Translator.
func (c *copilotTranslator) Line(line []byte) error {
	if copilotSkipped[lineType(line)] {
		return c.ensureInit()
	}
	var l copilotLine
	if err := decodeFast(line, &l); err != nil {
		return err
	}
	if l.Type == "" {
		return fmt.Errorf("%w: no \"type\" field", ErrMalformed)
	}
	if err := c.ensureInit(); err != nil {
		return err
	}
	if l.Type == "result" {
		return c.result(l)
	}
	if copilotSkipped[l.Type] {
		return nil
	}
	var d copilotData
	if len(l.Data) > 0 {
		if err := decodeFast(l.Data, &d); err != nil {
			return err
		}
	}
	switch l.Type {
	case "assistant.message_delta":
		b := c.deltas[d.MessageID]
		if b == nil {
			b = &strings.Builder{}
			c.deltas[d.MessageID] = b
			c.order = append(c.order, d.MessageID)
		}
		// Deltas only matter if the stream is cut before assistant.message;
		// keeping at most maxBuffered of them keeps memory flat.
		if b.Len() < maxBuffered {
			b.WriteString(d.DeltaContent)
		}
	case "assistant.message":
		if _, ok := c.deltas[d.MessageID]; ok {
			delete(c.deltas, d.MessageID)
			c.order = pruneOrder(c.order, c.deltas)
		}
		if err := c.say(d.Content); err != nil {
			return err
		}
		for _, r := range d.ToolRequests {
			if err := c.use(r.ToolCallID, r.Name, providers.CopilotArgs(r.Arguments)); err != nil {
				return err
			}
		}
	case "tool.execution_start":
		return c.use(d.ToolCallID, d.ToolName, providers.CopilotArgs(d.Arguments))
	case "tool.execution_complete":
		return c.complete(d)
	case "assistant.usage":
		// Older releases; 1.0.102 prints no usage (its transcript has it).
		c.addUsage(emit.Split(d.InputTokens, d.OutputTokens, d.CacheReadTokens, d.CacheWriteTokens))
		return c.w.Usage(c.usage.InputTokens+c.usage.CacheReadInputTokens+c.usage.CacheCreationInputTokens, c.usage.OutputTokens)
	case "model.call_failure":
		// Each failed try, at once (its retries say "Request failed due
		// to a transient API error. Retrying..." a second later, with no
		// status).
		if d.StatusCode != 0 {
			c.watch.sawText(fmt.Sprintf("model request failed with HTTP %d (attempt %d); retrying", d.StatusCode, d.RetryAttempt+1))
		}
	case "session.error":
		c.failure = d.Message
		if modelerror.Classify(d.Message) != nil {
			// Its result follows: the system error there says it with
			// what to do.
			c.errs = append(c.errs, d.Message)
			return nil
		}
		return c.systemError(d.Message)
	case "session.info", "session.warning":
		if d.Message != "" && !l.Ephemeral {
			return c.notice(d.Message)
		}
	}
	return nil
}

func (c *copilotTranslator) use(id, name string, args map[string]any) error {
	n, in := c.mapTool(name, args)
	if n == "apply_patch" {
		// A freeform patch of one file is that file's Write or Edit, as
		// the transcript reads it (providers.PatchCalls).
		if calls := providers.PatchCalls(str(in["input"])); len(calls) == 1 {
			n, in = calls[0].Name, calls[0].Input
		}
	}
	if n == "" { // bookkeeping the user need not see
		if c.hidden == nil {
			c.hidden = map[string]bool{}
		}
		c.hidden[id] = true
		return nil
	}
	return c.toolUse(id, n, in)
}

func (c *copilotTranslator) complete(d copilotData) error {
	if c.hidden[d.ToolCallID] {
		return nil
	}
	if d.Success {
		out := ""
		if d.Result != nil {
			out = blocksText(d.Result.Content)
		}
		return c.toolResult(d.ToolCallID, out, false)
	}
	var e struct {
		Message string `json:"message"`
		Code    string `json:"code"`
	}
	if json.Unmarshal(d.Error, &e) != nil {
		e.Message = blocksText(d.Error)
	}
	if e.Message == "" {
		e.Message = "tool failed"
	}
	if e.Code == "denied" {
		return c.deny(d.ToolCallID, e.Message)
	}
	return c.toolResult(d.ToolCallID, e.Message, true)
}

// flushDeltas writes text that was streamed but never confirmed by an
// assistant.message (a stream cut off mid-message).
func (c *copilotTranslator) flushDeltas() error {
	for _, id := range c.order {
		if b := c.deltas[id]; b != nil {
			if err := c.say(b.String()); err != nil {
				return err
			}
		}
	}
	c.deltas, c.order = map[string]*strings.Builder{}, nil
	return nil
}

func (c *copilotTranslator) result(l copilotLine) error {
	if err := c.flushDeltas(); err != nil {
		return err
	}
	c.handle(l.SessionID) // the provider's own id: what resumes it
	failed := c.failure != "" || (l.ExitCode != nil && *l.ExitCode != 0)
	if !failed {
		return c.end(emit.Result{})
	}
	msg := c.failure
	if msg == "" {
		msg = fmt.Sprintf("copilot exited with code %d", *l.ExitCode)
	}
	return c.end(emit.Result{IsError: true, Errors: []string{msg}})
}

// Finish implements Translator.
func (c *copilotTranslator) Finish(exit error) error {
	if err := c.flushDeltas(); err != nil {
		return err
	}
	return c.finish(exit)
}

// pruneOrder drops confirmed message ids from order once they dominate it,
// so a long stream does not grow it without bound.
func pruneOrder(order []string, live map[string]*strings.Builder) []string {
	if len(order) < 2*len(live)+16 {
		return order
	}
	kept := order[:0]
	for _, id := range order {
		if _, ok := live[id]; ok {
			kept = append(kept, id)
		}
	}
	return kept
}
