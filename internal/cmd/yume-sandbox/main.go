// Command yume-sandbox runs a command inside the offline sandbox the live
// tests use: a throwaway home whose config points a real coding CLI at a
// fake model server on 127.0.0.1, which answers from a script. It is for
// people exploring what a CLI release draws (run it in tmux) and for the
// drift matrix; tests use the packages directly.
//
//	yume-sandbox -provider claude -script s.json -dir .wt/sb -- claude 'hi'
//
// The script is JSON: {"replies":[{"text":"…","tool_calls":[{"name":"Bash",
// "args":{"command":"ls"}}]},…]}. At exit it writes the model requests it
// saw to DIR/requests.jsonl: when CMD ends, or with -env (no CMD: print the
// environment, then serve) when it is ended by SIGINT, SIGTERM or SIGHUP.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/internal/fakemodel/offline"
)

type scriptFile struct {
	Replies []struct {
		Text      string `json:"text"`
		ToolCalls []struct {
			ID     string          `json:"id"`
			Name   string          `json:"name"`
			Args   json.RawMessage `json:"args"`
			Custom string          `json:"custom"`
		} `json:"tool_calls"`
		Status int  `json:"status"`
		Stall  bool `json:"stall"`
	} `json:"replies"`
}

func main() {
	provider := flag.String("provider", "", "the CLI whose config to write: "+strings.Join(append(append([]string{}, offline.Providers...), offline.Unnamed...), ", "))
	scriptPath := flag.String("script", "", "JSON script of model replies")
	dir := flag.String("dir", "", "directory for the sandbox's home and workspace (created)")
	binDir := flag.String("bin", "", "directory put first on PATH (where the CLIs are)")
	printEnv := flag.Bool("env", false, "print the sandbox environment and the workspace, then serve until SIGINT, SIGTERM or SIGHUP (then write requests.jsonl)")
	bare := flag.Bool("bare", false, "leave the home without the CLI's configuration: first-run, login and trust screens")
	flag.Parse()
	if err := run(*provider, *scriptPath, *dir, *binDir, *printEnv, *bare, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "yume-sandbox:", err)
		os.Exit(1)
	}
}

func run(provider, scriptPath, dir, binDir string, printEnv, bare bool, argv []string) error {
	if provider == "" || dir == "" || (len(argv) == 0 && !printEnv) {
		return errors.New("usage: yume-sandbox -provider P -dir DIR [-script S] [-bin DIR] -- CMD ARGS…")
	}
	script, err := loadScript(scriptPath)
	if err != nil {
		return err
	}
	srv, err := fakemodel.New(script)
	if err != nil {
		return err
	}
	defer srv.Close()
	defer dumpRequests(srv, filepath.Join(dir, "requests.jsonl"))
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	var paths []string
	if binDir != "" {
		if b, err := filepath.Abs(binDir); err == nil {
			paths = append(paths, b)
		}
	}
	sb, err := offline.Setup(provider, abs, srv.URL(), paths...)
	if err != nil {
		return err
	}
	if bare {
		ents, _ := os.ReadDir(sb.Home)
		for _, e := range ents {
			if e.Name() != "tmp" {
				_ = os.RemoveAll(filepath.Join(sb.Home, e.Name())) // Best effort: a fresh home.
			}
		}
	}
	if printEnv {
		for _, e := range sb.Env {
			fmt.Println("export", shellQuote(e))
		}
		fmt.Println("cd", shellQuote(sb.Workspace))
		// Serve until told to stop, then return: the deferred dump writes
		// requests.jsonl (a signal's default action would skip it).
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		<-stop
		return nil
	}
	path, err := lookPathIn(argv[0], sb.Env)
	if err != nil {
		return err
	}
	cmd := exec.Command(path, argv[1:]...)
	cmd.Env, cmd.Dir = interactiveEnv(sb.Env), sb.Workspace
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd.Run()
}

func loadScript(path string) (fakemodel.Script, error) {
	s := fakemodel.Script{}
	if path == "" {
		return s, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	var f scriptFile
	if err := json.Unmarshal(b, &f); err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	for _, r := range f.Replies {
		reply := fakemodel.Reply{Text: r.Text, Status: r.Status, Stall: r.Stall}
		for _, c := range r.ToolCalls {
			tc := fakemodel.ToolCall{ID: c.ID, Name: c.Name, Custom: c.Custom}
			if len(c.Args) > 0 {
				tc.Args = c.Args
			}
			reply.ToolCalls = append(reply.ToolCalls, tc)
		}
		s.Replies = append(s.Replies, reply)
	}
	return s, nil
}

func dumpRequests(srv *fakemodel.Server, path string) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, r := range srv.Requests() {
		_ = enc.Encode(map[string]any{"dialect": r.Dialect, "path": r.Path, "agent": r.Agent, "reply": r.Reply, "body": json.RawMessage(validJSON(r.Body))})
	}
}

func validJSON(b []byte) []byte {
	if json.Valid(b) {
		return b
	}
	q, _ := json.Marshal(string(b))
	return q
}

func shellQuote(s string) string {
	out := "'"
	for _, r := range s {
		if r == '\'' {
			out += `'\''`
		} else {
			out += string(r)
		}
	}
	return out + "'"
}

// interactiveEnv is the sandbox's environment for a person's terminal: the
// offline settings, but a real TERM and colour, as the live TUI tests use.
func interactiveEnv(env []string) []string {
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "TERM", "NO_COLOR", "CI":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "TERM=xterm-256color", "COLORTERM=truecolor")
}

// lookPathIn finds name on the PATH of env.
func lookPathIn(name string, env []string) (string, error) {
	if filepath.IsAbs(name) {
		return name, nil
	}
	for _, e := range env {
		if len(e) > 5 && e[:5] == "PATH=" {
			for _, d := range filepath.SplitList(e[5:]) {
				p := filepath.Join(d, name)
				if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
					return p, nil
				}
			}
		}
	}
	return exec.LookPath(name)
}
