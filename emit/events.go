package emit

import (
	"errors"
	"fmt"
)

// Text writes assistant text: in the Claude protocol an assistant message
// with one text block, in the flat protocol {"type":"text","content":…}.
// Text too long for one line is split, on rune boundaries and preferably
// after a newline, into several events that concatenate to the original.
// Empty text writes nothing.
func (w *Writer) Text(s string) error {
	s = Redact(ValidUTF8(s))
	if s == "" {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	// With absurd config strings (a 150 KB model name) the overhead leaves
	// no room; encodeLine's safety net then cuts those strings instead of
	// the text being split into thousands of tiny events.
	budget := max(maxJSON-w.overhead(w.textEvent("")), maxJSON/4)
	for _, chunk := range splitText(s, budget) {
		if err := w.emitLocked(w.textEvent(chunk)); err != nil {
			return err
		}
	}
	return nil
}

func (w *Writer) textEvent(s string) any {
	if w.proto == Flat {
		return textLine{head{"text"}, s, NewUUID()}
	}
	return w.assistantLine(textBlock{Type: "text", Text: s})
}

// overhead is the encoded size of v without its newline; events built with
// an empty string measure what the string itself may take. The caller
// holds w.mu (the encoding borrows w.scratch).
func (w *Writer) overhead(v any) int {
	line, err := appendLine(w.scratch[:0], v)
	if err != nil {
		return 0 // encodeLine reports the error when the event is written
	}
	if cap(line) <= maxScratch {
		w.scratch = line[:0]
	}
	return len(line) - 1
}

func (w *Writer) assistantLine(block any) messageLine {
	model := w.model
	if model == "" {
		model = defaultModel
	}
	return messageLine{
		head: head{"assistant"},
		Message: assistantMessage{
			ID:      newMessageID(),
			Type:    "message",
			Role:    "assistant",
			Model:   model,
			Content: []any{block},
			Usage:   w.msgUsage,
		},
		SessionID: w.sessionID,
		UUID:      NewUUID(),
	}
}

// MessageUsage sets the usage the assistant messages written from now on
// carry in message.usage: the tokens of the model request they come from,
// where the provider reports them with its message (as Claude Code does).
// nil (the start) leaves message.usage out. The turn's usage is still
// Result.Usage alone.
func (w *Writer) MessageUsage(u *Usage) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgUsage = nil
	if u != nil {
		w.msgUsage = u.wire()
	}
}

// ToolUse writes a tool call with its complete input: in the Claude
// protocol an assistant message with one tool_use block, in the flat
// protocol {"type":"tool_use",…}. id must be unique in the session
// (NewToolUseID makes one); a nil input is written as {}.
func (w *Writer) ToolUse(id, name string, input any) error {
	if id == "" || name == "" {
		return fmt.Errorf("emit: ToolUse needs an id (use NewToolUseID) and a tool name, got id %q name %q", id, name)
	}
	id, name, input = ValidUTF8(id), ValidUTF8(name), objectOrEmpty(redactInput(input))
	w.mu.Lock()
	defer w.mu.Unlock()
	w.open[id] = true
	if w.proto == Flat {
		return w.emitLocked(toolUseLine{head{"tool_use"}, id, name, input, NewUUID()})
	}
	return w.emitLocked(w.assistantLine(toolUseBlock{Type: "tool_use", ID: id, Name: name, Input: input}))
}

// objectOrEmpty turns a nil input into an empty object: consumers read
// input fields and Claude never sends a null input.
func objectOrEmpty(input any) any {
	if input == nil {
		return struct{}{}
	}
	return input
}

// PermissionRequest writes a Claude SDK control_request (subtype
// can_use_tool) asking the host to approve the tool_use toolUseID, which
// must already have been written. The line is the same in both protocols.
// It returns the new request id and remembers which tool_use it is for
// (see ToolUseForRequest).
func (w *Writer) PermissionRequest(toolUseID, name string, input any) (requestID string, err error) {
	if toolUseID == "" || name == "" {
		return "", fmt.Errorf("emit: PermissionRequest needs the tool_use id and tool name, got id %q name %q", toolUseID, name)
	}
	toolUseID, name = ValidUTF8(toolUseID), ValidUTF8(name)
	requestID = newRequestID()
	w.mu.Lock()
	w.requests[requestID] = toolUseID
	asked := Asked{RequestID: requestID, ToolUseID: toolUseID, Tool: name, Input: input}
	w.asked = append(w.asked, asked)
	err = w.emitLocked(permissionLine{
		head:      head{"control_request"},
		RequestID: requestID,
		Request: permissionRequest{
			Subtype:   "can_use_tool",
			ToolName:  name,
			Input:     objectOrEmpty(redactInput(input)),
			ToolUseID: toolUseID,
		},
		UUID: NewUUID(),
	})
	w.mu.Unlock()
	if err == nil && w.onAsk != nil {
		w.onAsk(asked)
	}
	return requestID, err
}

// ToolUseOpen reports whether tool_use id was written and has no result yet.
func (w *Writer) ToolUseOpen(id string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.open[id]
}

// ToolUseForRequest returns the tool_use id a PermissionRequest asked
// about, so that a control_response (which names only the request) can be
// matched to its tool.
func (w *Writer) ToolUseForRequest(requestID string) (toolUseID string, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	toolUseID, ok = w.requests[requestID]
	return toolUseID, ok
}

