package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// stream writes one server-sent-events response.
type stream struct {
	w       http.ResponseWriter
	req     *http.Request
	done    <-chan struct{}
	model   string
	started bool
	err     error
}

// start sends the SSE headers once.
func (st *stream) start() {
	if st.started {
		return
	}
	st.started = true
	h := st.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	st.w.WriteHeader(http.StatusOK)
}

// event writes "event: NAME" (when name is set) and "data: JSON" and flushes.
// After the first failure it does nothing; the error is kept in st.err.
func (st *stream) event(name string, data any) {
	if st.err != nil {
		return
	}
	st.start()
	b, err := json.Marshal(data)
	if err != nil {
		st.err = err
		return
	}
	if name != "" {
		_, st.err = fmt.Fprintf(st.w, "event: %s\n", name)
	}
	if st.err == nil {
		_, st.err = fmt.Fprintf(st.w, "data: %s\n\n", b)
	}
	st.flush()
}

// raw writes a literal data line (e.g. "[DONE]").
func (st *stream) raw(data string) {
	if st.err != nil {
		return
	}
	st.start()
	_, st.err = fmt.Fprintf(st.w, "data: %s\n\n", data)
	st.flush()
}

func (st *stream) flush() {
	if f, ok := st.w.(http.Flusher); ok {
		f.Flush()
	}
}

// stall keeps a started stream open until the client leaves or the server
// closes; it reports errClientGone so callers stop writing.
func (st *stream) stall() {
	st.start()
	st.flush()
	select {
	case <-st.req.Context().Done():
	case <-st.done:
	}
	st.err = errClientGone
}

// writeJSON answers a non-streaming request.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v) // Best effort: the client may be gone.
}

// writeError answers with reply.Status and an error body in the dialect's shape.
func writeError(w http.ResponseWriter, d Dialect, reply Reply) {
	msg := reply.ErrorMessage
	if msg == "" {
		msg = http.StatusText(reply.Status)
	}
	var body any
	switch d {
	case Anthropic:
		body = map[string]any{"type": "error", "error": map[string]any{"type": anthropicErrorType(reply.Status), "message": msg}}
	case Gemini:
		body = map[string]any{"error": map[string]any{"code": reply.Status, "message": msg, "status": googleStatus(reply.Status)}}
	default:
		body = map[string]any{"error": map[string]any{"message": msg, "type": openAIErrorType(reply.Status), "code": nil, "param": nil}}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(reply.Status)
	_ = json.NewEncoder(w).Encode(body) // Best effort: the client may be gone.
}

func anthropicErrorType(status int) string {
	switch status {
	case 400:
		return "invalid_request_error"
	case 401:
		return "authentication_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 429:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	return "api_error"
}

func openAIErrorType(status int) string {
	switch status {
	case 400:
		return "invalid_request_error"
	case 401:
		return "invalid_api_key"
	case 429:
		return "rate_limit_exceeded"
	}
	return "server_error"
}

func googleStatus(status int) string {
	switch status {
	case 400:
		return "INVALID_ARGUMENT"
	case 401:
		return "UNAUTHENTICATED"
	case 403:
		return "PERMISSION_DENIED"
	case 404:
		return "NOT_FOUND"
	case 429:
		return "RESOURCE_EXHAUSTED"
	case 503:
		return "UNAVAILABLE"
	}
	return "INTERNAL"
}
