package e2e

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/internal/fakemodel/offline"
	prov "github.com/yume-cli/yume-cli/providers"
)

// Yume starts yume-cli as one process per message, from an app whose
// environment is launchd's: PATH /usr/bin:/bin, HOME, nothing a shell
// profile exports; stdin /dev/null; no permission flag. These tests start
// it exactly so, with each CLI installed the way nvm installs it (under a
// Node-version folder of HOME, with its node) and its offline setup in
// HOME: the settings file's variables (~/.yume/settings.yaml), and the
// CLI's own config files.

// What some checks wait for: a branch not merged yet. A check that waits
// and fails skips, naming it; one that passes says the wait can go.
// Merging the branch empties these, and the checks are strict.
const (
	awaitUsage  = ""
	awaitErrors = ""
)

// verdict holds a case's checks: now fails the test; soon is a check of
// its own (a subtest) that may wait for a branch.
type verdict struct{ t *testing.T }

func (v *verdict) now(ok bool, format string, a ...any) {
	v.t.Helper()
	if !ok {
		v.t.Errorf(format, a...)
	}
}

// soon is the check called name, which waits for awaits ("" = for
// nothing): failing, it skips naming what it waits for; passing while it
// waits, it says the wait can go.
func (v *verdict) soon(name, awaits string, ok bool, format string, a ...any) {
	v.t.Run(name, func(t *testing.T) {
		switch {
		case ok && awaits != "":
			t.Logf("passes, while it waits for %s: the wait can go", awaits)
		case ok:
		case awaits == "":
			t.Errorf(format, a...)
		default:
			t.Skipf("waits for %s: %s", awaits, fmt.Sprintf(format, a...))
		}
	})
}

// asYumeCase is one thing a Yume user does with a provider.
type asYumeCase struct {
	name     string
	parallel bool
	run      func(v *verdict, h *yumeHome)
}

// TestLiveAsYume starts every provider exactly as Yume starts it (see
// yumeHome.turn), with the CLI installed under nvm and launchd's PATH:
// it is found; an ordinary command runs, approved by the guard (nobody
// else can answer); a guarded one (rm -rf) does not run, and is reported
// (a tool_result naming the rule, a system error Yume shows, a permission
// denial); a second message (--resume) reaches the model with the first;
// with no node on PATH (a Mac's /usr/bin has none) a Node CLI runs with
// the node beside it; a CLI not installed, and a key only ~/.zshrc
// exports, are errors Yume shows that say what to do. A result's usage,
// and model errors (401, 429, 500) shown within 2 s, are checked as far
// as main has them; the rest waits for branch usage (awaitUsage,
// awaitErrors).
func TestLiveAsYume(t *testing.T) {
	live(t)
	for pi, provider := range offline.Providers {
		for ci, c := range asYumeCases {
			t.Run(provider+"/"+c.name, func(t *testing.T) {
				if ci >= 2 { // ordinary and guarded: every CLI, short suite or not
					cell(t, pi, len(offline.Providers), ci-2, len(asYumeCases)-2)
					twinSkip(t, provider)
				}
				if c.parallel {
					t.Parallel()
				}
				c.run(&verdict{t: t}, newYumeHome(t, provider))
			})
		}
	}
}

// ordinaryCommand writes a file and prints: it runs where the guard
// approves it.
const ordinaryCommand = "printf 'alpha\\nbeta\\n' > made.txt && echo wrote made.txt && seq 1 5"

// guardedCommand is one the guard blocks (rule recursive-delete).
const guardedCommand = "rm -rf victim"

