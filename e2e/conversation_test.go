package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// TestLiveConversation is a Yume chat of two messages, each its own
// yume-cli process as Yume starts them: the second with --resume and the
// session_id of the first init. The model must see turn 1 in turn 2's
// request, in the TUI (PTY) and in the provider's JSON mode.
func TestLiveConversation(t *testing.T) {
	live(t)
	forEachMode(t, func(t *testing.T, h *home, provider, mode string) {
		word := "pineapple-" + mode
		first := h.run(t, fakemodel.Script{Replies: []fakemodel.Reply{{Text: "Noted the word."}}}, gui{},
			"--mode", mode, "--prompt", "remember the word "+word)
		id := first.initSession()
		if f := first.final(); f == nil || f["is_error"] == true || id == "" {
			t.Fatalf("turn 1 failed (init session %q): %v\nstderr: %s", id, f, first.stderr)
		}
		before := len(h.srv.AgentRequests())
		// The same answer again: a resumed TUI shows turn 1's answer, which
		// must neither end turn 2 early nor keep it from ending.
		second := h.run(t, fakemodel.Script{Replies: []fakemodel.Reply{{Text: "Noted the word."}}}, gui{},
			"--mode", mode, "--resume", id, "--prompt", "which word did I ask you to remember?")
		if f := second.final(); f == nil || f["is_error"] == true {
			t.Fatalf("turn 2 failed: %v\nstderr: %s", f, second.stderr)
		}
		t.Logf("%s/%s: fresh turn %v, resumed turn %v (yume-cli's whole run, start to exit)", provider, mode,
			first.took.Round(time.Millisecond), second.took.Round(time.Millisecond))
		if strings.Contains(string(second.raw), "nothing ended the turn") {
			t.Errorf("turn 2 ended by the idle timeout, not by its own end")
		}
		if f := second.final(); f.str("result") != "Noted the word." {
			t.Errorf("turn 2's result %q", f.str("result"))
		}
		if got := second.initSession(); got != id {
			t.Errorf("turn 2's init session_id is %q, want turn 1's %q (Yume resumes by it)", got, id)
		}
		reqs := h.srv.AgentRequests()[before:]
		if len(reqs) == 0 {
			t.Fatal("turn 2 never reached the model")
		}
		last := reqs[len(reqs)-1]
		if !last.Contains(word) || !last.Contains("Noted the word.") {
			t.Errorf("turn 2's request to the model does not carry turn 1 (its prompt and answer)")
		}
		sess := h.storedSession(t, id)
		if sess.Handle == "" || sess.Provider != provider || len(sess.History) < 4 {
			t.Errorf("stored session: handle %q, provider %q, %d history entries; want a handle, %s, at least 4 entries",
				sess.Handle, sess.Provider, len(sess.History), provider)
		}
	})
}

