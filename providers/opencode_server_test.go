package providers

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/transcript"
)

// fakeTUIServer serves a session list and one session's messages as the
// TUI's server does, counting the requests.
type fakeTUIServer struct {
	mu       sync.Mutex
	list     string
	session  string
	messages []byte
	paths    []string
	auth     string
	status   string // GET /session/status; "": 404
}

func (f *fakeTUIServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.paths = append(f.paths, r.URL.Path)
	if u, p, ok := r.BasicAuth(); ok {
		f.auth = u + ":" + p
	}
	switch r.URL.Path {
	case "/session":
		_, _ = w.Write([]byte(f.list))
	case "/session/status":
		if f.status == "" {
			http.NotFound(w, r)
		}
		_, _ = w.Write([]byte(f.status))
	case "/session/" + f.session + "/message":
		_, _ = w.Write(f.messages)
	default:
		http.Error(w, `{"name":"NotFoundError"}`, http.StatusNotFound)
	}
}

// newFakeTUI is a server with the captured auto-mode session: its
// list row in the server's shape, its messages as the export has them.
func newFakeTUI(t *testing.T) (*fakeTUIServer, *openCodeExport, int) {
	t.Helper()
	raw, err := os.ReadFile("testdata/opencode-export-auto.json")
	if err != nil {
		t.Fatal(err)
	}
	var whole struct {
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(raw, &whole); err != nil {
		t.Fatal(err)
	}
	x, _ := parseOpenCodeExport(raw)
	f := &fakeTUIServer{session: x.Info.ID, messages: whole.Messages,
		list: `[{"id":"ses_other","directory":"/elsewhere","time":{"created":` + strconv.FormatInt(x.Info.Time.Created, 10) + `}},` +
			`{"id":"` + x.Info.ID + `","directory":"/home/u/ws","time":{"created":` + strconv.FormatInt(x.Info.Time.Created, 10) + `}}]`}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	port, _ := strconv.Atoi(srv.URL[strings.LastIndexByte(srv.URL, ':')+1:])
	return f, x, port
}

// TestOpenCodeServerTranscript: a TUI given a port (Args) has its
// transcript read from its server (the transcript opened with the same
// Launch): the session found in its list, then its messages, with the
// auth the TUI takes from its environment; the CLI is never run.
func TestOpenCodeServerTranscript(t *testing.T) {
	f, x, port := newFakeTUI(t)
	started := time.UnixMilli(x.Info.Time.Created - 5)
	l := Launch{Cwd: "/home/u/ws", Started: started, Getenv: func(k string) string {
		return map[string]string{"OPENCODE_SERVER_PASSWORD": "pw"}[k]
	}}
	args, err := openCodeTUI("opencode", "OPENCODE")(l)
	if err != nil || len(args) != 4 || args[0] != "--port" || args[2] != "--hostname" || args[3] != "127.0.0.1" {
		t.Fatalf("args %q, %v: want --port PORT --hostname 127.0.0.1", args, err)
	}
	if p, _ := strconv.Atoi(args[1]); p == 0 {
		t.Fatalf("port %q", args[1])
	}
	src := openCodeTranscript("opencode", "OPENCODE")(l)
	defer src.(io.Closer).Close()
	o, ok := transcript.As[*openCodeLog](src)
	if !ok {
		t.Fatalf("the transcript %T is no opencode log", src)
	}
	if o.srv == nil || !strings.HasSuffix(o.srv.base, ":"+args[1]) {
		t.Fatalf("the transcript does not read the TUI's server on port %s", args[1])
	}
	if a := openCodePortOf("opencode", l); a.pass != "" || o.srv.auth != "Authorization: Basic b3BlbmNvZGU6cHc=\r\n" {
		t.Errorf("the user's password: yume-cli made one up (%q), or does not send theirs (%q)", a.pass, o.srv.auth)
	}
	own := Launch{Cwd: "/home/u/ws", Started: started.Add(time.Second)}
	_, _ = openCodeTUI("kilo", "KILO")(own)
	env := strings.Join(openCodeTUIEnv("kilo", "KILO")(own), " ")
	if a := openCodePortOf("kilo", own); a.pass == "" || !strings.Contains(env, "KILO_SERVER_USERNAME=kilo KILO_SERVER_PASSWORD="+a.pass) {
		t.Errorf("no password of the user's: want one made up and given to the TUI; env %q", env)
	}
	if noPort, _ := openCodeTUI("opencode", "OPENCODE")(Launch{}); len(noPort) != 0 {
		t.Errorf("args of a TUI not being started: %q", noPort)
	}
	o.srv = newOpenCodeServer(context.Background(), "opencode", "OPENCODE", port, "", l.Getenv) // the fake's port
	o.run = func(...string) ([]byte, error) { t.Fatal("the CLI was run"); return nil, nil }
	o.dir = "/home/u/ws"

	asked := time.Now()
	o.read()
	evs, err := o.take()
	if err != nil || len(evs) != 1 || evs[0].Session != x.Info.ID {
		t.Fatalf("first read: %+v, %v; want the session", evs, err)
	}
	if o.ReadSince(asked) {
		t.Error("ReadSince after finding the session only: the messages were not read yet")
	}
	f.mu.Lock()
	f.status = `{"` + x.Info.ID + `":{"type":"busy"}}`
	f.mu.Unlock()
	o.read()
	if o.ReadSince(asked) {
		t.Error("ReadSince before Poll handed the read over: the driver does not have its calls")
	}
	if evs, err = o.take(); err != nil || kinds(evs) != "prompt text tool_call tool_result text" {
		t.Errorf("second read, the TUI busy: %s, %v; want no turn end yet", kinds(evs), err)
	}
	if evs[2].Input["command"] != longCommand {
		t.Errorf("call %+v", evs[2])
	}
	f.mu.Lock()
	f.status = `{}`
	f.mu.Unlock()
	o.read()
	if evs, err = o.take(); err != nil || kinds(evs) != "turn_end" {
		t.Errorf("third read, the TUI at rest: %s, %v", kinds(evs), err)
	}
	if wait := time.Until(o.nextAt); wait > openCodeServerIdleGap {
		t.Errorf("next read in %v, want at most %v", wait, openCodeServerIdleGap)
	}
	msgs := "/session/" + x.Info.ID + "/message|/session/status"
	if want := "/session|/session/status|" + msgs + "|" + msgs; strings.Join(f.paths, "|") != want || f.auth != "opencode:pw" {
		t.Errorf("requests %q (auth %q), want %q", f.paths, f.auth, want)
	}
	if !o.ReadSince(asked) || o.ReadSince(time.Now()) {
		t.Errorf("ReadSince(asked) = %v, ReadSince(now) = %v; want true, false", o.ReadSince(asked), o.ReadSince(time.Now()))
	}
	if !strings.Contains(o.Path(), "/session/"+x.Info.ID+"/message") {
		t.Errorf("Path %q", o.Path())
	}
}

// freePort is a loopback port nothing listens on.
func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	return port
}