var asYumeCases = []asYumeCase{
	{name: "ordinary", run: func(v *verdict, h *yumeHome) {
		r := h.turn(v.t, oneCall(h.provider, ordinaryCommand), "", "make the file")
		checkOrdinary(v, h, r)
		// The fake model reports usage as each API does: the result carries
		// it (TestLiveUsage checks it equals what was reported), never
		// 0/0, which Yume takes for a compaction.
		u, _ := r.final()["usage"].(map[string]any)
		v.soon("usage", awaitUsage, u != nil && (u["input_tokens"] != 0.0 || u["output_tokens"] != 0.0),
			"the result's usage is %v: want the tokens the model reported", u)
	}},
	{name: "guarded", run: func(v *verdict, h *yumeHome) {
		must(v.t, os.Mkdir(filepath.Join(h.sb.Workspace, "victim"), 0o755))
		r := h.turn(v.t, oneCall(h.provider, guardedCommand), "", "clean up")
		_, err := os.Stat(filepath.Join(h.sb.Workspace, "victim"))
		v.now(err == nil, "the guarded command ran: victim is gone")
		u := r.use(v.t, guardedCommand)
		if u == nil {
			return
		}
		res, ok := r.results[u.ID]
		v.now(ok && res.IsError && strings.Contains(res.Content, "Blocked by yume-cli's guard (rule recursive-delete"),
			"tool_result %+v (reported %v), want an error naming the rule", res, ok)
		msgs, _ := r.visible()
		v.now(slices.ContainsFunc(msgs, func(e event) bool {
			return strings.Contains(e.str("message"), "yume-cli guard blocked "+guardedCommand+" (rule recursive-delete")
		}), "no system error Yume shows names the command and the rule: %v", msgs)
		denials, _ := r.final()["permission_denials"].([]any)
		v.now(len(denials) == 1, "permission_denials %v, want the blocked call", denials)
	}},
	{name: "resume", run: func(v *verdict, h *yumeHome) {
		word := "pineapple-" + h.provider
		first := h.turn(v.t, fakemodel.Script{Replies: []fakemodel.Reply{{Text: "Noted the word."}}}, "", "remember the word "+word)
		id := first.initSession()
		if f := first.final(); f == nil || f["is_error"] == true || id == "" {
			v.t.Fatalf("turn 1 failed (init session %q): %v", id, f)
		}
		before := len(h.srv.AgentRequests())
		second := h.turn(v.t, fakemodel.Script{Replies: []fakemodel.Reply{{Text: "The word was " + word + "."}}}, id,
			"which word did I ask you to remember?")
		f := second.final()
		v.now(f != nil && f["is_error"] != true && second.exit == 0, "turn 2 failed: %v", f)
		v.now(second.initSession() == id, "turn 2's init session_id %q, want turn 1's %q", second.initSession(), id)
		reqs := h.srv.AgentRequests()[before:]
		v.now(len(reqs) > 0 && reqs[len(reqs)-1].Contains(word) && reqs[len(reqs)-1].Contains("Noted the word."),
			"turn 2's request to the model does not carry turn 1 (%d requests)", len(reqs))
	}},
	{name: "no-node-in-PATH", run: func(v *verdict, h *yumeHome) {
		if !runsWithNode(h) {
			v.t.Skipf("%s is no Node script: it needs no node", h.provider)
		}
		h.withoutNode(v.t)
		r := h.turn(v.t, oneCall(h.provider, ordinaryCommand), "", "make the file")
		checkOrdinary(v, h, r)
		v.now(strings.Contains(r.stderr, "runs with node from "+h.nodeDir), "yume-cli did not say it runs it with the node beside it")
	}},
	{name: "not-installed", run: func(v *verdict, h *yumeHome) {
		must(v.t, os.RemoveAll(filepath.Join(h.sb.Home, ".nvm")))
		r := h.turn(v.t, oneCall(h.provider, ordinaryCommand), "", "make the file")
		checkFirstRunError(v, h, r, h.provider+" is not installed where yume-cli looks: PATH ("+launchdPATH+")",
			"nvm (~/.nvm/versions/node/*/bin)", "Homebrew (", "npm install -g", "set providers."+h.provider+".bin to that path in")
	}},
	{name: "key-in-zshrc", run: func(v *verdict, h *yumeHome) {
		key, ok := profileOnlyKey(v.t, h)
		if !ok {
			v.t.Skipf("%s's offline config holds its key: a profile has nothing to add", h.provider)
		}
		r := h.turn(v.t, oneCall(h.provider, ordinaryCommand), "", "make the file")
		checkFirstRunError(v, h, r, key+" is exported in ~/.zshrc (line 2)", "providers."+h.provider+".env in ")
		v.now(!strings.Contains(string(r.raw)+r.stderr, offline.FakeKey), "the key's value was said")
	}},
	modelErrorCase(401), modelErrorCase(429), modelErrorCase(500),
}

