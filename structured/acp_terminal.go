package structured

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/yume-cli/yume-cli/ptyhost"
)

// maxTerminalOutput bounds the output kept of a terminal whose agent set
// no smaller limit (the last bytes are kept).
const maxTerminalOutput = 16 << 20

// acpTerminals are the commands yume-cli runs for an agent (terminal/*),
// each in a process group of its own, all ended with the session.
type acpTerminals struct {
	mu     sync.Mutex
	next   int
	byID   map[string]*acpTerm
	closed bool
	env    []string // the agent's environment (yume-cli's own plus the run's)
}

// acpTerm is one command run for the agent.
type acpTerm struct {
	id, command string
	// toolUseID is the tool_use it is reported as; own: yume-cli wrote
	// that tool_use (the agent had not asked) and writes its result.
	toolUseID string
	own       bool
	cmd       *exec.Cmd
	out       limitedOutput
	done      chan struct{} // closed once it exited
	reported  chan struct{} // closed once an own terminal's result is written
	exitCode  *int
	signal    *string
	released  bool
}

// termParams are terminal/create's params.
type termParams struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
	Env     []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"env"`
	Cwd             string `json:"cwd"`
	OutputByteLimit int    `json:"outputByteLimit"`
}

// shown is the command as a person would type it: a command line run by
// the shell as it is (its wrapper taken off), an argv joined.
func (p termParams) shown() string {
	if len(p.Args) == 0 {
		return unwrapShell(p.Command)
	}
	return argvCommand(append([]string{p.Command}, p.Args...))
}

// create answers terminal/create: the command the agent was allowed to
// run (a call it asked about with this command) starts; any other is
// reported as a Bash tool_use and decided by the permission policy first.
// The terminal's output becomes the tool_result of the call it belongs to.
func (t *acpTerminals) create(turnCtx context.Context, s *acpSession, params json.RawMessage) (any, error) {
	var p termParams
	if err := json.Unmarshal(params, &p); err != nil || p.Command == "" {
		return nil, badParams("terminal/create", fmt.Errorf("%v (command %q)", err, p.Command))
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil, &acpError{Code: -32603, Message: "the session is over"}
	}
	t.next++
	term := &acpTerm{id: fmt.Sprintf("term_%d", t.next), command: p.shown(), done: make(chan struct{}), reported: make(chan struct{})}
	term.out.limit = p.OutputByteLimit
	if term.out.limit <= 0 || term.out.limit > maxTerminalOutput {
		term.out.limit = maxTerminalOutput
	}
	t.mu.Unlock()
	term.toolUseID = s.allowedFor(func(name string, in map[string]any) bool {
		c, _ := in["command"].(string)
		return name == "Bash" && sameCommand(c, term.command)
	})
	if term.toolUseID == "" {
		// Not a call it was allowed: one it announced without asking is
		// reported and asked about as itself (one tool_use for the call),
		// any other as a Bash of its own.
		s.mu.Lock()
		id, name, input := s.tr.adoptCall(term.command)
		s.mu.Unlock()
		if id == "" {
			id, name, input = term.id, "Bash", map[string]any{"command": term.command}
		}
		term.toolUseID, term.own = id, true
		if err := s.askOwn(turnCtx, id, name, input); err != nil {
			return nil, err
		}
	}
	if !term.own {
		// What the terminal prints is the allowed call's output, whether
		// or not the agent's updates show the terminal (an own one's
		// result is written as it exits, reap).
		s.mu.Lock()
		s.tr.terminalFor(term.toolUseID, term.id)
		s.mu.Unlock()
	}
	var cmd *exec.Cmd
	if len(p.Args) > 0 {
		cmd = exec.Command(p.Command, p.Args...)
	} else {
		// A command line with no args is run by the shell, as a terminal
		// would (Claude's adapter sends `printf … && seq 1 40` so).
		sh := "/bin/sh"
		if b, err := exec.LookPath("bash"); err == nil {
			sh = b
		}
		cmd = exec.Command(sh, "-c", p.Command)
	}
	cmd.Dir = s.cwd
	if p.Cwd != "" {
		cmd.Dir = s.absPath(p.Cwd)
	}
	cmd.Env = append(os.Environ(), t.env...)
	for _, e := range p.Env {
		cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
	}
	cmd.Stdout, cmd.Stderr = &term.out, &term.out
	cmd.WaitDelay = killGrace
	setGroup(cmd)
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil, &acpError{Code: -32603, Message: "the session is over"}
	}
	err := cmd.Start()
	if err == nil {
		ptyhost.WatchGroup(cmd.Process.Pid) // nothing it starts outlives yume-cli
		term.cmd = cmd
		t.byID[term.id] = term
	}
	t.mu.Unlock()
	if err != nil {
		if term.own {
			s.mu.Lock()
			rerr := s.tr.toolResult(term.toolUseID, "The command could not start: "+err.Error(), true)
			s.mu.Unlock()
			if rerr != nil {
				return nil, rerr
			}
		}
		return nil, &acpError{Code: -32603, Message: err.Error()}
	}
	go t.reap(s, term)
	return map[string]any{"terminalId": term.id}, nil
}

// reap waits for a terminal's command, ends what is left of its group and
// reports an own terminal's result.
func (t *acpTerminals) reap(s *acpSession, term *acpTerm) {
	defer close(term.reported)
	err := term.cmd.Wait()
	signalGroup(term.cmd, killSignal)
	ptyhost.ForgetGroup(term.cmd.Process.Pid)
	t.mu.Lock()
	if st := term.cmd.ProcessState; st != nil {
		if st.Exited() {
			code := st.ExitCode()
			term.exitCode = &code
		} else if sig := signalName(st); sig != "" {
			term.signal = &sig
		}
	}
	if term.exitCode == nil && term.signal == nil && err != nil {
		sig := err.Error()
		term.signal = &sig
	}
	close(term.done)
	t.mu.Unlock()
	if !term.own {
		return
	}
	out, failed := term.result()
	s.mu.Lock()
	_ = s.tr.toolResult(term.toolUseID, out, failed) // Best effort: a stdout failure ends the run elsewhere.
	s.mu.Unlock()
}

// result is a finished terminal's output as a tool_result: what it
// printed, with how it ended when that was not success.
func (term *acpTerm) result() (string, bool) {
	out, truncated := term.out.text()
	out = strings.TrimRight(out, "\n")
	if truncated {
		out = "(output truncated to its last bytes)\n" + out
	}
	switch {
	case term.exitCode != nil && *term.exitCode != 0:
		return strings.TrimLeft(out+"\nexit code "+fmt.Sprint(*term.exitCode), "\n"), true
	case term.signal != nil:
		return strings.TrimLeft(out+"\nkilled ("+*term.signal+")", "\n"), true
	}
	return out, false
}

// get finds a terminal by the request's terminalId.
func (t *acpTerminals) get(method string, params json.RawMessage) (*acpTerm, error) {
	var p struct {
		TerminalID string `json:"terminalId"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, badParams(method, err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	term, ok := t.byID[p.TerminalID]
	if !ok || term.released {
		return nil, &acpError{Code: -32002, Message: fmt.Sprintf("no terminal %q", p.TerminalID)}
	}
	return term, nil
}

