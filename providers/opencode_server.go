package providers

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The TUI of opencode and Kilo runs an HTTP server (the API of `NAME
// serve`) on the loopback address and port given by --hostname and
// --port. yume-cli picks a free port for each TUI it starts and reads the
// transcript there: GET /session lists the sessions ({id, directory,
// time:{created}}), GET /session/ID/message gives a session's messages,
// each {info, parts} as in `NAME export` (404 for an unknown session). A
// read takes a few milliseconds of the TUI's time, where `NAME export`
// starts the whole program (1.5–2 s, about 1.2 s of CPU).

const (
	// openCodeServerWait is how long the server may take to answer first,
	// from the TUI's first output (before it, the TUI is starting: 24 s
	// seen for two Kilo TUIs on a busy two-core machine); past it the
	// transcript is read through the CLI.
	openCodeServerWait = 20 * time.Second
	// openCodeServerRead bounds one request (a few ms, up to 1 s seen
	// while the machine is busy).
	openCodeServerRead = 5 * time.Second
	// openCodeServerFirst bounds a request to a server that has not
	// answered yet, doubling after each one it lost (to
	// openCodeServerRead): a starting server may accept a connection and
	// never answer it. opencode 1.18.34 and Kilo 7.7.9 both lose the
	// first request that reaches them as they start (one sent 1.8 s after
	// the launch was still unanswered 30 s later), and with the longer
	// bound a question asked then found no transcript for 5 s.
	openCodeServerFirst = time.Second
	// openCodeServerGap and openCodeServerIdleGap are the pauses between
	// two reads from the server, while the transcript changes and while not.
	openCodeServerGap     = 100 * time.Millisecond
	openCodeServerIdleGap = 250 * time.Millisecond
)

// openCodePorts are the servers of the TUIs being started: openCodeTUI
// picks the port, openCodeTranscript and openCodeTUIEnv look it up (all are
// given the same Launch).
var openCodePorts = struct {
	sync.Mutex
	m map[string]openCodeAddr
}{m: map[string]openCodeAddr{}}

// openCodeAddr is a TUI's server: its port and the password yume-cli
// gave it (Kilo's server asks for one even when none is set: it makes
// one up; "" when the user set their own).
type openCodeAddr struct {
	port int
	pass string
}

// openCodeLaunchKey names one launch of a TUI.
func openCodeLaunchKey(name string, l Launch) string {
	return name + "\x00" + l.Cwd + "\x00" + strconv.FormatInt(l.Started.UnixNano(), 10)
}

// openCodePort picks a free loopback port for the TUI's server (listened
// on and closed at once: the TUI binds it a moment later) and, unless
// the user set one, a password, remembered for the launch. 0 when no
// port is free.
func openCodePort(name, prefix string, l Launch) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0
	}
	a := openCodeAddr{port: ln.Addr().(*net.TCPAddr).Port}
	_ = ln.Close()
	if l.Getenv == nil || l.Getenv(prefix+"_SERVER_PASSWORD") == "" {
		b := make([]byte, 18)
		_, _ = rand.Read(b)
		a.pass = base64.RawURLEncoding.EncodeToString(b)
	}
	openCodePorts.Lock()
	openCodePorts.m[openCodeLaunchKey(name, l)] = a
	openCodePorts.Unlock()
	return a.port
}

// openCodePortOf is the server picked for the launch's TUI; port 0 when
// none was (the transcript of an ACP or JSON run, or of a session checked
// before it is resumed).
func openCodePortOf(name string, l Launch) openCodeAddr {
	openCodePorts.Lock()
	defer openCodePorts.Unlock()
	return openCodePorts.m[openCodeLaunchKey(name, l)]
}

// openCodeServer reads the transcript from a TUI's server, with a plain
// HTTP/1.1 GET over a loopback connection (one per request, closed by
// the server once it answered): net/http would add 5.7 MB to yume-cli.
type openCodeServer struct {
	base string // http://127.0.0.1:PORT
	addr string // 127.0.0.1:PORT
	port int
	auth string          // the Authorization header, when the user's environment sets a password
	ctx  context.Context // cancelled by Close

	mu       sync.Mutex
	answered bool          // the server has answered a request
	bound    time.Duration // a request's bound until it has (openCodeServerFirst, doubling)
}

