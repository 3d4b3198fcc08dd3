package fakemodel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Dialect names the API family a request was written in.
type Dialect string

// The dialects the server speaks.
const (
	Anthropic       Dialect = "anthropic"        // POST …/v1/messages
	OpenAIChat      Dialect = "openai-chat"      // POST …/chat/completions
	OpenAIResponses Dialect = "openai-responses" // POST …/responses
	Gemini          Dialect = "gemini"           // POST …:generateContent, …:streamGenerateContent
	Other           Dialect = "other"            // model lists, token counts, unknown paths
)

// Request is one HTTP request the server received, kept for assertions.
type Request struct {
	Dialect Dialect
	Method  string
	Path    string
	Query   string
	Header  http.Header
	Body    []byte
	// Agent is true when the request offered tools and so took a scripted
	// reply (or the exhausted reply).
	Agent bool
	// Reply is the index of the scripted reply used, -1 for aux, side,
	// exhausted and non-model requests.
	Reply int
	// Side is true when Script.Side answered the request.
	Side bool
	// At is when the request arrived.
	At time.Time
	// Usage is the usage the answer reported (zero for an error answer
	// and for non-model requests), in Anthropic's split; Usage.Wire(Dialect)
	// is what the client could learn of it.
	Usage Usage
}

// Contains reports whether the request body contains s, e.g. a tool output
// the CLI should have sent back to the model.
func (r Request) Contains(s string) bool { return bytes.Contains(r.Body, []byte(s)) }

// Server is a running fake model server on 127.0.0.1.
type Server struct {
	script Script
	ln     net.Listener
	srv    *http.Server
	done   chan struct{}

	mu       sync.Mutex
	next     int
	requests []Request
	changed  chan struct{} // closed and replaced on every new request
	ids      int
}

// New starts a server for script on a free loopback port. Close it when done.
func New(script Script) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("fakemodel: listen on 127.0.0.1: %w", err)
	}
	s := &Server{script: script, ln: ln, done: make(chan struct{}), changed: make(chan struct{})}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go func() { _ = s.srv.Serve(ln) }() // Returns ErrServerClosed on Close.
	return s, nil
}

// SetScript replaces the script, before the first request (a script that
// names paths of a sandbox made after the server).
func (s *Server) SetScript(script Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = script
	s.next = 0
}

// URL is the server's base URL, "http://127.0.0.1:PORT" (no trailing slash).
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// Close stops the server, ending stalled responses and open connections.
func (s *Server) Close() error {
	select {
	case <-s.done:
		return nil
	default:
		close(s.done)
	}
	return s.srv.Close()
}

// Requests returns a copy of every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// AgentRequests returns the requests that took a scripted reply.
func (s *Server) AgentRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Agent {
			out = append(out, r)
		}
	}
	return out
}

// WaitAgentRequests blocks until at least n agent requests arrived or ctx
// ends, and returns them.
func (s *Server) WaitAgentRequests(ctx context.Context, n int) ([]Request, error) {
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if got := s.AgentRequests(); len(got) >= n {
			return got, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return s.AgentRequests(), fmt.Errorf("fakemodel: waiting for %d agent requests: %w", n, ctx.Err())
		}
	}
}

// record stores a request and wakes waiters.
func (s *Server) record(r Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r)
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

// take picks the reply for a request: scripted for agent requests, aux
// otherwise. It returns the reply and its script index (-1 if none).
func (s *Server) take(req Request) (Reply, int) {
	if !req.Agent {
		if s.script.Aux != nil {
			return s.script.Aux(req), -1
		}
		return Reply{Text: "ok"}, -1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.script.Replies)
	switch {
	case s.next < n:
		s.next++
		return s.script.Replies[s.next-1], s.next - 1
	case s.script.RepeatLast && n > 0:
		return s.script.Replies[n-1], n - 1
	default:
		return Reply{Text: ExhaustedText}, -1
	}
}

// side asks the script's Side hook about a request that offers tools.
func (s *Server) side(req Request) (Reply, bool) {
	s.mu.Lock()
	hook := s.script.Side
	s.mu.Unlock()
	if hook == nil {
		return Reply{}, false
	}
	return hook(req)
}

// newID returns a fresh id with the given prefix, unique per server.
func (s *Server) newID(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids++
	return fmt.Sprintf("%s%d", prefix, s.ids)
}

