package fakemodel

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
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
	Use   Usage    // the usage reported, in Anthropic's split
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
			Usage   wireUsage
			Message struct{ Usage wireUsage }
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
		case "message_start":
			u := ev.Message.Usage
			d.Use = Usage{Input: u.InputTokens, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite}
		case "message_delta":
			d.Out = ev.Usage.OutputTokens
			d.Use.Output = ev.Usage.OutputTokens
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
				PromptTokens        int `json:"prompt_tokens"`
				CompletionTokens    int `json:"completion_tokens"`
				PromptTokensDetails struct {
					CachedTokens int `json:"cached_tokens"`
				} `json:"prompt_tokens_details"`
			}
		}
		mustJSON(t, e.Data, &ev)
		for _, c := range ev.Choices {
			d.Text += c.Delta.Content
			for _, tc := range c.Delta.ToolCalls {
				d.Calls = append(d.Calls, tc.Function.Name+" "+tc.Function.Arguments)
			}
		}
		if u := ev.Usage; u != nil {
			d.Out = u.CompletionTokens
			cached := u.PromptTokensDetails.CachedTokens
			d.Use = Usage{Input: u.PromptTokens - cached, Output: u.CompletionTokens, CacheRead: cached}
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
					InputTokens        int `json:"input_tokens"`
					OutputTokens       int `json:"output_tokens"`
					InputTokensDetails struct {
						CachedTokens int `json:"cached_tokens"`
					} `json:"input_tokens_details"`
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
			u := ev.Response.Usage
			d.Out = u.OutputTokens
			cached := u.InputTokensDetails.CachedTokens
			d.Use = Usage{Input: u.InputTokens - cached, Output: u.OutputTokens, CacheRead: cached}
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
			UsageMetadata struct{ PromptTokenCount, CandidatesTokenCount, CachedContentTokenCount int }
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
		if u := ev.UsageMetadata; u.CandidatesTokenCount != 0 {
			d.Out = u.CandidatesTokenCount
			d.Use = Usage{Input: u.PromptTokenCount - u.CachedContentTokenCount, Output: u.CandidatesTokenCount, CacheRead: u.CachedContentTokenCount}
		}
	}
	return d
}

// wireUsage is Anthropic's usage object.
type wireUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	CacheRead    int `json:"cache_read_input_tokens"`
	CacheWrite   int `json:"cache_creation_input_tokens"`
}