// oneCall is a turn in which the model runs command, then answers.
func oneCall(provider, command string) fakemodel.Script {
	return fakemodel.Script{Replies: []fakemodel.Reply{
		{Text: "Running it.", ToolCalls: []fakemodel.ToolCall{shellCall(provider, command, "run it")}},
		{Text: "All done."},
	}}
}

// checkOrdinary: the CLI was found under nvm; the command ran, approved
// by the guard, its output the tool_result; the turn succeeded.
func checkOrdinary(v *verdict, h *yumeHome, r *yumeRun) {
	v.t.Helper()
	version := filepath.Base(filepath.Dir(h.nodeDir))
	v.now(strings.Contains(r.stderr, "(found: nvm "+version+")"), "stderr does not say the CLI was found under nvm %s", version)
	_, err := os.Stat(filepath.Join(h.sb.Workspace, "made.txt"))
	v.now(err == nil, "the ordinary command did not run")
	if u := r.use(v.t, ordinaryCommand); u != nil {
		res, ok := r.results[u.ID]
		v.now(ok && !res.IsError && strings.Contains(res.Content, "wrote made.txt"), "tool_result %+v (reported %v), want the command's output", res, ok)
	}
	v.now(strings.Contains(string(r.raw), `"approved_by":"yume-cli guard: no approval channel"`) ||
		slices.ContainsFunc(r.events, func(e event) bool {
			return e.str("message") == "approved by yume-cli's guard (no approval channel): "+ordinaryCommand
		}), "the stream does not say the guard approved the command")
	f := r.final()
	v.now(f != nil && f["is_error"] != true && r.exit == 0, "result %v, exit %d: want a success", f, r.exit)
}

// checkFirstRunError: the turn ended at once with an error Yume shows
// (a system error saying each of wants), exit 1, and nothing reached
// the model or ran.
func checkFirstRunError(v *verdict, h *yumeHome, r *yumeRun, wants ...string) {
	v.t.Helper()
	msgs, _ := r.visible()
	var said []string
	for _, m := range msgs {
		said = append(said, m.str("message"))
	}
	for _, w := range wants {
		v.now(slices.ContainsFunc(said, func(s string) bool { return strings.Contains(s, w) }), "no system error says %q: %q", w, said)
	}
	f := r.final()
	v.now(f != nil && f["is_error"] == true && r.exit == 1, "result %v, exit %d: want an error, exit 1", f, r.exit)
	v.now(len(h.srv.AgentRequests()) == 0, "the model was asked %d times", len(h.srv.AgentRequests()))
	_, err := os.Stat(filepath.Join(h.sb.Workspace, "made.txt"))
	v.now(err != nil, "the command ran")
}