// dialectOf classifies a request by its path.
func dialectOf(r *http.Request) Dialect {
	p := r.URL.Path
	switch {
	case r.Method != http.MethodPost:
		return Other
	case strings.HasSuffix(p, "/messages"):
		return Anthropic
	case strings.HasSuffix(p, "/chat/completions"):
		return OpenAIChat
	case strings.HasSuffix(p, "/responses"):
		return OpenAIResponses
	case strings.HasSuffix(p, ":generateContent"), strings.HasSuffix(p, ":streamGenerateContent"):
		return Gemini
	}
	return Other
}

// sideMarkers start the side requests CLIs make with tools offered that
// are not agent turns: Codex asks for a task title with apply_patch
// available. They get the Aux reply, so they never shift the script.
var sideMarkers = [][]byte{[]byte("Generate a concise, single-line task title")}

func sideRequest(body []byte) bool {
	for _, m := range sideMarkers {
		if bytes.Contains(body, m) {
			return true
		}
	}
	return false
}

// offersTools reports whether a JSON request body has a non-empty "tools".
func offersTools(body []byte) bool {
	var probe struct {
		Tools []json.RawMessage `json:"tools"`
	}
	return json.Unmarshal(body, &probe) == nil && len(probe.Tools) > 0
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "fakemodel: reading body: "+err.Error(), http.StatusBadRequest)
		return
	}
	req := Request{
		Dialect: dialectOf(r), Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
		Header: r.Header.Clone(), Body: body, Reply: -1, At: time.Now(),
	}
	if req.Dialect == Other {
		s.record(req)
		s.serveOther(w, r)
		return
	}
	req.Agent = offersTools(body) && !sideRequest(body)
	reply, idx := Reply{}, -1
	if req.Agent {
		reply, req.Side = s.side(req)
		req.Agent = !req.Side
	}
	if !req.Side {
		reply, idx = s.take(req)
	}
	req.Reply = idx
	failed := reply.Status != 0 && reply.Status != http.StatusOK
	if !failed {
		if req.Agent && reply.usage() == (Usage{}) {
			reply.InputTokens, reply.OutputTokens = DefaultUsage.Input, DefaultUsage.Output
			reply.CacheReadTokens, reply.CacheWriteTokens = DefaultUsage.CacheRead, DefaultUsage.CacheWrite
		}
		req.Usage = reply.usage()
	}
	s.record(req)
	if failed {
		writeError(w, req.Dialect, reply)
		return
	}
	st := &stream{w: w, req: r, done: s.done, model: modelOf(req)}
	switch req.Dialect {
	case Anthropic:
		s.anthropic(st, body, reply)
	case OpenAIChat:
		s.openAIChat(st, body, reply)
	case OpenAIResponses:
		s.openAIResponses(st, reply)
	case Gemini:
		s.gemini(st, r.URL.Path, reply)
	}
}

// serveOther answers model lists and token counts with small valid bodies
// and anything else with a JSON 404.
func (s *Server) serveOther(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	w.Header().Set("Content-Type", "application/json")
	switch {
	case strings.HasSuffix(p, "/count_tokens"):
		_, _ = io.WriteString(w, `{"input_tokens":10}`)
	case strings.HasSuffix(p, ":countTokens"):
		_, _ = io.WriteString(w, `{"totalTokens":10}`)
	case r.Method == http.MethodGet && strings.HasSuffix(p, "/models"):
		// One body that satisfies both the OpenAI and the Gemini list shapes.
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"fake-model","object":"model","created":0,"owned_by":"fakemodel"}],"models":[{"name":"models/fake-model"}]}`)
	default:
		w.WriteHeader(http.StatusNotFound)
		_, _ = fmt.Fprintf(w, `{"error":{"message":"fakemodel: no route for %s %s","code":404}}`, r.Method, p)
	}
}

// modelOf finds the model a request names, for echoing it back.
func modelOf(r Request) string {
	if r.Dialect == Gemini {
		if i := strings.Index(r.Path, "/models/"); i >= 0 {
			m := r.Path[i+len("/models/"):]
			if j := strings.IndexByte(m, ':'); j >= 0 {
				m = m[:j]
			}
			return m
		}
	}
	var probe struct {
		Model string `json:"model"`
	}
	if json.Unmarshal(r.Body, &probe) == nil && probe.Model != "" {
		return probe.Model
	}
	return "fake-model"
}

// errClientGone ends a stream whose client disconnected.
var errClientGone = errors.New("fakemodel: client gone")
