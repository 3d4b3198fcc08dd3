package offline

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// TestCapture records one real CLI run against the fake server; it is a tool
// for refreshing the captures under structured/testdata, not a check. Run:
//
//	YUME_CAPTURE_OUT=/tmp/cap YUME_CAPTURE_PROVIDER=claude \
//	YUME_CAPTURE_ARGS='["-p","hi","--output-format","stream-json","--verbose"]' \
//	YUME_CAPTURE_SCRIPT='[{"Text":"hello"}]' go test -run TestCapture ./internal/fakemodel/offline
//
// The CLIs are looked up in PATH and in .e2e/bin (make e2e-deps).
// The args may use {WS} for the workspace path. It writes stdout.jsonl,
// stderr.txt and requests.json to YUME_CAPTURE_OUT.
func TestCapture(t *testing.T) {
	out := os.Getenv("YUME_CAPTURE_OUT")
	if out == "" {
		t.Skip("capture tool: set YUME_CAPTURE_OUT, YUME_CAPTURE_PROVIDER, YUME_CAPTURE_ARGS, YUME_CAPTURE_SCRIPT")
	}
	provider := os.Getenv("YUME_CAPTURE_PROVIDER")
	var args []string
	var replies []fakemodel.Reply
	if err := json.Unmarshal([]byte(os.Getenv("YUME_CAPTURE_ARGS")), &args); err != nil {
		t.Fatalf("YUME_CAPTURE_ARGS: %v", err)
	}
	if err := json.Unmarshal([]byte(os.Getenv("YUME_CAPTURE_SCRIPT")), &replies); err != nil {
		t.Fatalf("YUME_CAPTURE_SCRIPT: %v", err)
	}
	srv, err := fakemodel.New(fakemodel.Script{Replies: replies, RepeatLast: os.Getenv("YUME_CAPTURE_REPEAT") != ""})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	bin, _ := filepath.Abs("../../../.e2e/bin")
	sb, err := Setup(provider, t.TempDir(), srv.URL(), bin)
	if err != nil {
		t.Fatal(err)
	}
	for i := range args {
		args[i] = strings.ReplaceAll(args[i], "{WS}", sb.Workspace)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	path, err := lookPath(provider, sb.Env)
	if err != nil {
		t.Fatalf("%s not installed: %v", provider, err)
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env, cmd.Dir = sb.Env, sb.Workspace
	if os.Getenv("YUME_CAPTURE_STDIN") != "" {
		cmd.Stdin = strings.NewReader(os.Getenv("YUME_CAPTURE_STDIN"))
	}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	t.Logf("exit: %v", runErr)
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	type rec struct {
		Dialect fakemodel.Dialect
		Method  string
		Path    string
		Query   string
		Agent   bool
		Reply   int
		Body    json.RawMessage
	}
	var recs []rec
	for _, r := range srv.Requests() {
		body := json.RawMessage(r.Body)
		if !json.Valid(body) {
			body, _ = json.Marshal(string(r.Body))
		}
		recs = append(recs, rec{r.Dialect, r.Method, r.Path, r.Query, r.Agent, r.Reply, body})
	}
	reqs, _ := json.MarshalIndent(recs, "", " ")
	for name, data := range map[string]string{"stdout.jsonl": stdout.String(), "stderr.txt": stderr.String(), "requests.json": string(reqs)} {
		if err := os.WriteFile(filepath.Join(out, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("workspace %s", sb.Workspace)
}

// lookPath resolves name in the sandbox PATH.
func lookPath(name string, env []string) (string, error) {
	for _, kv := range env {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, dir := range filepath.SplitList(p) {
				if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && !fi.IsDir() {
					return filepath.Join(dir, name), nil
				}
			}
		}
	}
	return exec.LookPath(name)
}
