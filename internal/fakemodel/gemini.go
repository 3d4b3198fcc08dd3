package fakemodel

import (
	"encoding/json"
	"strings"
)

// gemini answers …:generateContent (one JSON object) and
// …:streamGenerateContent (SSE with alt=sse, otherwise a JSON array).
func (s *Server) gemini(st *stream, path string, reply Reply) {
	// Gemini's promptTokenCount includes the cached tokens, named again in
	// cachedContentTokenCount; it reports no cache writes.
	u := reply.usage()
	usage := map[string]any{"promptTokenCount": u.Prompt(), "candidatesTokenCount": u.Output,
		"totalTokenCount": u.Prompt() + u.Output}
	if u.CacheRead > 0 {
		usage["cachedContentTokenCount"] = u.CacheRead
	}
	response := func(parts []any, finish string, withUsage bool) map[string]any {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		if finish != "" {
			cand["finishReason"] = finish
		}
		r := map[string]any{"candidates": []any{cand}, "modelVersion": st.model, "responseId": s.newID("gen_fake_")}
		if withUsage {
			r["usageMetadata"] = usage
		}
		return r
	}
	if !strings.HasSuffix(path, ":streamGenerateContent") {
		parts := geminiParts(reply.Text, reply.ToolCalls)
		if parts == nil {
			parts = []any{map[string]any{"text": ""}}
		}
		writeJSON(st.w, response(parts, "STOP", true))
		return
	}
	if st.req.URL.Query().Get("alt") != "sse" {
		// Without alt=sse the API streams a JSON array; send it whole.
		writeJSON(st.w, []any{response(geminiParts(reply.Text, reply.ToolCalls), "STOP", true)})
		return
	}
	for _, c := range chunks(reply.Text) {
		st.event("", response([]any{map[string]any{"text": c}}, "", false))
	}
	if reply.Stall {
		st.stall()
		return
	}
	last := geminiParts("", reply.ToolCalls)
	if last == nil {
		// The final chunk still needs a part; an empty text part is what the
		// API sends at the end of a text-only stream.
		last = []any{map[string]any{"text": ""}}
	}
	st.event("", response(last, "STOP", true))
}

// geminiParts builds the candidate parts of a reply.
func geminiParts(text string, calls []ToolCall) []any {
	var parts []any
	if text != "" {
		parts = append(parts, map[string]any{"text": text})
	}
	for _, c := range calls {
		fc := map[string]any{"name": c.Name, "args": json.RawMessage(c.argsJSON())}
		if c.ID != "" {
			fc["id"] = c.ID
		}
		parts = append(parts, map[string]any{"functionCall": fc})
	}
	return parts
}
