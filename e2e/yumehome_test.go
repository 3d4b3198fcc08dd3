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
)

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

// use is the run's one tool_use: a Bash call of exactly command.
func (r *yumeRun) use(t *testing.T, command string) *use {
	t.Helper()
	if len(r.uses) != 1 || r.uses[0].Name != "Bash" || r.uses[0].Input["command"] != command {
		t.Errorf("tool_uses %+v: want one Bash with the exact command %q", r.uses, command)
		return nil
	}
	return &r.uses[0]
}
