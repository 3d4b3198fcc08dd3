package fakemodel

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestStreamingDialects(t *testing.T) {
	tools := `"tools":[{"name":"x"}]`
	cases := []struct {
		dialect Dialect
		path    string
		body    string
		decode  func(*testing.T, []sseEvent) decoded
	}{
		{Anthropic, "/v1/messages", `{"model":"claude-x","stream":true,` + tools + `}`, decodeAnthropic},
		{OpenAIChat, "/v1/chat/completions", `{"model":"gpt-x","stream":true,` + tools + `}`, decodeChat},
		{OpenAIResponses, "/v1/responses", `{"model":"gpt-x","stream":true,` + tools + `}`, decodeResponses},
		{Gemini, "/v1beta/models/gemini-x:streamGenerateContent?alt=sse", `{` + tools + `}`, decodeGemini},
	}
	for _, tc := range cases {
		t.Run(string(tc.dialect), func(t *testing.T) {
			s, err := New(Script{Replies: []Reply{
				{Text: "running it now", ToolCalls: []ToolCall{{Name: "bash", Args: map[string]string{"command": "echo hi"}}, {Name: "read", Args: map[string]string{"path": "a"}}},
					InputTokens: 11, OutputTokens: 7, CacheReadTokens: 300, CacheWriteTokens: 20},
				{Text: "done: hi"}, // no usage named: DefaultUsage
			}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			first := Usage{Input: 11, Output: 7, CacheRead: 300, CacheWrite: 20}
			want := []decoded{
				{Text: "running it now", Calls: []string{`bash {"command":"echo hi"}`, `read {"path":"a"}`}, Out: 7, Use: first.Wire(tc.dialect)},
				{Text: "done: hi", Out: DefaultUsage.Output, Use: DefaultUsage.Wire(tc.dialect)},
			}
			for i, w := range want {
				resp := post(t, s.URL()+tc.path, tc.body)
				if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
					t.Fatalf("reply %d: Content-Type %q", i, ct)
				}
				got := tc.decode(t, readSSE(t, resp.Body))
				if got.Text != w.Text || strings.Join(got.Calls, "|") != strings.Join(w.Calls, "|") || got.Out != w.Out || got.Use != w.Use {
					t.Errorf("reply %d: got %+v, want %+v", i, got, w)
				}
			}
			reqs := s.Requests()
			if len(reqs) != 2 || reqs[0].Dialect != tc.dialect || !reqs[1].Agent || reqs[1].Reply != 1 {
				t.Errorf("recorded %+v", reqs)
			}
			if len(reqs) == 2 && (reqs[0].Usage != first || reqs[1].Usage != DefaultUsage) {
				t.Errorf("recorded usage %+v and %+v, want %+v and %+v", reqs[0].Usage, reqs[1].Usage, first, DefaultUsage)
			}
		})
	}
}

func TestNonStreamingReplies(t *testing.T) {
	cases := []struct {
		path, body, want string
	}{
		{"/v1/messages", `{"model":"m"}`, `"text":"ok"`},
		{"/v1/chat/completions", `{"model":"m"}`, `"content":"ok"`},
		{"/v1beta/models/g:generateContent", `{}`, `"text":"ok"`},
		{"/v1beta/models/g:streamGenerateContent", `{}`, `"text":"ok"`},
		{"/v1/messages/count_tokens", `{}`, `"input_tokens":10`},
		{"/v1beta/models/g:countTokens", `{}`, `"totalTokens":10`},
	}
	s, err := New(Script{Replies: []Reply{{Text: "scripted"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tc := range cases {
		b, _ := io.ReadAll(post(t, s.URL()+tc.path, tc.body).Body)
		if !strings.Contains(string(b), tc.want) {
			t.Errorf("%s: body %s lacks %s", tc.path, b, tc.want)
		}
	}
	if n := len(s.AgentRequests()); n != 0 {
		t.Errorf("requests without tools took %d scripted replies", n)
	}
}

func TestErrorReplies(t *testing.T) {
	cases := []struct {
		path string
		want string
	}{
		{"/v1/messages", `"type":"authentication_error"`},
		{"/v1/chat/completions", `"type":"invalid_api_key"`},
		{"/v1/responses", `"type":"invalid_api_key"`},
		{"/v1beta/models/g:streamGenerateContent?alt=sse", `"status":"UNAUTHENTICATED"`},
	}
	for _, tc := range cases {
		s, err := New(Script{Replies: []Reply{{Status: 401, ErrorMessage: "bad key"}}, RepeatLast: true})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // RepeatLast serves the error again.
			resp := post(t, s.URL()+tc.path, `{"tools":[{}]}`)
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 401 || !strings.Contains(string(b), tc.want) || !strings.Contains(string(b), "bad key") {
				t.Errorf("%s: %d %s", tc.path, resp.StatusCode, b)
			}
		}
		_ = s.Close()
	}
}

func TestExhaustedAndAux(t *testing.T) {
	s, err := New(Script{
		Replies: []Reply{{Text: "one"}},
		Aux:     func(Request) Reply { return Reply{Text: "side"} },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var texts []string
	for _, body := range []string{`{"stream":true,"tools":[{}]}`, `{"stream":true}`, `{"stream":true,"tools":[{}]}`} {
		texts = append(texts, decodeAnthropic(t, readSSE(t, post(t, s.URL()+"/v1/messages", body).Body)).Text)
	}
	if got := strings.Join(texts, "|"); got != "one|side|"+ExhaustedText {
		t.Errorf("texts %q", got)
	}
}

func TestStallEndsWhenClientLeaves(t *testing.T) {
	s, err := New(Script{Replies: []Reply{{Text: "thinking hard", Stall: true}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/v1/chat/completions", strings.NewReader(`{"stream":true,"tools":[{}]}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// The text arrives before the stall; then the stream stays open.
	br := bufio.NewReader(resp.Body)
	var seen string
	for !strings.Contains(seen, "hard") {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended before the stall: %v (%q)", err, seen)
		}
		seen += line
	}
	cancel()
	if _, err := io.ReadAll(br); err == nil {
		t.Error("stalled stream ended cleanly; want a cancelled read")
	}
}

func TestWaitAgentRequestsAndClose(t *testing.T) {
	s, err := New(Script{Replies: []Reply{{Text: "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") {
		t.Fatalf("URL %q is not loopback", s.URL())
	}
	go func() {
		_, _ = http.Post(s.URL()+"/v1/messages", "application/json", strings.NewReader(`{"tools":[{}]}`))
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got, err := s.WaitAgentRequests(ctx, 1)
	if err != nil || len(got) != 1 || !got[0].Contains(`"tools"`) {
		t.Fatalf("WaitAgentRequests: %v %+v", err, got)
	}
	short, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	if _, err := s.WaitAgentRequests(short, 2); err == nil {
		t.Error("WaitAgentRequests(2) succeeded with one request")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := http.Post(s.URL()+"/v1/messages", "application/json", strings.NewReader(`{}`)); err == nil {
		t.Error("server still answers after Close")
	}
}