// newOpenCodeServer is the client of the server on port, with the basic
// auth the TUI takes from its environment (PREFIX_SERVER_PASSWORD,
// PREFIX_SERVER_USERNAME or the program's name): pass when yume-cli set
// it, else the user's.
func newOpenCodeServer(ctx context.Context, name, prefix string, port int, pass string, getenv func(string) string) *openCodeServer {
	addr := "127.0.0.1:" + strconv.Itoa(port)
	s := &openCodeServer{base: "http://" + addr, addr: addr, port: port, ctx: ctx, bound: openCodeServerFirst}
	if pass != "" {
		s.auth = "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(name+":"+pass)) + "\r\n"
	} else if getenv != nil {
		if pass := getenv(prefix + "_SERVER_PASSWORD"); pass != "" {
			user := getenv(prefix + "_SERVER_USERNAME")
			if user == "" {
				user = name
			}
			s.auth = "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass)) + "\r\n"
		}
	}
	return s
}

// hasAnswered reports whether the server has answered a request.
func (s *openCodeServer) hasAnswered() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.answered
}

// requestBound is how long the next request may wait for its answer.
func (s *openCodeServer) requestBound() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.answered {
		return openCodeServerRead
	}
	return s.bound
}

// lost notes a request that got no answer within bound: the next one to
// a server that never answered waits twice as long.
func (s *openCodeServer) lost(ctx context.Context, bound time.Duration) {
	if ctx.Err() == nil || s.ctx.Err() != nil {
		return // not timed out, or closed
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.answered && s.bound == bound {
		s.bound = min(2*bound, openCodeServerRead)
	}
}

// errOpenCodeNotFound is the server's 404: no such session.
// errOpenCodeDenied is its 401 or 403: it wants a password yume-cli does
// not know (Kilo 7.7.2 asks for one the user did not set).
var (
	errOpenCodeNotFound = errors.New("no such session")
	errOpenCodeDenied   = errors.New("the server wants a password")
)

// get is the body of GET path. The error says whether the server
// answered at all (an *openCodeHTTPError when it did).
func (s *openCodeServer) get(path string) ([]byte, error) {
	bound := s.requestBound()
	ctx, cancel := context.WithTimeout(s.ctx, bound)
	defer cancel()
	// A loopback connection is made or refused at once.
	conn, err := net.DialTCP("tcp", nil, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: s.port})
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()
	req := "GET " + path + " HTTP/1.1\r\nHost: " + s.addr + "\r\nAccept: application/json\r\n" + s.auth + "Connection: close\r\n\r\n"
	if _, err := io.WriteString(conn, req); err != nil {
		return nil, err
	}
	resp, err := io.ReadAll(io.LimitReader(conn, 64<<20))
	if err != nil {
		s.lost(ctx, bound)
		return nil, err
	}
	status, body, err := parseHTTPResponse(resp)
	if err == nil {
		s.mu.Lock()
		s.answered = true
		s.mu.Unlock()
	}
	switch {
	case err != nil:
		return nil, err // no answer (the connection closed before one)
	case status == 404:
		return nil, &openCodeHTTPError{path: path, err: errOpenCodeNotFound}
	case status == 401 || status == 403:
		return nil, &openCodeHTTPError{path: path, err: errOpenCodeDenied}
	case status != 200:
		return nil, &openCodeHTTPError{path: path, err: fmt.Errorf("HTTP status %d", status)}
	}
	return body, nil
}

