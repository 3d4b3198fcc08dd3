package structured

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/yume-cli/yume-cli/permission"
)

// The client side of ACP an agent may use instead of its own tools: the
// file system (fs/read_text_file, fs/write_text_file) and terminals
// (terminal/*, acp_terminal.go). Each is offered in initialize because
// yume-cli implements it. A write and a command follow the permission
// policy: one the agent asked about (session/request_permission) and was
// allowed runs as allowed; any other is reported as its own Write or Bash
// tool_use and asked about first, like any call.

// acpDeferred, returned by a request handler, answers the request from a
// goroutine of its own (terminal/wait_for_exit), so the agent's other
// messages are read meanwhile.
type acpDeferred func() (any, error)

// clientCapabilities are what yume-cli offers the agent.
func clientCapabilities() map[string]any {
	return map[string]any{"fs": map[string]any{"readTextFile": true, "writeTextFile": true}, "terminal": true}
}

// clientRequest answers the agent's fs/* and terminal/* requests; ok
// false for any other method.
func (s *acpSession) clientRequest(turnCtx context.Context, method string, params json.RawMessage) (any, bool, error) {
	var res any
	var err error
	switch method {
	case "fs/read_text_file":
		res, err = s.readFile(turnCtx, params)
	case "fs/write_text_file":
		res, err = s.writeFile(turnCtx, params)
	case "terminal/create":
		res, err = s.terms.create(turnCtx, s, params)
	case "terminal/output":
		res, err = s.terms.output(params)
	case "terminal/wait_for_exit":
		res, err = s.terms.waitForExit(turnCtx, params)
	case "terminal/kill":
		res, err = s.terms.kill(params)
	case "terminal/release":
		res, err = s.terms.release(params)
	default:
		return nil, false, nil
	}
	return res, true, err
}

// badParams is the JSON-RPC error for params that do not decode.
func badParams(method string, err error) error {
	return &acpError{Code: -32602, Message: fmt.Sprintf("bad %s params: %v", method, err)}
}

// absPath is path made absolute against the session's directory (ACP
// paths are absolute; a relative one is taken as the agent's cwd's).
func (s *acpSession) absPath(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(s.cwd, path)
}

// maxReadFile bounds a file read for the agent.
const maxReadFile = 16 << 20

