package structured

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/modelerror"
	"github.com/yume-cli/yume-cli/providers"
)

// codexTranslator translates `codex exec --json`. Codex numbers its items
// item_0, item_1, … in every process, so a resumed thread would reuse ids:
// each translator adds its own salt to keep tool ids unique in the session.
type codexTranslator struct {
	*turn
	salt  string
	todos int // TodoWrite revisions written, for unique ids
}

type codexLine struct {
	Type     string     `json:"type"`
	ThreadID string     `json:"thread_id"`
	Message  string     `json:"message"`
	Item     *codexItem `json:"item"`
	Error    *struct {
		Message string `json:"message"`
	} `json:"error"`
	Usage *providers.CodexTokens `json:"usage"`
}

type codexItem struct {
	ID               string          `json:"id"`
	Type             string          `json:"type"`
	Text             string          `json:"text"`
	Command          string          `json:"command"`
	AggregatedOutput string          `json:"aggregated_output"`
	ExitCode         *int            `json:"exit_code"`
	Status           string          `json:"status"`
	Changes          []codexChange   `json:"changes"`
	Server           string          `json:"server"`
	Tool             string          `json:"tool"`
	Arguments        json.RawMessage `json:"arguments"`
	Result           *struct {
		Content json.RawMessage `json:"content"`
	} `json:"result"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
	Query string `json:"query"`
	Items []struct {
		Text      string `json:"text"`
		Completed bool   `json:"completed"`
	} `json:"items"`
	Message string `json:"message"`
}

type codexChange struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
	Diff string `json:"diff"`
}

// Line implements Translator.
func (c *codexTranslator) Line(line []byte) error {
	var l codexLine
	if err := decodeFast(line, &l); err != nil {
		return err
	}
	switch l.Type {
	case "thread.started":
		return c.init(l.ThreadID, c.provider.Tools)
	case "item.started", "item.updated", "item.completed":
		if l.Item == nil {
			return fmt.Errorf("%w: %s without item", ErrMalformed, l.Type)
		}
		if err := c.ensureInit(); err != nil {
			return err
		}
		return c.item(l.Type, l.Item)
	case "turn.completed":
		if u := l.Usage; u != nil {
			// Codex counts the cache's tokens inside input_tokens, as the
			// OpenAI API does; Claude does not.
			c.setUsage(emit.Split(u.InputTokens, u.OutputTokens, u.CachedInputTokens, u.CacheWriteInputTokens))
		}
		return c.end(emit.Result{})
	case "turn.failed":
		msg := "codex turn failed"
		if l.Error != nil && l.Error.Message != "" {
			msg = l.Error.Message
		}
		return c.end(emit.Result{IsError: true, Errors: []string{msg}})
	case "error":
		// Reconnect attempts and other stream errors; turn.failed follows if
		// it was fatal. A model error is shown; anything else is a notice.
		if modelerror.Classify(l.Message) != nil {
			if err := c.ensureInit(); err != nil {
				return err
			}
			c.watch.sawText(l.Message)
			return nil
		}
		return c.notice(l.Message)
	case "":
		return fmt.Errorf("%w: no \"type\" field", ErrMalformed)
	}
	return nil // turn.started and newer event types carry nothing to show.
}

func (c *codexTranslator) id(itemID string) string { return itemID + "_" + c.salt }

func (c *codexTranslator) item(event string, it *codexItem) error {
	done := event == "item.completed"
	id := c.id(it.ID)
	switch it.Type {
	case "agent_message":
		if done {
			return c.say(it.Text)
		}
	case "command_execution":
		if err := c.toolUse(id, "Bash", map[string]any{"command": unwrapShell(it.Command)}); err != nil {
			return err
		}
		if !done {
			return nil
		}
		if it.Status == "declined" {
			return c.deny(id, "codex declined to run this command")
		}
		failed := it.Status == "failed" || (it.ExitCode != nil && *it.ExitCode != 0)
		out := it.AggregatedOutput
		if failed && it.ExitCode != nil {
			out = strings.TrimRight(out, "\n") + fmt.Sprintf("\n(exit code %d)", *it.ExitCode)
		}
		return c.toolResult(id, out, failed)
	case "file_change":
		return c.fileChange(id, done, it)
	case "mcp_tool_call":
		var args any = map[string]any{}
		if len(it.Arguments) > 0 {
			_ = json.Unmarshal(it.Arguments, &args) // Unparseable arguments stay {}.
		}
		if err := c.toolUse(id, "mcp__"+it.Server+"__"+it.Tool, args); err != nil || !done {
			return err
		}
		if it.Error != nil {
			return c.toolResult(id, it.Error.Message, true)
		}
		out := ""
		if it.Result != nil {
			out = blocksText(it.Result.Content)
		}
		return c.toolResult(id, out, it.Status == "failed")
	case "web_search":
		if err := c.toolUse(id, "WebSearch", map[string]any{"query": it.Query}); err != nil || !done {
			return err
		}
		return c.toolResult(id, "searched: "+it.Query, false)
	case "todo_list":
		// Each plan update is a TodoWrite call of its own, as in Claude.
		c.todos++
		tid := fmt.Sprintf("%s_%d", id, c.todos)
		list := make([]any, 0, len(it.Items))
		for _, t := range it.Items {
			st := "pending"
			if t.Completed {
				st = "completed"
			}
			list = append(list, map[string]any{"content": t.Text, "status": st, "activeForm": t.Text})
		}
		if err := c.toolUse(tid, "TodoWrite", map[string]any{"todos": list}); err != nil {
			return err
		}
		return c.toolResult(tid, "plan updated", false)
	case "error":
		if done {
			return c.notice(it.Message)
		}
	}
	return nil // reasoning and newer item types are not shown.
}

// fileChange writes one Write/Edit tool pair per changed file. Codex gives
// no old/new text, so Edit carries the diff when there is one.
func (c *codexTranslator) fileChange(id string, done bool, it *codexItem) error {
	if !done {
		return nil
	}
	for i, ch := range it.Changes {
		cid := fmt.Sprintf("%s_%d", id, i)
		name, input := "Edit", map[string]any{"file_path": ch.Path, "old_string": "", "new_string": ""}
		if ch.Kind == "add" {
			name, input = "Write", map[string]any{"file_path": ch.Path, "content": ""}
		}
		if ch.Diff != "" {
			input["diff"] = ch.Diff
		}
		if err := c.toolUse(cid, name, input); err != nil {
			return err
		}
		out := ch.Diff
		if out == "" {
			out = ch.Kind + " " + ch.Path
		}
		if err := c.toolResult(cid, out, it.Status == "failed"); err != nil {
			return err
		}
	}
	return nil
}

// Finish implements Translator. An interrupted codex turn ends with neither
// turn.completed nor turn.failed.
func (c *codexTranslator) Finish(exit error) error { return c.finish(exit) }
