package structured

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/modelerror"
)

// claudeTranslator translates `claude -p --output-format stream-json
// --verbose`. Claude already speaks the target protocol; the translation
// normalises what Yume would not parse (tool_result content arrays), drops
// event types Yume ignores, and re-emits everything through the Writer so
// ids, uuids, size limits and the one-result rule hold.
type claudeTranslator struct {
	*turn
	// control handles control_request lines (can_use_tool) when Claude runs
	// with --permission-prompt-tool stdio; nil drops them.
	control func(req claudeControl) error
	// cancel handles control_cancel_request (a withdrawn permission request).
	cancel func(requestID string)
	// inputHasCache: the input_tokens it reports include the cache's
	// reads and writes, as the OpenAI and Gemini APIs count them (Qwen
	// Code); Claude Code's leave them out.
	inputHasCache bool
	compacted     bool // the turn compacted the conversation
}

type claudeLine struct {
	Type      string          `json:"type"`
	Subtype   string          `json:"subtype"`
	SessionID string          `json:"session_id"`
	Tools     []string        `json:"tools"`
	Message   *claudeMessage  `json:"message"`
	Error     json.RawMessage `json:"error"`
	// result
	IsError      bool     `json:"is_error"`
	Result       string   `json:"result"`
	Errors       []string `json:"errors"`
	NumTurns     int      `json:"num_turns"`
	TotalCost    *float64 `json:"total_cost_usd"`
	Usage        *claudeUsage
	Denials      []claudeDenial `json:"permission_denials"`
	Attempt      int            `json:"attempt"`
	MaxRetries   int            `json:"max_retries"`
	Status       int            `json:"error_status"`
	RetryDelayMS int            `json:"retry_delay_ms"`
	// control
	RequestID string        `json:"request_id"`
	Request   claudeControl `json:"request"`
}

// claudeUsage and claudeBlock are Claude's wire types, declared once in
// emit: the stream yume-cli writes is the one Claude Code writes, and its
// transcript reads the same.
type (
	claudeUsage = emit.Usage
	claudeBlock = emit.Block
)

// claudeControl is the request of a control_request line.
type claudeControl struct {
	RequestID string         `json:"-"`
	Subtype   string         `json:"subtype"`
	ToolName  string         `json:"tool_name"`
	Input     map[string]any `json:"input"`
	ToolUseID string         `json:"tool_use_id"`
}

type claudeMessage struct {
	Content claudeContent `json:"content"`
	// Usage is the model request's tokens so far (Claude Code writes a
	// message's blocks as they end, before its final output count).
	Usage *claudeUsage `json:"usage"`
}

// claudeContent is message content: a string (a prompt) or blocks,
// decoded in the same pass as the line.
type claudeContent struct {
	Blocks []claudeBlock
	IsText bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (c *claudeContent) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		c.IsText = true
		return nil
	}
	return json.Unmarshal(b, &c.Blocks)
}

// claudeSkipped are event types Yume does not use; skipping them by prefix
// keeps the hot path cheap (stream_event is one line per token).
var claudeSkipped = map[string]bool{
	"stream_event": true, "keep_alive": true, "tool_progress": true, "rate_limit_event": true,
	"tool_use_summary": true, "auth_status": true, "prompt_suggestion": true, "control_response": true,
}

// Line implements Translator.
func (c *claudeTranslator) Line(line []byte) error {
	typ := lineType(line)
	if claudeSkipped[typ] {
		return nil
	}
	var l claudeLine
	var err error
	if typ == "assistant" || typ == "user" {
		// The bulk of a stream, and the shapes the fast path knows.
		err = decodeFast(line, &l)
	} else {
		err = decode(line, &l)
	}
	if err != nil {
		return err
	}
	switch l.Type {
	case "system":
		return c.system(l)
	case "assistant":
		return c.assistant(l)
	case "user":
		return c.user(l)
	case "result":
		return c.result(l)
	case "control_request":
		if c.control == nil {
			return nil
		}
		if err := c.ensureInit(); err != nil {
			return err
		}
		l.Request.RequestID = l.RequestID
		return c.control(l.Request)
	case "control_cancel_request":
		if c.cancel != nil {
			c.cancel(l.RequestID)
		}
		return nil
	case "":
		return fmt.Errorf("%w: no \"type\" field", ErrMalformed)
	}
	return nil
}

