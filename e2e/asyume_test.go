package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit/emittest"
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

// launchdPATH is the PATH of the runs: launchd's, without /usr/sbin:/sbin,
// which hold nothing the CLIs need.
const launchdPATH = "/usr/bin:/bin"

// yumeHome is a HOME as a Yume user has it, and its fake model.
type yumeHome struct {
	provider string
	sb       *offline.Sandbox
	srv      *fakemodel.Server
	// path is the runs' PATH: launchdPATH, or a copy of it without node.
	path string
	// nodeDir is the Node-version folder's bin, where the CLI and node are.
	nodeDir string
}

// newYumeHome prepares provider's offline sandbox and turns it into a
// Yume user's HOME: the CLI under HOME/.nvm/versions/node/vX (X the
// machine's node's version; its package linked in lib/node_modules, its
// program in bin, node beside it, as npm under nvm installs them; an
// older version without it, and nvm's default alias naming X), and every
// variable the sandbox needs in the settings file, none in the
// environment.
func newYumeHome(t *testing.T, provider string) *yumeHome {
	t.Helper()
	program := cliPath(t, provider)
	node, version := machineNode(t)
	srv, err := fakemodel.New(fakemodel.Script{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	sb, err := offline.Setup(provider, t.TempDir(), srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	h := &yumeHome{provider: provider, sb: sb, srv: srv, path: launchdPATH,
		nodeDir: filepath.Join(sb.Home, ".nvm", "versions", "node", version, "bin")}
	for _, d := range []string{h.nodeDir, filepath.Join(sb.Home, ".nvm", "versions", "node", "v18.0.0", "bin"), filepath.Join(sb.Home, ".nvm", "alias")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(sb.Home, ".nvm", "alias", "default"), []byte(strings.Split(strings.TrimPrefix(version, "v"), ".")[0]+"\n"), 0o644))
	must(t, os.Symlink(node, filepath.Join(h.nodeDir, "node")))
	installLikeNPM(t, program, h.nodeDir, provider)
	writeYumeSettings(t, sb, provider)
	return h
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// machineNode is the node the CLIs run with, and its version ("v20.20.2").
func machineNode(t *testing.T) (path, version string) {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on this machine: the Node-version folder needs one")
	}
	if p, err = filepath.EvalSymlinks(p); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(p, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", p, err)
	}
	return p, strings.TrimSpace(string(out))
}

// installLikeNPM puts the installed program in bin as npm does under a
// Node-version folder: its package linked into ../lib/node_modules, and
// bin/NAME a relative link to the program in it.
func installLikeNPM(t *testing.T, program, bin, name string) {
	t.Helper()
	real, err := filepath.EvalSymlinks(program)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.LastIndex(real, "/node_modules/")
	if i < 0 {
		must(t, os.Symlink(real, filepath.Join(bin, name)))
		return
	}
	rest := strings.Split(real[i+len("/node_modules/"):], "/")
	pkg := rest[:1] // its package: NAME, or @SCOPE/NAME
	if strings.HasPrefix(rest[0], "@") {
		pkg = rest[:2]
	}
	lib := filepath.Join(filepath.Dir(bin), "lib", "node_modules", filepath.Join(pkg...))
	must(t, os.MkdirAll(filepath.Dir(lib), 0o755))
	must(t, os.Symlink(filepath.Join(real[:i], "node_modules", filepath.Join(pkg...)), lib))
	rel, err := filepath.Rel(bin, filepath.Join(lib, filepath.Join(rest[len(pkg):]...)))
	must(t, err)
	must(t, os.Symlink(rel, filepath.Join(bin, name)))
}

// writeYumeSettings moves the sandbox's variables into the settings file
// (providers.P.env), where a Yume user puts them: the runs' environment
// has PATH and HOME only. Those the defaults already give (the XDG
// folders under HOME) and the terminal's own are left out.
func writeYumeSettings(t *testing.T, sb *offline.Sandbox, provider string) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "providers:\n  %s:\n    env:\n", provider)
	for _, kv := range sb.Env {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME", k == "PATH", k == "TMPDIR", k == "TERM", k == "NO_COLOR", k == "CI", k == "LANG", strings.HasPrefix(k, "XDG_"):
			continue
		}
		fmt.Fprintf(&b, "      %s: '%s'\n", k, strings.ReplaceAll(v, "'", "''"))
	}
	must(t, os.MkdirAll(filepath.Join(sb.Home, ".yume"), 0o700))
	must(t, os.WriteFile(filepath.Join(sb.Home, ".yume", "settings.yaml"), []byte(b.String()), 0o600))
}

