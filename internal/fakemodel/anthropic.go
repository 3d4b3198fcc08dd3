package fakemodel

import "encoding/json"

// streamFlag reads the "stream" field of a JSON request body.
func streamFlag(body []byte) bool {
	var probe struct {
		Stream bool `json:"stream"`
	}
	return json.Unmarshal(body, &probe) == nil && probe.Stream
}

// anthropic answers POST /v1/messages, streaming (SSE) or not.
func (s *Server) anthropic(st *stream, body []byte, reply Reply) {
	msgID := s.newID("msg_fake_")
	stop := "end_turn"
	if len(reply.ToolCalls) > 0 {
		stop = "tool_use"
	}
	var blocks []map[string]any
	if reply.Text != "" {
		blocks = append(blocks, map[string]any{"type": "text", "text": reply.Text})
	}
	ids := make([]string, len(reply.ToolCalls))
	for i, c := range reply.ToolCalls {
		ids[i] = c.ID
		if ids[i] == "" {
			ids[i] = s.newID("toolu_fake_")
		}
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": ids[i], "name": c.Name, "input": json.RawMessage(c.argsJSON())})
	}
	// Anthropic's input_tokens leave out the cache's reads and writes.
	usage := map[string]any{"input_tokens": reply.InputTokens, "output_tokens": reply.OutputTokens,
		"cache_creation_input_tokens": reply.CacheWriteTokens, "cache_read_input_tokens": reply.CacheReadTokens}
	if !streamFlag(body) {
		if blocks == nil {
			blocks = []map[string]any{}
		}
		writeJSON(st.w, map[string]any{"id": msgID, "type": "message", "role": "assistant", "model": st.model,
			"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	st.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": st.model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": reply.InputTokens, "output_tokens": 1,
			"cache_creation_input_tokens": reply.CacheWriteTokens, "cache_read_input_tokens": reply.CacheReadTokens}}})
	index := 0
	if reply.Text != "" {
		st.event("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "text", "text": ""}})
		for _, c := range chunks(reply.Text) {
			st.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
				"delta": map[string]any{"type": "text_delta", "text": c}})
		}
		if reply.Stall {
			st.stall()
			return
		}
		st.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
	} else if reply.Stall {
		st.stall()
		return
	}
	for i, c := range reply.ToolCalls {
		st.event("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "tool_use", "id": ids[i], "name": c.Name, "input": map[string]any{}}})
		st.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": c.argsJSON()}})
		st.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	st.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": reply.OutputTokens}})
	st.event("message_stop", map[string]any{"type": "message_stop"})
}