func (c *claudeTranslator) system(l claudeLine) error {
	switch l.Subtype {
	case "init":
		// Claude repeats init every turn; only the first one is ours to send.
		return c.init(l.SessionID, l.Tools)
	case "compact_boundary":
		// /compact: the turn's result may rightly carry no tokens.
		c.compacted = true
		return nil
	case "api_retry":
		// Claude Code's own words on screen are "API error · Retrying in
		// 2s · attempt 3/10"; its stream adds the status and the error.
		msg := fmt.Sprintf("API error (HTTP %d", l.Status)
		var kind string
		if json.Unmarshal(l.Error, &kind) == nil && kind != "" {
			msg += " " + kind
		}
		msg += fmt.Sprintf(") · Retrying in %.1fs · attempt %d/%d", float64(l.RetryDelayMS)/1000, l.Attempt, l.MaxRetries)
		if err := c.ensureInit(); err != nil {
			return err
		}
		c.watch.sawText(msg)
		return nil
	}
	return nil // status, hooks, tasks, compaction bookkeeping: not shown.
}

func (c *claudeTranslator) assistant(l claudeLine) error {
	if err := c.ensureInit(); err != nil {
		return err
	}
	if l.Message == nil {
		return fmt.Errorf("%w: assistant line without message", ErrMalformed)
	}
	blocks := l.Message.Content.Blocks
	if u := l.Message.Usage; u != nil && !failed(l) && *u != (claudeUsage{}) {
		mu := c.split(*u)
		c.w.MessageUsage(&mu)
		defer c.w.MessageUsage(nil)
	}
	// An API failure arrives as a synthetic assistant message carrying the
	// error text; Yume should show it as an error, not as the answer.
	failed := failed(l)
	for _, b := range blocks {
		switch b.Type {
		case "text":
			if failed {
				if err := c.systemError(b.Text); err != nil {
					return err
				}
				continue
			}
			if err := c.say(b.Text); err != nil {
				return err
			}
		case "tool_use":
			// Claude's input already has Claude's shape: pass it through
			// undecoded (the Writer re-checks it when encoding).
			var input any = map[string]any{}
			if len(b.Input) > 0 && b.Input[0] == '{' {
				input = b.Input
			}
			if err := c.toolUse(b.ID, b.Name, input); err != nil {
				return err
			}
		}
	}
	return nil
}

// failed reports whether an assistant line is an API failure's report.
func failed(l claudeLine) bool { return len(l.Error) > 0 && string(l.Error) != "null" }

// split is a reported usage in Claude's split.
func (c *claudeTranslator) split(u claudeUsage) emit.Usage {
	if c.inputHasCache {
		return emit.Split(u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens)
	}
	return emit.Usage(u)
}

func (c *claudeTranslator) user(l claudeLine) error {
	if l.Message == nil || l.Message.Content.IsText {
		return nil // A plain-string user message is a prompt replay.
	}
	for _, b := range l.Message.Content.Blocks {
		if b.Type != "tool_result" {
			continue
		}
		if err := c.toolResult(b.ToolUseID, blocksText(b.Content), b.IsError); err != nil {
			return err
		}
	}
	return nil
}

func (c *claudeTranslator) result(l claudeLine) error {
	r := emit.Result{IsError: l.IsError, Subtype: l.Subtype, Text: l.Result, Errors: l.Errors,
		NumTurns: l.NumTurns, CostUSD: l.TotalCost, Compacted: c.compacted}
	if l.Usage != nil {
		c.setUsage(c.split(*l.Usage))
	}
	if r.IsError {
		if r.Subtype == "success" {
			// Claude marks API failures is_error with subtype success.
			r.Subtype = "error_during_execution"
		}
		if len(r.Errors) == 0 && l.Result != "" {
			r.Errors = []string{l.Result}
		}
		if len(r.Errors) == 0 && c.last != "" && modelerror.Find(c.last) != nil {
			// Its failure was its last words (Qwen Code: "[API Error:
			// 401 …]" as an answer, then a result with no text).
			r.Errors = []string{c.last}
		}
	}
	// Denials Claude made on its own (no permission prompt) already went
	// out as plain error results; name them so the user knows why.
	var others []string
	for _, d := range l.Denials {
		if !c.ours[d.ToolUseID] {
			others = append(others, d.ToolName)
		}
	}
	if len(others) > 0 {
		if err := c.notice("claude denied without asking: " + strings.Join(others, ", ")); err != nil {
			return err
		}
	}
	return c.end(r)
}

// Finish implements Translator.
func (c *claudeTranslator) Finish(exit error) error { return c.finish(exit) }

type claudeDenial struct {
	ToolName  string `json:"tool_name"`
	ToolUseID string `json:"tool_use_id"`
}