// runsWithNode reports whether the provider's program is a script run
// through env node.
func runsWithNode(h *yumeHome) bool {
	f, err := os.Open(filepath.Join(h.nodeDir, h.provider))
	if err != nil {
		return false
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	return strings.HasPrefix(line, "#!") && strings.Contains(line, "node")
}

// profileOnlyKey moves the provider's key from the settings file to
// ~/.zshrc (line 2), where a Yume user may have left it, and names it;
// false when the offline config holds the key instead (opencode's and
// Kilo's config file), so that a profile has nothing to add.
func profileOnlyKey(t *testing.T, h *yumeHome) (string, bool) {
	t.Helper()
	p, ok := prov.Lookup(h.provider)
	if !ok {
		t.Fatalf("no provider %s", h.provider)
	}
	key := p.Credentials.Env[0]
	for _, k := range p.Credentials.Env {
		if slices.ContainsFunc(h.sb.Env, func(kv string) bool { return strings.HasPrefix(kv, k+"=") }) {
			key = k
			break
		}
	}
	h.sb.Env = slices.DeleteFunc(h.sb.Env, func(kv string) bool { return strings.HasPrefix(kv, key+"=") })
	writeYumeSettings(t, h.sb, h.provider)
	must(t, os.WriteFile(filepath.Join(h.sb.Home, ".zshrc"), []byte("# keys\nexport "+key+"="+offline.FakeKey+"\n"), 0o644))
	env := map[string]string{}
	for _, kv := range h.sb.Env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	_, inProfile := p.KeyInProfile(func(k string) string { return env[k] }, h.sb.Home)
	return key, inProfile
}

// asYumeErrorBound is the model-error bound the settings file gives the
// model-error runs.
const asYumeErrorBound = 12 * time.Second

// modelErrorCase: the model answers every request with status. What main
// has: the turn ends with one error result, exit 1, within the run's
// bound. What waits for branch usage: the error reaches Yume within 2 s
// of the first failed request, as system rate_limit (429) or error (the
// rest), in the CLI's words; an error no retry can fix (401) ends the
// turn at once (10 s), any other within 60 s of the first error.
func modelErrorCase(status int) asYumeCase {
	return asYumeCase{name: fmt.Sprint(status), parallel: true, run: func(v *verdict, h *yumeHome) {
		msg := fmt.Sprintf("fake error %d", status)
		// A Yume user's bound on retries (main's default, 75 s, lets a CLI
		// that retries without a word run for 150 s: past runTimeout).
		h.sb.Env = append(h.sb.Env, "YUME_MODEL_ERROR_BOUND="+asYumeErrorBound.String())
		writeYumeSettings(v.t, h.sb, h.provider)
		r := h.turn(v.t, fakemodel.Script{Replies: []fakemodel.Reply{{Status: status, ErrorMessage: msg}}, RepeatLast: true}, "", "make the file")
		results := 0
		for _, e := range r.events {
			if e.str("type") == "result" {
				results++
			}
		}
		f := r.final()
		v.now(results == 1 && f != nil && f["is_error"] == true && r.exit == 1, "%d results, the last %v, exit %d: want one error result, exit 1", results, f, r.exit)
		if r.firstRequest.IsZero() {
			v.now(false, "the model was never asked")
			return
		}
		want := "error"
		if status == 429 {
			want = "rate_limit"
		}
		// From the first failure the CLI itself knows of: its HTTP client
		// may retry first without a word (silentTries, as TestLiveModelErrors).
		firstErr := r.firstRequest
		if k := silentTries[fmt.Sprintf("%s/%d", h.provider, status)]; k > 0 {
			if reqs := h.srv.AgentRequests(); len(reqs) > 0 {
				firstErr = reqs[min(k, len(reqs))-1].At
			}
		}
		// In the CLI's words: a CLI may not name the status (Codex says
		// "Reconnecting... 1/5"), so the first message of the right kind.
		msgs, at := r.visible()
		shown := -1
		for i, m := range msgs {
			if m.str("subtype") == want {
				shown = i
				break
			}
		}
		v.soon("shown-within-2s", awaitErrors, shown >= 0 && at[shown].Sub(firstErr) <= 2*time.Second,
			"no system %s within 2 s of the first failed request the CLI knows of (shown: %d)", want, shown)
		limit := 60 * time.Second
		if status == 401 {
			limit = 10 * time.Second
		}
		v.soon("ends-in-time", awaitErrors, r.started.Add(r.took).Sub(r.firstRequest) <= limit, "the turn ended %v after the first failed request, want at most %v",
			r.started.Add(r.took).Sub(r.firstRequest).Round(time.Second), limit)
		v.t.Logf("%s %d: ended %v after the first failed request", h.provider, status, r.started.Add(r.took).Sub(r.firstRequest).Round(100*time.Millisecond))
	}}
}