// TestLiveResumeErrors: a --resume yume-cli cannot honour is an error
// that names the id, one error result and exit 1, and nothing is stored.
func TestLiveResumeErrors(t *testing.T) {
	live(t)
	h := newHome(t, "gemini")
	first := h.run(t, fakemodel.Script{Replies: []fakemodel.Reply{{Text: "Hi."}}}, gui{}, "--mode", "json", "--prompt", "hello")
	id := first.initSession()
	for _, c := range []struct {
		name, provider, resume, want string
	}{
		{"unknown id", "gemini", "sess-never-made", "no session sess-never-made"},
		{"another provider's", "codex", id, "belongs to gemini, not codex"},
	} {
		t.Run(c.name, func(t *testing.T) {
			hc := &home{provider: c.provider, sb: h.sb, srv: h.srv}
			r := hc.run(t, fakemodel.Script{Replies: []fakemodel.Reply{{Text: "never"}}}, gui{}, "--mode", "json", "--resume", c.resume, "--prompt", "again")
			f := r.final()
			if r.exit != 1 || f == nil || f["is_error"] != true || !strings.Contains(string(r.raw), c.want) {
				t.Errorf("exit %d, result %v; want exit 1 and an error saying %q", r.exit, f, c.want)
			}
		})
	}
	// Claude's own session gone (its transcript deleted): resuming it
	// would start a model with no memory, so it is an error instead.
	for _, mode := range []string{"pty", "json"} {
		t.Run("provider session gone/"+mode, func(t *testing.T) {
			hc := newHome(t, "claude")
			first := hc.run(t, fakemodel.Script{Replies: []fakemodel.Reply{{Text: "Hi."}}}, gui{}, "--mode", mode, "--prompt", "hello")
			id := first.initSession()
			handle := hc.storedSession(t, id).Handle
			removed := 0
			_ = filepath.WalkDir(hc.sb.Home, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && d.Name() == handle+".jsonl" && os.Remove(p) == nil {
					removed++
				}
				return nil
			})
			if removed == 0 {
				t.Fatalf("no Claude transcript %s.jsonl to remove", handle)
			}
			r := hc.run(t, fakemodel.Script{Replies: []fakemodel.Reply{{Text: "never"}}}, gui{}, "--mode", mode, "--resume", id, "--prompt", "again")
			if f := r.final(); r.exit != 1 || f == nil || f["is_error"] != true || !strings.Contains(string(r.raw), "is gone") {
				t.Errorf("exit %d, result %v; want exit 1 and an error saying the session is gone", r.exit, f)
			}
		})
	}
	entries, _ := os.ReadDir(filepath.Join(h.sb.Home, ".yume", "sessions", "codex"))
	if len(entries) != 0 {
		t.Errorf("a refused --resume stored %d session file(s)", len(entries))
	}
}

// initSession is the session_id of the run's system/init line.
func (r *run) initSession() string {
	for _, e := range r.events {
		if e.str("type") == "system" && e.str("subtype") == "init" {
			return e.str("session_id")
		}
	}
	return ""
}

// storedSession reads the session file yume-cli wrote for id.
func (h *home) storedSession(t *testing.T, id string) (s struct {
	Provider string            `json:"provider"`
	Handle   string            `json:"handle"`
	History  []json.RawMessage `json:"history"`
}) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(h.sb.Home, ".yume", "sessions", h.provider, id+".json"))
	if err != nil {
		t.Fatalf("the session store has no file for %s: %v", id, err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("session file for %s: %v", id, err)
	}
	return s
}

// TestLiveHistoryFile: a conversation Yume hands over (--history-file)
// reaches a provider session that never saw it, as context before the
// prompt, in the TUI and in the JSON mode.
func TestLiveHistoryFile(t *testing.T) {
	live(t)
	forEachMode(t, func(t *testing.T, h *home, provider, mode string) {
		word := "mango-" + provider + "-" + mode
		hist := filepath.Join(t.TempDir(), "history.json")
		b, _ := json.Marshal([]map[string]any{
			{"role": "user", "text": "remember the word " + word},
			{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "Noted the word."}}},
		})
		if err := os.WriteFile(hist, b, 0o600); err != nil {
			t.Fatal(err)
		}
		r := h.run(t, fakemodel.Script{Replies: []fakemodel.Reply{{Text: "It was " + word + "."}}}, gui{},
			"--mode", mode, "--history-file", hist, "--prompt", "which word?")
		if f := r.final(); f == nil || f["is_error"] == true {
			t.Fatalf("turn failed: %v\nstderr: %s", f, r.stderr)
		}
		reqs := h.srv.AgentRequests()
		if len(reqs) == 0 || !reqs[len(reqs)-1].Contains(word) || !reqs[len(reqs)-1].Contains("Noted the word.") {
			t.Errorf("the model's request does not carry the handed-over history")
		}
		if sess := h.storedSession(t, r.initSession()); len(sess.History) < 4 {
			t.Errorf("stored history has %d entries; want the 2 handed over plus this turn's", len(sess.History))
		}
	})
}

