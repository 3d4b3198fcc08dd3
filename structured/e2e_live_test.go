package structured

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/internal/fakemodel/offline"
)

func TestLive(t *testing.T) {
	yes, no := true, false
	type tc struct {
		provider, mode, perm string
		approve              *bool
		wantRan              bool
	}
	cases := []tc{
		{"claude", "json", "auto", nil, true},
		// No approval channel: yume-cli's guard answers Claude's
		// permission prompt, and approves what it does not block.
		{"claude", "json", "default", nil, true},
		{"claude", "json", "default", &yes, true},
		{"claude", "json", "default", &no, false},
		{"gemini", "json", "auto", nil, true},
		{"gemini", "json", "default", nil, false},
		{"codex", "json", "auto", nil, true},
		{"codex", "json", "deny", nil, false},
		{"copilot", "json", "auto", nil, true},
		{"copilot", "json", "default", nil, false},
		{"gemini", "acp", "default", &yes, true},
		{"gemini", "acp", "default", &no, false},
		{"copilot", "acp", "default", &yes, true},
		{"copilot", "acp", "default", &no, false},
	}
	for _, c := range cases {
		name := c.provider + "/" + c.mode + "/" + c.perm
		if c.approve != nil {
			name += map[bool]string{true: "/gui-approves", false: "/gui-denies"}[*c.approve]
		}
		t.Run(name, func(t *testing.T) {
			lv := &live{provider: c.provider, mode: c.mode, perm: c.perm, approve: c.approve, replies: []fakemodel.Reply{
				{Text: "Creating it.", ToolCalls: []fakemodel.ToolCall{shellCall(c.provider, "touch made-by-tool.txt && echo created")}, InputTokens: 20, OutputTokens: 9},
				{Text: "All done.", InputTokens: 40, OutputTokens: 6},
			}}
			lv.run(t)
			if lv.err != nil {
				t.Fatalf("Run: %v", lv.err)
			}
			_, statErr := os.Stat(filepath.Join(lv.sandbox.Workspace, "made-by-tool.txt"))
			if ran := statErr == nil; ran != c.wantRan {
				t.Errorf("command ran = %v, want %v", ran, c.wantRan)
			}
			res := finalResult(t, lv.out)
			// Copilot's ACP server ends the turn itself after a rejection.
			if res["is_error"] != false || (c.wantRan && !strings.Contains(res["result"].(string), "All done.")) {
				t.Errorf("result %v", res)
			}
			// Claude's tool_use is out before it asks: the guard's
			// answer follows it as a notice.
			if c.provider == "claude" && c.perm == "default" && c.approve == nil &&
				!bytes.Contains(lv.out, []byte(`"approved by yume-cli's guard (no approval channel): touch made-by-tool.txt`)) {
				t.Errorf("the guard's approval is not reported:\n%s", lv.out)
			}
			if n := len(lv.server.AgentRequests()); c.wantRan && n < 2 {
				t.Errorf("the model got %d requests; want the tool output sent back", n)
			}
			denials, _ := res["permission_denials"].([]any)
			trs := toolResults(t, lv.out)
			switch {
			case c.wantRan && c.provider == "gemini" && c.mode == "acp":
				// Gemini's ACP server does not send shell output to the client.
				if len(trs) == 0 || trs[0]["is_error"] != false || len(denials) != 0 {
					t.Errorf("approved run: tool results %v, denials %v", trs, denials)
				}
			case c.wantRan:
				if len(trs) == 0 || !strings.Contains(trs[0]["content"].(string), "created") || len(denials) != 0 {
					t.Errorf("approved run: tool results %v, denials %v", trs, denials)
				}
			case c.provider == "codex":
				// codex exec cannot ask: a read-only sandbox is all we get.
			default:
				if len(denials) != 1 || len(trs) == 0 || trs[0]["is_error"] != true {
					t.Errorf("denied run: tool results %v, denials %v", trs, denials)
				}
			}
		})
	}
}

