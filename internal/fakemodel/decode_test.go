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
