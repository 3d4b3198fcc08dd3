package structured

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/providers"
)

// openCodeTranslator translates `opencode run --format json` (and Kilo's
// `kilo run --format json`): one JSON event per finished part. A step's
// text arrives whole, a tool call once it has finished (so its tool_use
// and tool_result are written together), tokens with each step's end.
// The program ends the turn by exiting.
type openCodeTranslator struct {
	*turn
	cost float64 // the steps' cost in USD, as the program prices them
}

// openCodeUsage is a step's tokens as Claude's usage.
func openCodeUsage(t providers.OpenCodeTokens) emit.Usage {
	return emit.Usage{InputTokens: t.Input, OutputTokens: t.Output, CacheReadInputTokens: t.Cache.Read, CacheCreationInputTokens: t.Cache.Write}
}

// openCodeLine is one line of `run --format json`: an event and its part.
type openCodeLine struct {
	Type      string                 `json:"type"`
	SessionID string                 `json:"sessionID"`
	Part      providers.OpenCodePart `json:"part"`
	Error     json.RawMessage        `json:"error"`
}

// Line implements Translator.
func (o *openCodeTranslator) Line(line []byte) error {
	var l openCodeLine
	if err := decode(line, &l); err != nil {
		return err
	}
	if err := o.init(l.SessionID, o.provider.Tools); err != nil {
		return err
	}
	switch l.Type {
	case "text":
		return o.buffer(l.Part.Text)
	case "tool_use":
		return o.tool(l)
	case "step_finish":
		// A step is one model request: its text (buffered) is its message.
		if t := l.Part.Tokens; t != nil {
			u := openCodeUsage(*t)
			o.addUsage(u)
			o.w.MessageUsage(&u)
			err := o.flush()
			o.w.MessageUsage(nil)
			o.cost += l.Part.Cost
			return err
		}
	case "error":
		return o.systemError(openCodeError(l.Error))
	case "":
		return errors.Join(ErrMalformed, errors.New(`no "type" field`))
	}
	return nil // step_start, reasoning and newer events: nothing to show
}

// tool writes a finished call: its tool_use (saying who let it run: in
// this mode nobody was asked) and its result; a call the permission
// setting rejected is a denial.
func (o *openCodeTranslator) tool(l openCodeLine) error {
	id, st := l.Part.CallID, l.Part.State
	if st == nil {
		st = &providers.OpenCodeToolState{} // a call with no state yet: nothing to say of it
	}
	name, input := o.mapTool(l.Part.Tool, st.Input)
	if name == "" {
		return nil
	}
	if input == nil {
		input = map[string]any{}
	}
	rejected := st.Status == "error" && strings.Contains(st.Error, "rejected permission")
	if !rejected {
		input["approved_by"] = o.autoName()
	}
	if err := o.toolUse(id, name, input); err != nil {
		return err
	}
	switch {
	case rejected:
		return o.deny(id, "denied: "+o.provider.Name+" run rejects every call it would ask about (permission mode "+o.mode+"): "+st.Error)
	case st.Status == "error":
		return o.toolResult(id, st.Error, true)
	}
	return o.toolResult(id, st.Output, false)
}

// autoName is what let a call run unasked: the allow-all of auto mode,
// else the program's own permission config (reads, searches).
func (o *openCodeTranslator) autoName() string {
	if o.mode == "auto" {
		for _, m := range o.provider.Structured {
			if m.Format == "opencode-json" && m.AutoName != "" {
				return m.AutoName
			}
		}
	}
	return o.provider.Name + ", without asking"
}

// openCodeError is the message of an error event ({name, data:{message}}).
func openCodeError(raw json.RawMessage) string {
	var e struct {
		Name string `json:"name"`
		Data struct {
			Message string `json:"message"`
		} `json:"data"`
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) == nil {
		if msg := e.Data.Message + e.Message; msg != "" {
			return msg
		}
		if e.Name != "" {
			return e.Name
		}
	}
	return "the program reported an error: " + string(raw)
}

// Finish implements Translator: the program's exit ends the turn.
func (o *openCodeTranslator) Finish(exit error) error {
	if exit != nil || len(o.errs) > 0 {
		return o.finish(exit)
	}
	r := emit.Result{}
	if o.cost > 0 { // 0: a model it has no price for
		r.CostUSD = emit.Cost(o.cost)
	}
	return o.end(r)
}
