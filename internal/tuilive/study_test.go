package tuilive

import (
	"encoding/json"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/internal/fakemodel/offline"
)

// TestStudyServe keeps a fake server and sandbox alive for manual study (tmux).
func TestStudyServe(t *testing.T) {
	out := os.Getenv("YUME_STUDY_OUT")
	if out == "" {
		t.Skip("study tool")
	}
	var replies []fakemodel.Reply
	if err := json.Unmarshal([]byte(os.Getenv("YUME_STUDY_SCRIPT")), &replies); err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.New(fakemodel.Script{Replies: replies})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	bin, _ := filepath.Abs("../../.e2e/npm/node_modules/.bin")
	sb, err := offline.Setup(os.Getenv("YUME_STUDY_PROVIDER"), out, srv.URL(), bin)
	if err != nil {
		t.Fatal(err)
	}
	var env strings.Builder
	for _, kv := range sb.Env {
		if strings.HasPrefix(kv, "TERM=") || strings.HasPrefix(kv, "NO_COLOR=") || strings.HasPrefix(kv, "CI=") {
			continue
		}
		env.WriteString("export " + strings.Replace(kv, "=", "='", 1) + "'\n")
	}
	env.WriteString("export TERM=xterm-256color\ncd " + sb.Workspace + "\n")
	os.WriteFile(filepath.Join(out, "env.sh"), []byte(env.String()), 0o644)
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt)
	<-c
	reqs, _ := json.MarshalIndent(srv.Requests(), "", " ")
	os.WriteFile(filepath.Join(out, "requests.json"), reqs, 0o644)
}