// parseHTTPResponse splits a whole HTTP/1.1 response (read to the
// connection's end) into its status and body, a chunked body decoded.
func parseHTTPResponse(b []byte) (int, []byte, error) {
	head, body, ok := bytes.Cut(b, []byte("\r\n\r\n"))
	if !ok {
		return 0, nil, errors.New("no complete HTTP response")
	}
	lines := strings.Split(string(head), "\r\n")
	proto, rest, _ := strings.Cut(lines[0], " ")
	code, _, _ := strings.Cut(rest, " ")
	status, err := strconv.Atoi(code)
	if !strings.HasPrefix(proto, "HTTP/1.") || err != nil {
		return 0, nil, fmt.Errorf("not an HTTP response: %q", lines[0])
	}
	length := -1
	for _, l := range lines[1:] {
		k, v, _ := strings.Cut(l, ":")
		switch k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v); {
		case k == "transfer-encoding" && strings.EqualFold(v, "chunked"):
			body, err = dechunk(body)
			return status, body, err
		case k == "content-length":
			length, _ = strconv.Atoi(v)
		}
	}
	if length > len(body) {
		return 0, nil, errors.New("the HTTP response was cut short")
	}
	if length >= 0 {
		body = body[:length]
	}
	return status, body, nil
}

// dechunk decodes a chunked HTTP body.
func dechunk(b []byte) ([]byte, error) {
	var out []byte
	for {
		line, rest, ok := bytes.Cut(b, []byte("\r\n"))
		if !ok {
			return nil, errors.New("the HTTP response was cut short")
		}
		size, _, _ := strings.Cut(string(line), ";")
		n, err := strconv.ParseInt(strings.TrimSpace(size), 16, 64)
		if err != nil || n < 0 || int64(len(rest)) < n {
			return nil, errors.New("a bad or short chunk in the HTTP response")
		}
		if n == 0 {
			return out, nil
		}
		out = append(out, rest[:n]...)
		b = bytes.TrimPrefix(rest[n:], []byte("\r\n"))
	}
}

// openCodeHTTPError is an answer of the server that is not the transcript.
type openCodeHTTPError struct {
	path string
	err  error
}

func (e *openCodeHTTPError) Error() string { return "GET " + e.path + ": " + e.err.Error() }
func (e *openCodeHTTPError) Unwrap() error { return e.err }

// sessions is the server's session list, as rows of the CLI's.
func (s *openCodeServer) sessions() ([]openCodeListed, error) {
	b, err := s.get("/session")
	if err != nil {
		return nil, err
	}
	var rows []struct {
		ID        string `json:"id"`
		Directory string `json:"directory"`
		Time      struct {
			Created int64 `json:"created"`
		} `json:"time"`
	}
	if err := json.Unmarshal(b, &rows); err != nil {
		return nil, &openCodeHTTPError{path: "/session", err: err}
	}
	out := make([]openCodeListed, len(rows))
	for i, r := range rows {
		out[i] = openCodeListed{ID: r.ID, Directory: r.Directory, Created: r.Time.Created}
	}
	return out, nil
}

// messages is the session's transcript, as an export, and its raw text.
func (s *openCodeServer) messages(session string) (*openCodeExport, []byte, error) {
	path := "/session/" + session + "/message"
	b, err := s.get(path)
	if err != nil {
		return nil, nil, err
	}
	x := &openCodeExport{}
	if err := json.Unmarshal(b, &x.Messages); err != nil {
		return nil, nil, &openCodeHTTPError{path: path, err: err}
	}
	x.Info.ID = session
	return x, b, nil
}

// firstPrompt is the text of the session's first user message ("" when
// it has none yet, or it cannot be read).
func (s *openCodeServer) firstPrompt(session string) string {
	x, _, err := s.messages(session)
	if err != nil {
		return ""
	}
	return firstUserText(x)
}

// busy reports whether the TUI is still at work on the session; an
// unanswered question is no.
func (s *openCodeServer) busy(session string) bool {
	running, _ := s.running()
	return running[session]
}

// running is the sessions the TUI is at work on (GET /session/status:
// {ID: {type: "busy"}}; an idle one is left out).
func (s *openCodeServer) running() (map[string]bool, error) {
	b, err := s.get("/session/status")
	if err != nil {
		return nil, err
	}
	var st map[string]struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for id, v := range st {
		if v.Type != "" && v.Type != "idle" {
			out[id] = true
		}
	}
	return out, nil
}