// TestLiveAPIBase: --api-base points the CLI at another endpoint, in the
// TUI and in JSON mode (Claude and Gemini take it from the variable the
// sandbox also uses, so the sandbox's own server must see nothing).
func TestLiveAPIBase(t *testing.T) {
	live(t)
	for pi, provider := range []string{"claude", "gemini"} {
		for mi, mode := range []string{"pty", "json"} {
			t.Run(provider+"/"+mode, func(t *testing.T) {
				cell(t, pi, 2, mi, 2)
				h := newHome(t, provider)
				other, err := fakemodel.New(fakemodel.Script{Replies: []fakemodel.Reply{{Text: "From the other endpoint."}}})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = other.Close() })
				r := h.run(t, fakemodel.Script{Replies: []fakemodel.Reply{{Text: "From the sandbox's endpoint."}}}, gui{},
					"--mode", mode, "--api-base", other.URL(), "--prompt", "hello")
				if f := r.final(); f == nil || f["is_error"] == true || f.str("result") != "From the other endpoint." {
					t.Errorf("result %v; want the other endpoint's answer", f)
				}
				if n := len(h.srv.AgentRequests()); n != 0 {
					t.Errorf("the sandbox's endpoint got %d agent requests", n)
				}
			})
		}
	}
}

// TestLiveResumeAfterKill: Yume's spawner ends yume-cli with SIGKILL. A
// turn killed while the model answers still leaves a session that the
// next message resumes, and the model sees the killed turn's prompt.
func TestLiveResumeAfterKill(t *testing.T) {
	live(t)
	forEachMode(t, func(t *testing.T, h *home, provider, mode string) {
		word := "plum-" + provider + "-" + mode
		h.srv.SetScript(fakemodel.Script{Replies: []fakemodel.Reply{{Text: "Thinking about it.", Stall: true}}})
		s := startSession(t, h, "--session-id", "killed-"+mode, "--mode", mode, "--prompt", "remember the word "+word)
		ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
		_, err := h.srv.WaitAgentRequests(ctx, 1)
		cancel()
		if err != nil {
			t.Fatalf("turn 1 never reached the model: %v", err)
		}
		// Codex names its session in its transcript, which yume-cli
		// reads every 200 ms: kill once the store has it.
		stored := filepath.Join(h.sb.Home, ".yume", "sessions", provider, "killed-"+mode+".json")
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) { // Polling: the store file is the signal.
			if b, _ := os.ReadFile(stored); strings.Contains(string(b), `"handle"`) {
				break
			}
		}
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
		for deadline := time.Now().Add(10 * time.Second); len(leftovers(h.sb.Home)) > 0 && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond) // Polling: the watchdog ends the provider after yume-cli.
		}
		if left := leftovers(h.sb.Home); len(left) > 0 {
			t.Fatalf("processes outlived a SIGKILLed yume-cli: %v", left)
		}
		before := len(h.srv.AgentRequests())
		r := h.run(t, fakemodel.Script{Replies: []fakemodel.Reply{{Text: "It was " + word + "."}}}, gui{},
			"--mode", mode, "--resume", "killed-"+mode, "--prompt", "which word did I ask you to remember?")
		if f := r.final(); f == nil || f["is_error"] == true {
			t.Fatalf("the resumed turn failed: %v\nstderr: %s", f, r.stderr)
		}
		reqs := h.srv.AgentRequests()[before:]
		if len(reqs) == 0 || !reqs[len(reqs)-1].Contains(word) {
			t.Errorf("the resumed turn's request does not carry the killed turn's prompt")
		}
	})
}

// forEachMode runs f in a home of its own for each CLI, in its TUI and
// in its JSON mode.
func forEachMode(t *testing.T, f func(t *testing.T, h *home, provider, mode string)) {
	for pi, provider := range providers {
		for mi, mode := range []string{"pty", "json"} {
			t.Run(provider+"/"+mode, func(t *testing.T) {
				cell(t, pi, len(providers), mi, 2)
				f(t, newHome(t, provider), provider, mode)
			})
		}
	}
}