// ToolResult writes the result of the tool_use toolUseID: in the Claude
// protocol a user message with one tool_result block, in the flat protocol
// {"type":"tool_result",…}. content is always a JSON string; secrets in it
// are redacted (Redact) and it is capped to MaxToolOutput, or further if
// the line would otherwise reach MaxLine, with a note saying how much was
// cut (CapOutput).
func (w *Writer) ToolResult(toolUseID, content string, isError bool) error {
	if toolUseID == "" {
		return errors.New("emit: ToolResult needs the id of the tool_use it answers")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.toolResultLocked(toolUseID, content, isError)
}

func (w *Writer) toolResultLocked(toolUseID, content string, isError bool) error {
	toolUseID = ValidUTF8(toolUseID)
	delete(w.open, toolUseID)
	content = Redact(ValidUTF8(content))
	budget := maxJSON - w.overhead(w.toolResultEvent(toolUseID, "", isError))
	return w.emitLocked(w.toolResultEvent(toolUseID, fitOutput(content, budget), isError))
}

// fitOutput caps content to MaxToolOutput and then, if its JSON encoding
// is still longer than budget bytes, cuts more until it fits.
func fitOutput(content string, budget int) string {
	limit := min(MaxToolOutput, len(content))
	out := CapOutput(content, limit)
	for n := jsonLen(out); n > budget && limit > 0; n = jsonLen(out) {
		// Removing k raw bytes removes at least k encoded bytes; the slack
		// covers the note growing by a digit.
		limit -= n - budget + 16
		out = CapOutput(content, limit)
	}
	return out
}

func (w *Writer) toolResultEvent(toolUseID, content string, isError bool) any {
	if w.proto == Flat {
		return toolResultLine{head{"tool_result"}, toolUseID, content, isError, NewUUID()}
	}
	return messageLine{
		head: head{"user"},
		Message: userMessage{
			Role:    "user",
			Content: []toolResultBlock{{Type: "tool_result", ToolUseID: toolUseID, Content: content, IsError: isError}},
		},
		SessionID: w.sessionID,
		UUID:      NewUUID(),
	}
}

// Deny answers the tool_use toolUseID with an error tool_result carrying
// message (a default when empty) and records the denial, which the turn's
// result lists in permission_denials.
func (w *Writer) Deny(toolUseID, name string, input any, message string) error {
	if toolUseID == "" {
		return errors.New("emit: Deny needs the id of the tool_use it answers")
	}
	if message == "" {
		message = fmt.Sprintf("Permission to use %s was denied.", name)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.denials = append(w.denials, denial{
		ToolName:  ValidUTF8(name),
		ToolUseID: ValidUTF8(toolUseID),
		ToolInput: objectOrEmpty(redactInput(input)),
	})
	return w.toolResultLocked(toolUseID, message, true)
}

// Usage writes the flat live-progress event
// {"type":"usage","input_tokens":…,"output_tokens":…} (both protocols).
// Yume's context bar reads it; the turn's billed usage is result.usage.
// Negative counts are written as 0; a usage of no input and no output
// (a provider that reported nothing) is not written.
func (w *Writer) Usage(in, out int) error {
	if in <= 0 && out <= 0 {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.emitLocked(usageLine{head{"usage"}, max(in, 0), max(out, 0), NewUUID()})
}

// Notice writes {"type":"system","subtype":"notice","message":…}, for
// things the user should see that are not errors ("auto-approved: npm test").
// The message is redacted.
func (w *Writer) Notice(msg string) error { return w.system("notice", msg) }

// SystemError writes {"type":"system","subtype":"error","message":…},
// which Yume shows as an error bubble. The message is redacted. It does not
// end the turn (see Fail).
func (w *Writer) SystemError(msg string) error { return w.system("error", msg) }

// TurnError is SystemError while the turn is open; once it has its
// result, nothing is written (a watcher's late report never follows it).
func (w *Writer) TurnError(msg string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.turnEnded {
		return nil
	}
	return w.systemLocked("error", msg)
}

// Warning writes {"type":"system","subtype":"warning","message":…}: a
// call the person should look at twice (a dangerous command).
func (w *Writer) Warning(msg string) error { return w.system("warning", msg) }

// RateLimit writes {"type":"system","subtype":"rate_limit","message":…},
// which Yume shows: the model's service limits the account's requests or
// its quota is used up. The message is redacted. It does not end the turn.
func (w *Writer) RateLimit(msg string) error { return w.system("rate_limit", msg) }

func (w *Writer) system(subtype, msg string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.systemLocked(subtype, msg)
}

func (w *Writer) systemLocked(subtype, msg string) error {
	return w.emitLocked(systemLine{head{"system"}, subtype, Redact(ValidUTF8(msg)), w.sessionID, NewUUID()})
}

// SessionChanged tells Yume that the session id is now id
// ({"type":"system","subtype":"session_id",…}); later lines carry it.
func (w *Writer) SessionChanged(id string) error {
	if id == "" {
		return errors.New("emit: SessionChanged needs the new session id")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sessionID = ValidUTF8(id)
	return w.emitLocked(sessionLine{head{"system"}, "session_id", w.sessionID, NewUUID()})
}

// Interrupt writes {"type":"interrupt"}. The turn must still end with an
// error result (Result with IsError, or Fail).
func (w *Writer) Interrupt() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.emitLocked(bareLine{head{"interrupt"}, NewUUID()})
}