// exitStatus is a finished terminal's TerminalExitStatus, nil while it runs.
func (t *acpTerminals) exitStatus(term *acpTerm) map[string]any {
	t.mu.Lock()
	defer t.mu.Unlock()
	select {
	case <-term.done:
		return map[string]any{"exitCode": term.exitCode, "signal": term.signal}
	default:
		return nil
	}
}

func (t *acpTerminals) output(params json.RawMessage) (any, error) {
	term, err := t.get("terminal/output", params)
	if err != nil {
		return nil, err
	}
	out, truncated := term.out.text()
	res := map[string]any{"output": out, "truncated": truncated}
	if st := t.exitStatus(term); st != nil {
		res["exitStatus"] = st
	}
	return res, nil
}

// waitForExit answers once the command exited (from a goroutine of its
// own, so the agent's terminal/kill is read meanwhile).
func (t *acpTerminals) waitForExit(turnCtx context.Context, params json.RawMessage) (any, error) {
	term, err := t.get("terminal/wait_for_exit", params)
	if err != nil {
		return nil, err
	}
	return acpDeferred(func() (any, error) {
		// Once its tool_result is out (an own terminal's): the agent's
		// next words come after it in the stream. Every terminal is
		// killed when the session ends.
		<-term.reported
		return t.exitStatus(term), nil
	}), nil
}

func (t *acpTerminals) kill(params json.RawMessage) (any, error) {
	term, err := t.get("terminal/kill", params)
	if err != nil {
		return nil, err
	}
	signalGroup(term.cmd, killSignal)
	return map[string]any{}, nil
}

// release kills the command if it still runs and forgets the terminal
// for the agent; its output stays for the call's tool_result.
func (t *acpTerminals) release(params json.RawMessage) (any, error) {
	term, err := t.get("terminal/release", params)
	if err != nil {
		return nil, err
	}
	signalGroup(term.cmd, killSignal)
	t.mu.Lock()
	term.released = true
	t.mu.Unlock()
	return map[string]any{}, nil
}

// outputOf is a terminal's output for the tool_result of the call that
// showed it, once it has finished; failed when it did not exit 0.
func (t *acpTerminals) outputOf(id string) (out string, failed, ok bool) {
	t.mu.Lock()
	term, ok := t.byID[id]
	t.mu.Unlock()
	if !ok {
		return "", false, false
	}
	select {
	case <-term.done:
	default:
		return "", false, false
	}
	out, failed = term.result()
	return out, failed, true
}

// closeAll ends every terminal's process group and waits for them: the
// session is over.
func (t *acpTerminals) closeAll() {
	t.mu.Lock()
	t.closed = true
	var all []*acpTerm
	for _, term := range t.byID {
		all = append(all, term)
	}
	t.mu.Unlock()
	for _, term := range all {
		signalGroup(term.cmd, killSignal)
	}
	for _, term := range all {
		<-term.reported
	}
}
