package e2e

import (
	"fmt"
	"slices"
	"testing"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// usageModes are the modes each CLI is driven in by name.
var usageModes = map[string][]string{
	"claude": {"pty", "json"}, "codex": {"pty", "json"}, "gemini": {"pty", "json", "acp"}, "copilot": {"pty", "json", "acp"},
	"opencode": {"pty", "json", "acp"}, "kilo": {"pty", "json", "acp"}, "qwen": {"pty", "json", "acp"},
}

// lastRequestOnly are the modes whose CLI reports the turn's last model
// request as its usage, not the sum of its requests (opencode's and
// Kilo's ACP prompt response).
var lastRequestOnly = map[string]bool{"opencode/acp": true, "kilo/acp": true}

// TestLiveUsage: the fake model reports its usage as each real API does
// (cache reads, and Anthropic's cache writes) for a turn of two requests,
// a shell call and the answer. In every mode of every CLI the result's
// usage is what the model reported, in Claude's split (input without the
// cache's tokens): from the stream, or in the PTY from the CLI's
// transcript. No result and no assistant message carries a usage of input
// and output both 0.
func TestLiveUsage(t *testing.T) {
	live(t)
	first := fakemodel.Reply{Text: "Running it.", InputTokens: 101, OutputTokens: 11, CacheReadTokens: 1001, CacheWriteTokens: 201}
	answer := fakemodel.Reply{Text: "Done: it said hi.", InputTokens: 102, OutputTokens: 12, CacheReadTokens: 1002, CacheWriteTokens: 202}
	for _, provider := range append(slices.Clone(providers), agents...) {
		for _, mode := range usageModes[provider] {
			t.Run(provider+"/"+mode, func(t *testing.T) {
				twinSkip(t, provider)
				cliPath(t, provider)
				t.Parallel()
				call := shellCall(provider, "echo hi", "say hi")
				if provider == "codex" {
					call = fakemodel.ToolCall{Name: "exec_command", Args: map[string]string{"cmd": "echo hi"}} // in its sandbox: no question
				}
				one := first
				one.ToolCalls = []fakemodel.ToolCall{call}
				flags := []string{"--mode", mode, "--prompt", "run it"}
				if mode == "json" && slices.Contains(agents, provider) {
					flags = append(flags, "--permission-mode", "auto") // their JSON modes cannot ask
				}
				r := runYume(t, provider, fakemodel.Script{Replies: []fakemodel.Reply{one, answer}}, gui{answer: func(int) bool { return true }}, flags...)
				res := r.final()
				if res == nil || res["is_error"] == true {
					t.Fatalf("result %v, want a success", res)
				}
				var want fakemodel.Usage
				reqs := r.srv.AgentRequests()
				for i, q := range reqs {
					if lastRequestOnly[provider+"/"+mode] && i < len(reqs)-1 {
						continue
					}
					want = want.Add(q.Usage.Wire(q.Dialect))
				}
				got, _ := res["usage"].(map[string]any)
				wantJSON := map[string]any{"input_tokens": float64(want.Input), "output_tokens": float64(want.Output),
					"cache_read_input_tokens": float64(want.CacheRead), "cache_creation_input_tokens": float64(want.CacheWrite)}
				if fmt.Sprint(got) != fmt.Sprint(wantJSON) {
					t.Errorf("result usage %v, want %v (the model reported %d requests)", got, wantJSON, len(reqs))
				}
				for _, e := range r.events {
					msg, _ := e["message"].(map[string]any)
					if u, ok := msg["usage"].(map[string]any); ok && e.str("type") == "assistant" && u["input_tokens"] == 0.0 && u["output_tokens"] == 0.0 {
						t.Errorf("an assistant message with zero usage: %v", e)
					}
				}
				t.Logf("%s %s: usage %v over %d requests", provider, mode, got, len(reqs))
			})
		}
	}
}
