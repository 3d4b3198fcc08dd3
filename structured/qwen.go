package structured

import (
	"encoding/json"
	"strings"
)

// qwenTranslator translates headless Qwen Code (`qwen -o stream-json`):
// Claude's stream-json with Qwen's own tool names (run_shell_command,
// write_file, …). Its tool calls are renamed to Claude's, a call Qwen
// declined because the approval mode would have asked is a denial, and the
// rest is Claude's translator.
type qwenTranslator struct {
	claude *claudeTranslator
}

// Line implements Translator.
func (q *qwenTranslator) Line(line []byte) error {
	typ := lineType(line)
	switch typ {
	case "assistant", "user", "result":
	default:
		return q.claude.Line(line)
	}
	var m map[string]any
	if json.Unmarshal(line, &m) != nil {
		return q.claude.Line(line) // it reports the malformed line
	}
	if typ == "result" {
		// Its denials were reported as they came (the declined results);
		// Claude's translator would name them Claude's.
		delete(m, "permission_denials")
		return q.relay(m)
	}
	msg, _ := m["message"].(map[string]any)
	blocks, ok := msg["content"].([]any)
	if !ok {
		return q.claude.Line(line)
	}
	kept := blocks[:0]
	for _, b := range blocks {
		blk, _ := b.(map[string]any)
		switch blk["type"] {
		case "tool_use":
			in, _ := blk["input"].(map[string]any)
			name, input := q.claude.mapTool(str(blk["name"]), in)
			if name == "" {
				continue
			}
			if input == nil {
				input = map[string]any{}
			}
			if q.claude.mode == "auto" {
				input["approved_by"] = q.autoName()
			}
			blk["name"], blk["input"] = name, input
		case "tool_result":
			if text := blocksText(mustRaw(blk["content"])); blk["is_error"] == true && strings.Contains(text, "permission was declined") {
				if err := q.claude.deny(str(blk["tool_use_id"]), "denied: headless qwen declines every call it would ask about (permission mode "+q.claude.mode+"): "+text); err != nil {
					return err
				}
				continue
			}
		}
		kept = append(kept, blk)
	}
	msg["content"] = kept
	return q.relay(m)
}

// relay hands a rewritten line to Claude's translator.
func (q *qwenTranslator) relay(m map[string]any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return q.claude.Line(b)
}

// autoName is the approval mode that let a call run in auto mode.
func (q *qwenTranslator) autoName() string {
	for _, m := range q.claude.provider.Structured {
		if m.Format == "qwen-stream-json" {
			return m.AutoName
		}
	}
	return "qwen"
}

// Finish implements Translator.
func (q *qwenTranslator) Finish(exit error) error { return q.claude.Finish(exit) }

func str(v any) string {
	s, _ := v.(string)
	return s
}

func mustRaw(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