// TestOpenCodeServerFallback: a server that is not up yet is no failure
// (whatever the time, while the TUI has not drawn: it is starting); one
// that never answers within openCodeServerWait of the TUI's first drawing
// gives way to the CLI;
// a session to resume that the server does not know (404) is gone; a
// server that answered and then stops (the TUI is gone) fails the reads.
func TestOpenCodeServerFallback(t *testing.T) {
	export, err := os.ReadFile("testdata/opencode-export-auto.json")
	if err != nil {
		t.Fatal(err)
	}
	x, _ := parseOpenCodeExport(export)
	down := freePort(t)
	cli := &fakeCLI{export: export}
	o := &openCodeLog{name: "opencode", run: cli.run, dir: "/home/u/ws", session: x.Info.ID,
		srv: newOpenCodeServer(context.Background(), "opencode", "OPENCODE", down, "", nil)}
	for i := 0; i < openCodeFails+1; i++ {
		o.read()
	}
	if evs, err := o.take(); err != nil || len(evs) != 0 || o.Path() == "" || len(cli.calls) != 0 || o.viaCLI {
		t.Fatalf("a TUI not drawing yet: %s, %v, Path %q, CLI %q", kinds(evs), err, o.Path(), cli.calls)
	}
	o.ProgramDrew()
	o.read()
	if evs, err := o.take(); err != nil || len(evs) != 0 || len(cli.calls) != 0 || o.viaCLI {
		t.Fatalf("a server not up yet, the TUI drawing: %s, %v, CLI %q", kinds(evs), err, cli.calls)
	}
	o.drewAt = time.Now().Add(-openCodeServerWait - time.Second)
	o.read()
	if !o.viaCLI || !strings.Contains(o.Path(), "export") || time.Until(o.nextAt) > 0 {
		t.Fatalf("past the wait: Path %q, next read in %v; want the CLI at once", o.Path(), time.Until(o.nextAt))
	}
	o.read()
	if evs, err := o.take(); err != nil || kinds(evs) != "prompt text tool_call tool_result text turn_end" || len(cli.calls) != 1 {
		t.Errorf("through the CLI: %s, %v, CLI %q", kinds(evs), err, cli.calls)
	}

	locked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer locked.Close()
	lport, _ := strconv.Atoi(locked.URL[strings.LastIndexByte(locked.URL, ':')+1:])
	pw := &openCodeLog{name: "kilo", run: cli.run, session: x.Info.ID,
		srv: newOpenCodeServer(context.Background(), "kilo", "KILO", lport, "", nil)}
	pw.read()
	if _, err := pw.take(); err != nil || !pw.viaCLI {
		t.Errorf("a server that wants a password: err %v, via the CLI %v; want the CLI", err, pw.viaCLI)
	}

	_, _, port := newFakeTUI(t)
	gone := &openCodeLog{name: "kilo", session: "ses_gone",
		srv: newOpenCodeServer(context.Background(), "kilo", "KILO", port, "", nil)}
	gone.read()
	if _, err := gone.take(); err == nil || gone.Path() != "" {
		t.Errorf("a session the server does not know: err %v, Path %q", err, gone.Path())
	}

	f, _, _ := newFakeTUI(t)
	srv := httptest.NewServer(f)
	port, _ = strconv.Atoi(srv.URL[strings.LastIndexByte(srv.URL, ':')+1:])
	stopped := &openCodeLog{name: "opencode", session: f.session,
		srv: newOpenCodeServer(context.Background(), "opencode", "OPENCODE", port, "", nil)}
	stopped.read()
	if evs, err := stopped.take(); err != nil || len(evs) == 0 {
		t.Fatalf("a server up: %s, %v", kinds(evs), err)
	}
	srv.Close()
	for i := 0; i < openCodeFails; i++ {
		stopped.read()
	}
	if _, err := stopped.take(); err == nil || stopped.Path() != "" {
		t.Errorf("a server that stopped: err %v, Path %q", err, stopped.Path())
	}
}

