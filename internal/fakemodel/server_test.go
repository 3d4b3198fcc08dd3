package fakemodel

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// sseEvent is one decoded server-sent event.
type sseEvent struct{ Name, Data string }

func readSSE(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Data != "" {
				out = append(out, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			cur.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.Data = strings.TrimPrefix(line, "data: ")
		default:
			t.Fatalf("unexpected SSE line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// decoded is what a client reassembles from a streamed reply.
type decoded struct {
	Text  string
	Calls []string // "name args"
	Out   int      // output tokens
}

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}

func mustJSON(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("bad JSON %q: %v", s, err)
	}
}

func decodeAnthropic(t *testing.T, evs []sseEvent) decoded {
	var d decoded
	args := map[int]*strings.Builder{}
	names := map[int]string{}
	var order []int
	for _, e := range evs {
		var ev struct {
			Type         string                      `json:"type"`
			Index        int                         `json:"index"`
			ContentBlock struct{ Type, Name string } `json:"content_block"`
			Delta        struct {
				Type, Text  string
				PartialJSON string `json:"partial_json"`
			}
			Usage struct {
				OutputTokens int `json:"output_tokens"`
			}
		}
		mustJSON(t, e.Data, &ev)
		if e.Name != ev.Type {
			t.Errorf("event name %q != data type %q", e.Name, ev.Type)
		}
		switch ev.Type {
		case "content_block_start":
			if ev.ContentBlock.Type == "tool_use" {
				names[ev.Index] = ev.ContentBlock.Name
				args[ev.Index] = &strings.Builder{}
				order = append(order, ev.Index)
			}
		case "content_block_delta":
			d.Text += ev.Delta.Text
			if b := args[ev.Index]; b != nil {
				b.WriteString(ev.Delta.PartialJSON)
			}
		case "message_delta":
			d.Out = ev.Usage.OutputTokens
		}
	}
	for _, i := range order {
		d.Calls = append(d.Calls, names[i]+" "+args[i].String())
	}
	return d
}

func decodeChat(t *testing.T, evs []sseEvent) decoded {
	var d decoded
	if n := len(evs); n == 0 || evs[n-1].Data != "[DONE]" {
		t.Fatalf("chat stream does not end with [DONE]: %v", evs)
	}
	for _, e := range evs[:len(evs)-1] {
		var ev struct {
			Choices []struct {
				Delta struct {
					Content   string
					ToolCalls []struct {
						Function struct{ Name, Arguments string }
					} `json:"tool_calls"`
				}
			}
			Usage *struct {
				CompletionTokens int `json:"completion_tokens"`
			}
		}
		mustJSON(t, e.Data, &ev)
		for _, c := range ev.Choices {
			d.Text += c.Delta.Content
			for _, tc := range c.Delta.ToolCalls {
				d.Calls = append(d.Calls, tc.Function.Name+" "+tc.Function.Arguments)
			}
		}
		if ev.Usage != nil {
			d.Out = ev.Usage.CompletionTokens
		}
	}
	return d
}

func decodeResponses(t *testing.T, evs []sseEvent) decoded {
	var d decoded
	for _, e := range evs {
		var ev struct {
			Type, Delta string
			Item        struct{ Type, Name, Arguments string }
			Response    struct {
				Usage struct {
					OutputTokens int `json:"output_tokens"`
				}
			}
		}
		mustJSON(t, e.Data, &ev)
		switch ev.Type {
		case "response.output_text.delta":
			d.Text += ev.Delta
		case "response.output_item.done":
			if ev.Item.Type == "function_call" {
				d.Calls = append(d.Calls, ev.Item.Name+" "+ev.Item.Arguments)
			}
		case "response.completed":
			d.Out = ev.Response.Usage.OutputTokens
		}
	}
	return d
}

func decodeGemini(t *testing.T, evs []sseEvent) decoded {
	var d decoded
	for _, e := range evs {
		var ev struct {
			Candidates []struct {
				Content struct {
					Parts []struct {
						Text         string
						FunctionCall *struct {
							Name string
							Args json.RawMessage
						}
					}
				}
			}
			UsageMetadata struct{ CandidatesTokenCount int }
		}
		mustJSON(t, e.Data, &ev)
		for _, c := range ev.Candidates {
			for _, p := range c.Content.Parts {
				d.Text += p.Text
				if p.FunctionCall != nil {
					d.Calls = append(d.Calls, p.FunctionCall.Name+" "+string(p.FunctionCall.Args))
				}
			}
		}
		if n := ev.UsageMetadata.CandidatesTokenCount; n != 0 {
			d.Out = n
		}
	}
	return d
}

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
				{Text: "running it now", ToolCalls: []ToolCall{{Name: "bash", Args: map[string]string{"command": "echo hi"}}, {Name: "read", Args: map[string]string{"path": "a"}}}, OutputTokens: 7},
				{Text: "done: hi", OutputTokens: 3},
			}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			want := []decoded{
				{Text: "running it now", Calls: []string{`bash {"command":"echo hi"}`, `read {"path":"a"}`}, Out: 7},
				{Text: "done: hi", Out: 3},
			}
			for i, w := range want {
				resp := post(t, s.URL()+tc.path, tc.body)
				if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
					t.Fatalf("reply %d: Content-Type %q", i, ct)
				}
				got := tc.decode(t, readSSE(t, resp.Body))
				if got.Text != w.Text || strings.Join(got.Calls, "|") != strings.Join(w.Calls, "|") || got.Out != w.Out {
					t.Errorf("reply %d: got %+v, want %+v", i, got, w)
				}
			}
			reqs := s.Requests()
			if len(reqs) != 2 || reqs[0].Dialect != tc.dialect || !reqs[1].Agent || reqs[1].Reply != 1 {
				t.Errorf("recorded %+v", reqs)
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
