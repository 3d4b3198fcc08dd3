package structured

import (
	"errors"
	"slices"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/providers"
)

// geminiTranslator translates `gemini -p … --output-format stream-json`.
// Assistant text arrives as deltas with no message boundaries; it is
// buffered and written as one message at the next tool call or the end.
type geminiTranslator struct {
	*turn
}

type geminiLine struct {
	Type       string         `json:"type"`
	SessionID  string         `json:"session_id"`
	Role       string         `json:"role"`
	Content    string         `json:"content"`
	ToolName   string         `json:"tool_name"`
	ToolID     string         `json:"tool_id"`
	Parameters map[string]any `json:"parameters"`
	Status     string         `json:"status"`
	Output     *string        `json:"output"`
	Severity   string         `json:"severity"`
	Message    string         `json:"message"`
	Error      *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	Stats *struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
		Cached       int `json:"cached"`
	} `json:"stats"`
}

// Line implements Translator.
func (g *geminiTranslator) Line(line []byte) error {
	var l geminiLine
	if err := decodeFast(line, &l); err != nil {
		return err
	}
	switch l.Type {
	case "init":
		return g.init(l.SessionID, g.provider.Tools)
	case "message":
		if l.Role == "assistant" {
			if err := g.ensureInit(); err != nil {
				return err
			}
			return g.buffer(l.Content)
		}
		return nil // The user message is the prompt echoed back.
	case "tool_use":
		name, input := g.mapTool(l.ToolName, l.Parameters)
		if err := g.ensureInit(); err != nil {
			return err
		}
		return g.toolUse(l.ToolID, name, input)
	case "tool_result":
		return g.toolResult(l)
	case "error":
		// Non-fatal by definition: the result line ends the turn.
		if l.Severity == "error" {
			return g.systemError(l.Message)
		}
		return g.notice(l.Message)
	case "result":
		if s := l.Stats; s != nil {
			// Gemini's input_tokens include the cached ones; Claude's do not.
			g.setUsage(emit.Split(s.InputTokens, s.OutputTokens, s.Cached, 0))
		}
		if l.Status == "error" {
			msg := "gemini reported an error"
			if l.Error != nil && l.Error.Message != "" {
				msg = l.Error.Message
			}
			return g.end(emit.Result{IsError: true, Errors: []string{msg}})
		}
		return g.end(emit.Result{})
	case "":
		return errors.Join(ErrMalformed, errors.New(`no "type" field`))
	}
	return nil // Newer event types are skipped.
}

// toolResult writes a tool_result; a tool Gemini refused to run because its
// policy excludes it in headless mode is reported as a denial.
func (g *geminiTranslator) toolResult(l geminiLine) error {
	content := ""
	if l.Output != nil {
		content = *l.Output
	}
	if l.Status != "error" {
		if content == "" {
			// Gemini omits output for tools whose display is not a string
			// (edits, todo lists); Yume still needs a string.
			content = "ok"
		}
		return g.turn.toolResult(l.ToolID, content, false)
	}
	msg := content
	if l.Error != nil && l.Error.Message != "" {
		msg = l.Error.Message
	}
	tc, _ := g.tools.get(l.ToolID)
	if l.Error != nil && isGeminiDenial(l.Error.Type, tc.name) {
		return g.deny(l.ToolID, "denied by gemini's policy in non-interactive mode (use --permission-mode auto or --mode acp to approve): "+msg)
	}
	return g.turn.toolResult(l.ToolID, msg, true)
}

// isGeminiDenial tells policy refusals from tool failures. Headless Gemini
// removes tools that would need approval from its registry, so a call to a
// known tool fails with tool_not_registered.
func isGeminiDenial(errType, claudeName string) bool {
	t := strings.ToLower(errType)
	if strings.Contains(t, "policy") || strings.Contains(t, "denied") || strings.Contains(t, "rejected") {
		return true
	}
	return t == "tool_not_registered" && claudeName != "" && claudeName != "Tool" && slices.Contains(providers.ClaudeTools, claudeName)
}

// Finish implements Translator.
func (g *geminiTranslator) Finish(exit error) error { return g.finish(exit) }