// TestParseHTTPResponse: a response with a length, a chunked one, and
// ones cut short.
func TestParseHTTPResponse(t *testing.T) {
	for _, c := range []struct {
		in, body string
		status   int
		bad      bool
	}{
		{in: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]", body: "[]", status: 200},
		{in: "HTTP/1.1 404 Not Found\r\ncontent-length: 4\r\n\r\n{}\r\n", body: "{}\r\n", status: 404},
		{in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n[{}\r\nb;x=y\r\n,{\"a\":\"\r\n\"}\r\n1\r\n]\r\n0\r\n\r\n", body: "[{},{\"a\":\"\r\n\"}]", status: 200},
		{in: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n[]", bad: true},
		{in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n[]", bad: true},
		{in: "HTTP/1.1 200 OK\r\n", bad: true},
		{in: "SSH-2.0\r\n\r\n", bad: true},
	} {
		status, body, err := parseHTTPResponse([]byte(c.in))
		if c.bad != (err != nil) || !c.bad && (status != c.status || string(body) != c.body) {
			t.Errorf("%q: %d %q %v", c.in, status, body, err)
		}
	}
}

// TestOpenCodeServerLosesItsFirstRequest: a starting server that accepts
// a request and never answers it (opencode's and Kilo's, as they start)
// holds the transcript up for openCodeServerFirst, not openCodeServerRead;
// the bound doubles while no answer came, and is the whole one after.
func TestOpenCodeServerLosesItsFirstRequest(t *testing.T) {
	f, x, port := newFakeTUI(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	held := make(chan net.Conn, 1)
	go func() {
		for n := 0; ; n++ {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if n == 0 {
				held <- c // never answered
				continue
			}
			go proxy(c, port)
		}
	}()
	defer func() {
		select {
		case c := <-held:
			c.Close()
		default:
		}
	}()
	o := &openCodeLog{name: "opencode", dir: "/home/u/ws",
		srv: newOpenCodeServer(context.Background(), "opencode", "OPENCODE", ln.Addr().(*net.TCPAddr).Port, "", nil)}
	o.run = func(...string) ([]byte, error) { t.Fatal("the CLI was run"); return nil, nil }
	began := time.Now()
	o.read()
	if took := time.Since(began); took >= openCodeServerRead {
		t.Errorf("the lost request held the read %v, want about %v", took, openCodeServerFirst)
	}
	if evs, err := o.take(); err != nil || len(evs) != 0 || o.srv.requestBound() != 2*openCodeServerFirst || o.SessionFound() {
		t.Errorf("after a lost request: %s, %v, next bound %v, found %v; want nothing, no error, %v, not found", kinds(evs), err, o.srv.requestBound(), o.SessionFound(), 2*openCodeServerFirst)
	}
	o.read()
	if evs, err := o.take(); err != nil || len(evs) != 1 || evs[0].Session != x.Info.ID || !o.SessionFound() {
		t.Fatalf("the next read: %s, %v, found %v; want the session, found", kinds(evs), err, o.SessionFound())
	}
	if o.srv.requestBound() != openCodeServerRead {
		t.Errorf("bound once the server answered: %v, want %v", o.srv.requestBound(), openCodeServerRead)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if strings.Join(f.paths, " ") != "/session /session/status" {
		t.Errorf("requests that reached the server: %q; want the list and the status, once", f.paths)
	}
}

// proxy passes c to the server on port.
func proxy(c net.Conn, port int) {
	defer c.Close()
	s, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return
	}
	defer s.Close()
	go func() { _, _ = io.Copy(s, c) }()
	_, _ = io.Copy(c, s)
}

// TestOpenCodeServerPicksItsOwnSession: two TUIs started at once in one
// workspace share the program's database, so each lists both sessions;
// the one its own server says it is at work on is its own, though the
// other was created first.
func TestOpenCodeServerPicksItsOwnSession(t *testing.T) {
	f, x, port := newFakeTUI(t)
	created := strconv.FormatInt(x.Info.Time.Created, 10)
	f.mu.Lock()
	f.list = `[{"id":"ses_twin","directory":"/home/u/ws","time":{"created":` + created + `}},` +
		`{"id":"` + x.Info.ID + `","directory":"/home/u/ws","time":{"created":` + created + `1}}]`
	f.status = `{"` + x.Info.ID + `":{"type":"busy"}}`
	f.mu.Unlock()
	o := &openCodeLog{name: "opencode", dir: "/home/u/ws",
		srv: newOpenCodeServer(context.Background(), "opencode", "OPENCODE", port, "", nil)}
	o.read()
	if evs, err := o.take(); err != nil || len(evs) != 1 || evs[0].Session != x.Info.ID {
		t.Errorf("found %+v, %v; want %s, the session at work, not the twin created first", evs, err, x.Info.ID)
	}
}
