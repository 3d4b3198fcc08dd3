package fakemodel

// openAIChat answers POST /v1/chat/completions, streaming (SSE) or not.
func (s *Server) openAIChat(st *stream, body []byte, reply Reply) {
	id := s.newID("chatcmpl-fake-")
	finish := "stop"
	if len(reply.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	calls := make([]map[string]any, len(reply.ToolCalls))
	for i, c := range reply.ToolCalls {
		cid := c.ID
		if cid == "" {
			cid = s.newID("call_fake_")
		}
		calls[i] = map[string]any{"index": i, "id": cid, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": c.argsJSON()}}
		if c.Custom != "" {
			calls[i] = map[string]any{"index": i, "id": cid, "type": "custom",
				"custom": map[string]any{"name": c.Name, "input": c.Custom}}
		}
	}
	// OpenAI's prompt_tokens include the cached ones, named again in
	// prompt_tokens_details; it reports no cache writes.
	u := reply.usage()
	usage := map[string]any{"prompt_tokens": u.Prompt(), "completion_tokens": u.Output,
		"total_tokens":              u.Prompt() + u.Output,
		"prompt_tokens_details":     map[string]any{"cached_tokens": u.CacheRead, "audio_tokens": 0},
		"completion_tokens_details": map[string]any{"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}}
	if !streamFlag(body) {
		msg := map[string]any{"role": "assistant", "content": reply.Text}
		if len(calls) > 0 {
			msg["tool_calls"] = calls
		}
		writeJSON(st.w, map[string]any{"id": id, "object": "chat.completion", "created": 0, "model": st.model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	chunk := func(delta map[string]any, finishReason any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": 0, "model": st.model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finishReason}}}
	}
	st.event("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for _, c := range chunks(reply.Text) {
		st.event("", chunk(map[string]any{"content": c}, nil))
	}
	if reply.Stall {
		st.stall()
		return
	}
	for _, c := range calls {
		st.event("", chunk(map[string]any{"tool_calls": []any{c}}, nil))
	}
	st.event("", chunk(map[string]any{}, finish))
	// The usage chunk has no choices, as with stream_options.include_usage.
	st.event("", map[string]any{"id": id, "object": "chat.completion.chunk", "created": 0, "model": st.model,
		"choices": []any{}, "usage": usage})
	st.raw("[DONE]")
}

// customCall streams a custom (freeform) tool call item of the Responses
// dialect and returns the finished item.
func (s *Server) customCall(ev func(string, map[string]any), index int, id, callID string, c ToolCall) map[string]any {
	ev("response.output_item.added", map[string]any{"output_index": index, "item": map[string]any{
		"id": id, "type": "custom_tool_call", "status": "in_progress", "call_id": callID, "name": c.Name, "input": ""}})
	ev("response.custom_tool_call_input.delta", map[string]any{"item_id": id, "output_index": index, "delta": c.Custom})
	ev("response.custom_tool_call_input.done", map[string]any{"item_id": id, "output_index": index, "input": c.Custom})
	item := map[string]any{"id": id, "type": "custom_tool_call", "status": "completed", "call_id": callID, "name": c.Name, "input": c.Custom}
	ev("response.output_item.done", map[string]any{"output_index": index, "item": item})
	return item
}

// openAIResponses answers POST /v1/responses with the Responses SSE stream
// (always streaming: the CLIs that use this dialect stream).
func (s *Server) openAIResponses(st *stream, reply Reply) {
	respID := s.newID("resp_fake_")
	seq := 0
	ev := func(typ string, fields map[string]any) {
		fields["type"] = typ
		fields["sequence_number"] = seq
		seq++
		st.event(typ, fields)
	}
	base := map[string]any{"id": respID, "object": "response", "created_at": 0, "model": st.model,
		"status": "in_progress", "output": []any{}}
	ev("response.created", map[string]any{"response": base})
	ev("response.in_progress", map[string]any{"response": base})
	var output []any
	index := 0
	if reply.Text != "" || reply.Stall {
		msgID := s.newID("msg_fake_")
		ev("response.output_item.added", map[string]any{"output_index": index, "item": map[string]any{
			"id": msgID, "type": "message", "role": "assistant", "status": "in_progress", "content": []any{}}})
		ev("response.content_part.added", map[string]any{"item_id": msgID, "output_index": index, "content_index": 0,
			"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
		for _, c := range chunks(reply.Text) {
			ev("response.output_text.delta", map[string]any{"item_id": msgID, "output_index": index, "content_index": 0, "delta": c})
		}
		if reply.Stall {
			st.stall()
			return
		}
		ev("response.output_text.done", map[string]any{"item_id": msgID, "output_index": index, "content_index": 0, "text": reply.Text})
		part := map[string]any{"type": "output_text", "text": reply.Text, "annotations": []any{}}
		ev("response.content_part.done", map[string]any{"item_id": msgID, "output_index": index, "content_index": 0, "part": part})
		item := map[string]any{"id": msgID, "type": "message", "role": "assistant", "status": "completed", "content": []any{part}}
		ev("response.output_item.done", map[string]any{"output_index": index, "item": item})
		output = append(output, item)
		index++
	}
	for _, c := range reply.ToolCalls {
		cid := c.ID
		if cid == "" {
			cid = s.newID("call_fake_")
		}
		fcID := s.newID("fc_fake_")
		if c.Custom != "" {
			output = append(output, s.customCall(ev, index, fcID, cid, c))
			index++
			continue
		}
		args := c.argsJSON()
		ev("response.output_item.added", map[string]any{"output_index": index, "item": map[string]any{
			"id": fcID, "type": "function_call", "status": "in_progress", "call_id": cid, "name": c.Name, "arguments": ""}})
		ev("response.function_call_arguments.delta", map[string]any{"item_id": fcID, "output_index": index, "delta": args})
		ev("response.function_call_arguments.done", map[string]any{"item_id": fcID, "output_index": index, "arguments": args})
		item := map[string]any{"id": fcID, "type": "function_call", "status": "completed", "call_id": cid, "name": c.Name, "arguments": args}
		ev("response.output_item.done", map[string]any{"output_index": index, "item": item})
		output = append(output, item)
		index++
	}
	if output == nil {
		output = []any{}
	}
	// The Responses API's input_tokens include the cached ones too.
	u := reply.usage()
	done := map[string]any{"id": respID, "object": "response", "created_at": 0, "model": st.model,
		"status": "completed", "output": output, "usage": map[string]any{
			"input_tokens": u.Prompt(), "input_tokens_details": map[string]any{"cached_tokens": u.CacheRead},
			"output_tokens": u.Output, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
			"total_tokens": u.Prompt() + u.Output}}
	ev("response.completed", map[string]any{"response": done})
}