// TestLiveErrors checks that an API failure (HTTP 401) of every provider
// ends as a system error and an error result.
func TestLiveErrors(t *testing.T) {
	for _, provider := range []string{"claude", "codex", "copilot", "gemini"} {
		t.Run(provider, func(t *testing.T) {
			lv := &live{provider: provider, mode: "json", perm: "auto", repeatLast: true,
				replies: []fakemodel.Reply{{Status: 401, ErrorMessage: "invalid x-api-key"}}}
			lv.run(t)
			if lv.err != nil {
				t.Fatalf("Run: %v", lv.err)
			}
			res := finalResult(t, lv.out)
			errs, _ := res["errors"].([]any)
			if res["is_error"] != true || len(errs) == 0 || !bytes.Contains(lv.out, []byte(`"subtype":"error"`)) {
				t.Errorf("result %v", res)
			}
		})
	}
}

// TestLiveInterrupt cancels each provider while the model is answering and
// checks for the interrupt line, an error result and no leftover process.
func TestLiveInterrupt(t *testing.T) {
	for _, c := range []struct{ provider, mode string }{
		{"claude", "json"}, {"codex", "json"}, {"copilot", "json"}, {"gemini", "json"}, {"gemini", "acp"}, {"copilot", "acp"},
	} {
		t.Run(c.provider+"/"+c.mode, func(t *testing.T) {
			lv := &live{provider: c.provider, mode: c.mode, perm: "auto", interruptAfter: 1,
				replies: []fakemodel.Reply{{Text: "thinking very hard about it", Stall: true}}}
			start := time.Now()
			lv.run(t)
			if lv.err != nil {
				t.Fatalf("Run: %v", lv.err)
			}
			res := finalResult(t, lv.out)
			if res["is_error"] != true || !bytes.Contains(lv.out, []byte(`{"type":"interrupt"`)) {
				t.Errorf("result %v", res)
			}
			t.Logf("interrupted run took %v", time.Since(start))
		})
	}
}

// TestLiveResume runs two turns, the second resuming the provider session
// the first one announced, and checks the model saw the first turn again.
// Not gemini/acp: Gemini 0.61's session/load finds no resumable session
// for sessions its own ACP server created ("No previous sessions found");
// gemini/auto runs the first turn over ACP and resumes in json mode.
func TestLiveResume(t *testing.T) {
	for _, c := range []struct{ provider, mode string }{
		{"claude", "json"}, {"codex", "json"}, {"copilot", "json"}, {"gemini", "json"}, {"copilot", "acp"}, {"gemini", "auto"},
	} {
		t.Run(c.provider+"/"+c.mode, func(t *testing.T) {
			bin, dir := e2eBin(t, c.provider)
			srv, err := fakemodel.New(fakemodel.Script{Replies: []fakemodel.Reply{{Text: "first answer"}, {Text: "second answer"}}})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			sb, err := offline.Setup(c.provider, t.TempDir(), srv.URL(), dir)
			if err != nil {
				t.Fatal(err)
			}
			session, handle := "", ""
			for i, prompt := range []string{"remember the word pineapple", "which word?"} {
				var out, stderr bytes.Buffer
				w := emit.NewWriter(&out, emit.Config{Model: sb.Model, Cwd: sb.Workspace})
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				err := Run(ctx, Options{Provider: prov(c.provider), Mode: c.mode, Bin: bin, Model: sb.Model, Cwd: sb.Workspace,
					Prompt: prompt, Resume: session, PermissionMode: "auto", Stderr: &stderr, Env: sb.Env,
					OnSession: func(id string) { handle = id }}, w)
				cancel()
				if err != nil {
					t.Fatalf("turn %d: %v\n%s", i, err, stderr.String())
				}
				for _, e := range emittest.Validate(out.Bytes()) {
					t.Errorf("turn %d conformance: %v", i, e)
				}
				res := finalResult(t, out.Bytes())
				if res["is_error"] != false {
					t.Fatalf("turn %d: %v\nstderr: %s", i, res, stderr.String())
				}
				if handle == "" {
					t.Fatalf("turn %d: the provider's own session id was never heard (OnSession)", i)
				}
				session = handle // the provider's handle resumes it; the init's id is yume-cli's own
			}
			reqs := srv.AgentRequests()
			if len(reqs) < 2 || !reqs[len(reqs)-1].Contains("pineapple") || !reqs[len(reqs)-1].Contains("first answer") {
				t.Errorf("the resumed turn did not carry the first one (%d requests)", len(reqs))
			}
			assertNoLeftovers(t, sb.Home)
		})
	}
}
