package structured

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
)

var update = flag.Bool("update", false, "rewrite the .golden files from the translators' output")

// translate runs provider lines through its translator and returns the
// emitted stream and the number of malformed lines skipped.
func translate(t testing.TB, provider string, input []byte, exit error) ([]byte, int) {
	t.Helper()
	var out bytes.Buffer
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	w := emit.NewWriter(&out, emit.Config{SessionID: "sess-test", Model: "test-model", Cwd: "/ws",
		Now: func() time.Time { clock = clock.Add(time.Millisecond); return clock }})
	tr := newTestTranslator(t, provider, w)
	if c, ok := tr.Translator.(*codexTranslator); ok {
		c.salt = "s"
	}
	malformed := 0
	for _, line := range bytes.Split(input, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := tr.Line(line); err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("Line(%.80s): %v", line, err)
			}
			malformed++
		}
	}
	if err := tr.Finish(exit); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), malformed
}

var volatile = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`"uuid":"[0-9a-f-]{36}"`), `"uuid":"UUID"`},
	{regexp.MustCompile(`"msg_[0-9A-Za-z]{24}"`), `"msg_ID"`},
	{regexp.MustCompile(`"req_[0-9A-Za-z]{24}"`), `"req_ID"`},
}

// normalize replaces the random ids of a stream with placeholders.
func normalize(b []byte) []byte {
	for _, v := range volatile {
		b = v.re.ReplaceAll(b, []byte(v.repl))
	}
	return b
}

// TestCapturedStreams translates every real capture under testdata and
// compares with its golden file; every output must pass emit.Validate.
func TestCapturedStreams(t *testing.T) {
	files, err := filepath.Glob("testdata/*/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no captures found: %v", err)
	}
	for _, f := range files {
		provider := filepath.Base(filepath.Dir(f))
		if provider == "acp" {
			continue // ACP sessions are replayed by TestACPCaptures.
		}
		t.Run(provider+"/"+strings.TrimSuffix(filepath.Base(f), ".jsonl"), func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out, malformed := translate(t, provider, in, nil)
			if malformed != 0 {
				t.Errorf("%d malformed lines in a real capture", malformed)
			}
			for _, e := range emittest.Validate(out) {
				t.Errorf("conformance: %v", e)
			}
			checkGolden(t, strings.TrimSuffix(f, ".jsonl")+".golden", normalize(out))
		})
	}
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./structured -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (rerun with -update after checking):\n got: %s\nwant: %s", path, got, want)
	}
}