// withoutNode makes the runs' PATH a folder of links to everything in
// /usr/bin and /bin but node, npm and npx: launchd's PATH on a Mac, where
// /usr/bin has no node.
func (h *yumeHome) withoutNode(t *testing.T) {
	t.Helper()
	sys := filepath.Join(filepath.Dir(h.sb.Home), "usr-bin")
	must(t, os.MkdirAll(sys, 0o755))
	for _, d := range filepath.SplitList(launchdPATH) {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			switch e.Name() {
			case "node", "nodejs", "npm", "npx", "corepack":
				continue
			}
			if _, err := os.Lstat(filepath.Join(sys, e.Name())); err == nil {
				continue
			}
			must(t, os.Symlink(filepath.Join(d, e.Name()), filepath.Join(sys, e.Name())))
		}
	}
	h.path = sys
}

// yumeRun is one yume-cli process as Yume starts it, and what it printed.
type yumeRun struct {
	*run
	arrived []time.Time // when each event arrived
	started time.Time
	// firstRequest is when the fake model got the turn's first request.
	firstRequest time.Time
}

// turn starts yume-cli exactly as Yume does, the model answering from
// script: --provider P --model M --cwd DIR [--resume ID] --prompt TEXT
// --output-format stream-json --verbose, stdin /dev/null, the working
// directory DIR, the environment PATH and HOME.
func (h *yumeHome) turn(t *testing.T, script fakemodel.Script, resume, prompt string) *yumeRun {
	t.Helper()
	h.srv.SetScript(script)
	args := []string{"--provider", h.provider, "--model", h.sb.Model, "--cwd", h.sb.Workspace}
	if resume != "" {
		args = append(args, "--resume", resume)
	}
	args = append(args, "--prompt", prompt, "--output-format", "stream-json", "--verbose")
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, yumeBin, args...)
	cmd.Env = []string{"PATH=" + h.path, "HOME=" + h.sb.Home}
	cmd.Dir = h.sb.Workspace
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	must(t, err)
	r := &yumeRun{run: &run{sb: h.sb, srv: h.srv, results: map[string]result{}}}
	before := len(h.srv.AgentRequests())
	requested := make(chan time.Time, 1)
	go func() {
		if _, err := h.srv.WaitAgentRequests(ctx, before+1); err == nil {
			requested <- time.Now()
		}
	}()
	r.started = time.Now()
	must(t, cmd.Start())
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		line := sc.Bytes()
		r.raw = append(append(r.raw, line...), '\n')
		var ev event
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Errorf("stdout line is not JSON: %q", line)
			continue
		}
		r.events = append(r.events, ev)
		r.arrived = append(r.arrived, time.Now())
		r.collect(ev)
	}
	err = cmd.Wait()
	r.took = time.Since(r.started)
	r.stderr = stderr.String()
	cancel() // the request watcher, when no request came
	select {
	case r.firstRequest = <-requested:
	default:
	}
	if ctx.Err() == context.DeadlineExceeded {
		t.Errorf("yume-cli did not end within %v", runTimeout)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.exit = ee.ExitCode()
	}
	for _, p := range emittest.Validate(r.raw) {
		t.Errorf("conformance: %v", p)
	}
	noLeftovers(t, h.sb.Home)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("yume-cli %s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.raw, r.stderr)
		}
	})
	return r
}

// visible are the system messages Yume shows, with when each arrived.
func (r *yumeRun) visible() (msgs []event, at []time.Time) {
	for i, e := range r.events {
		if e.str("type") == "system" && slices.Contains([]string{"error", "rate_limit", "compact", "interrupted"}, e.str("subtype")) {
			msgs, at = append(msgs, e), append(at, r.arrived[i])
		}
	}
	return msgs, at
}

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
	for _, provider := range offline.Providers {
		for _, c := range asYumeCases {
			t.Run(provider+"/"+c.name, func(t *testing.T) {
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

// use is the run's one tool_use: a Bash call of exactly command.
func (r *yumeRun) use(t *testing.T, command string) *use {
	t.Helper()
	if len(r.uses) != 1 || r.uses[0].Name != "Bash" || r.uses[0].Input["command"] != command {
		t.Errorf("tool_uses %+v: want one Bash with the exact command %q", r.uses, command)
		return nil
	}
	return &r.uses[0]
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
const asYumeErrorBound = 30 * time.Second

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