// readFile answers fs/read_text_file: the file's text, from line (1-based)
// for limit lines when given. A read the guard flags (a protected path:
// keys, credentials) is reported as a Read and asked about first.
func (s *acpSession) readFile(turnCtx context.Context, params json.RawMessage) (res any, err error) {
	var p struct {
		Path  string `json:"path"`
		Line  *int   `json:"line"`
		Limit *int   `json:"limit"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.Path == "" {
		return nil, badParams("fs/read_text_file", fmt.Errorf("%v (path %q)", err, p.Path))
	}
	path := s.absPath(p.Path)
	if why := s.tr.dangers.Call("Read", map[string]any{"file_path": path}); why != "" {
		s.mu.Lock()
		s.ownCalls++
		own := fmt.Sprintf("fsread_%d", s.ownCalls)
		s.mu.Unlock()
		if err := s.askOwn(turnCtx, own, "Read", map[string]any{"file_path": path}); err != nil {
			return nil, err
		}
		defer func() {
			msg := fmt.Sprintf("%s was read for the agent", path)
			if err != nil {
				msg = "Reading the file failed: " + err.Error()
			}
			s.mu.Lock()
			_ = s.tr.toolResult(own, msg, err != nil) // Best effort: a stdout failure ends the run elsewhere.
			s.mu.Unlock()
		}()
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, &acpError{Code: -32002, Message: err.Error()} // ACP's resource_not_found
	}
	if info.Size() > maxReadFile {
		return nil, &acpError{Code: -32603, Message: fmt.Sprintf("%s is %d bytes, more than yume-cli reads for an agent (%d)", path, info.Size(), maxReadFile)}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, &acpError{Code: -32603, Message: err.Error()}
	}
	text := strings.ToValidUTF8(string(b), "\uFFFD")
	if p.Line != nil || p.Limit != nil {
		lines := strings.SplitAfter(text, "\n")
		from := 0
		if p.Line != nil && *p.Line > 1 {
			from = min(*p.Line-1, len(lines))
		}
		to := len(lines)
		if p.Limit != nil && *p.Limit >= 0 {
			to = min(from+*p.Limit, len(lines))
		}
		text = strings.Join(lines[from:to], "")
	}
	return map[string]any{"content": text}, nil
}

// writeFile answers fs/write_text_file: a write the agent asked about (a
// call allowed for this file) is made; any other is reported as a Write
// and decided by the permission policy first.
func (s *acpSession) writeFile(turnCtx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.Path == "" {
		return nil, badParams("fs/write_text_file", fmt.Errorf("%v (path %q)", err, p.Path))
	}
	path := s.absPath(p.Path)
	own := ""
	if s.allowedFor(func(name string, in map[string]any) bool {
		fp, _ := in["file_path"].(string)
		return (name == "Write" || name == "Edit" || name == "MultiEdit") && fp != "" && s.absPath(fp) == path
	}) == "" {
		s.mu.Lock()
		s.ownCalls++
		own = fmt.Sprintf("fswrite_%d", s.ownCalls)
		s.mu.Unlock()
		if err := s.askOwn(turnCtx, own, "Write", map[string]any{"file_path": path, "content": p.Content}); err != nil {
			return nil, err
		}
	}
	err := writeFileKeepMode(path, []byte(p.Content))
	if own != "" {
		msg, isErr := fmt.Sprintf("The file %s has been written (%d bytes).", path, len(p.Content)), false
		if err != nil {
			msg, isErr = "Writing the file failed: "+err.Error(), true
		}
		s.mu.Lock()
		rerr := s.tr.toolResult(own, msg, isErr)
		s.mu.Unlock()
		if rerr != nil {
			return nil, rerr
		}
	}
	if err != nil {
		return nil, &acpError{Code: -32603, Message: err.Error()}
	}
	return map[string]any{}, nil
}

// writeFileKeepMode writes b to path, creating its directory; an existing
// file keeps its permissions.
func writeFileKeepMode(path string, b []byte) error {
	mode := os.FileMode(0o644)
	if info, err := os.Stat(path); err == nil {
		mode = info.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, mode)
}

// allowedFor is the id of a call the agent asked about and was allowed,
// or ran by the allow-all yume-cli let it keep (auto mode), that has not
// finished and that match accepts; "" when there is none. Each such
// call's tool_use is written, so its name and input are the tracker's.
func (s *acpSession) allowedFor(match func(name string, input map[string]any) bool) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, 0, len(s.allowed)+len(s.tr.unasked))
	for id := range s.allowed {
		ids = append(ids, id)
	}
	for id := range s.tr.unasked {
		if !s.allowed[id] {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		tc, ok := s.tr.tools.get(id)
		if !ok { // finished
			delete(s.allowed, id)
			delete(s.tr.unasked, id)
			continue
		}
		in, _ := tc.input.(map[string]any)
		if match(tc.name, in) {
			return id
		}
	}
	return ""
}

// sameCommand reports whether a terminal's command is one a call shows:
// the same words (a shell wrapper off either), or one of the commands a
// call joined into one line (commandsLine).
func sameCommand(call, term string) bool {
	norm := func(s string) string { return strings.Join(strings.Fields(unwrapShell(strings.TrimSpace(s))), " ") }
	c, t := norm(call), norm(term)
	if c == "" || t == "" {
		return false
	}
	if c == t {
		return true
	}
	for _, part := range strings.Split(call, "; ") {
		if norm(part) == t {
			return true
		}
	}
	return false
}

// askOwn reports a call the agent makes through yume-cli without having
// asked (a write, a terminal) as its own tool_use, and asks the policy; a
// denial is reported and returned as the agent's error.
func (s *acpSession) askOwn(turnCtx context.Context, id, name string, input map[string]any) error {
	s.mu.Lock()
	s.tr.askedBy = s.ap.answeredBy
	err := s.tr.toolUse(id, name, input)
	s.tr.askedBy = nil
	tc, _ := s.tr.tools.get(id)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	d, err := s.ap.ask(turnCtx, id, name, tc.input)
	if err != nil {
		d = permission.Answer{Message: "interrupted"}
	}
	if d.Allow {
		return nil
	}
	s.mu.Lock()
	err = s.tr.deny(id, d.Denial())
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return &acpError{Code: -32000, Message: "denied: " + d.Denial()}
}

// limitedOutput is a terminal's output, kept to its last limit bytes (at
// a character boundary) when the agent set a limit.
type limitedOutput struct {
	mu        sync.Mutex
	buf       []byte
	limit     int
	truncated bool
}

func (o *limitedOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf = append(o.buf, p...)
	if o.limit > 0 && len(o.buf) > o.limit {
		cut := len(o.buf) - o.limit
		for cut < len(o.buf) && !utf8.RuneStart(o.buf[cut]) {
			cut++
		}
		o.buf = append(o.buf[:0], o.buf[cut:]...)
		o.truncated = true
	}
	return len(p), nil
}

func (o *limitedOutput) text() (string, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return strings.ToValidUTF8(string(o.buf), "\uFFFD"), o.truncated
}
