package sessions

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestMain lets the test binary be a writer process (YUME_STORE_WRITER).
func TestMain(m *testing.M) {
	if root := os.Getenv("YUME_STORE_WRITER"); root != "" {
		n, _ := strconv.Atoi(os.Getenv("YUME_STORE_N"))
		prefix := os.Getenv("YUME_STORE_PREFIX")
		st := Open(root)
		for i := range n {
			if err := st.Save(testSession(fmt.Sprintf("%s-%d", prefix, i))); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	for _, h := range helpers {
		h() // exits the process when it is the helper asked for
	}
	os.Exit(m.Run())
}

// helpers are the other ways the test binary runs as a helper process.
var helpers []func()

func testSession(id string) *Session {
	now := time.Now().UTC()
	return &Session{ID: id, Provider: "claude", Model: "m", Cwd: "/ws", Created: now, Updated: now, Mode: "pty", Handle: "h-" + id,
		History: []Entry{{Role: "user", Text: "fix the test\nplease"}, {Role: "assistant", Text: "done"}}}
}

// TestConcurrentWriters: two processes each save 500 sessions at once;
// the index lists all 1,000.
func TestConcurrentWriters(t *testing.T) {
	root := t.TempDir()
	var cmds []*exec.Cmd
	for _, prefix := range []string{"a", "b"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "YUME_STORE_WRITER="+root, "YUME_STORE_N=500", "YUME_STORE_PREFIX="+prefix)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	idx, err := Open(root).List()
	if err != nil {
		t.Fatal(err)
	}
	if len(idx) != 1000 {
		t.Fatalf("index has %d entries, want 1000", len(idx))
	}
}

func TestLoadSaveListRemove(t *testing.T) {
	st := Open(t.TempDir())
	s := testSession("sess-1")
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	got, err := st.Load("sess-1")
	if err != nil || got.Handle != "h-sess-1" || len(got.History) != 2 {
		t.Fatalf("Load = %+v, %v", got, err)
	}
	fi, _ := os.Stat(filepath.Join(st.Root(), "claude", "sess-1.json"))
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("session file mode %v, want 0600", fi.Mode().Perm())
	}
	idx, _ := st.List()
	if len(idx) != 1 || idx[0].Title != "fix the test" || idx[0].MessageCount != 2 {
		t.Errorf("List = %+v", idx)
	}
	if err := st.Remove("sess-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Load("sess-1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Load after Remove: %v, want ErrNotFound", err)
	}
	if _, err := st.Load("../etc/passwd"); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("a path as id: %v", err)
	}
}

// TestCorruptIndexRebuilt: a corrupt or missing index is rebuilt from the
// session files.
func TestCorruptIndexRebuilt(t *testing.T) {
	st := Open(t.TempDir())
	for _, id := range []string{"s1", "s2"} {
		if err := st.Save(testSession(id)); err != nil {
			t.Fatal(err)
		}
	}
	for _, damage := range []func(){
		func() { _ = os.WriteFile(filepath.Join(st.Root(), "index.json"), []byte("{not json"), 0o600) },
		func() { _ = os.Remove(filepath.Join(st.Root(), "index.json")) },
	} {
		damage()
		idx, err := st.List()
		if err != nil || len(idx) != 2 {
			t.Errorf("List after damage = %v, %v; want 2 entries", idx, err)
		}
	}
}

// TestCorruptSessionLeftAlone: a corrupt session file is reported by
// Load, left byte for byte as it was, and kept out of the rebuilt index.
func TestCorruptSessionLeftAlone(t *testing.T) {
	st := Open(t.TempDir())
	if err := st.Save(testSession("good")); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(st.Root(), "claude", "bad.json")
	if err := os.WriteFile(bad, []byte(`{"id":"bad",`), 0o600); err != nil {
		t.Fatal(err)
	}
	var ce *CorruptError
	if _, err := st.Load("bad"); !errors.As(err, &ce) || ce.Path != bad {
		t.Errorf("Load(bad) = %v, want a CorruptError naming the file", err)
	}
	_ = os.Remove(filepath.Join(st.Root(), "index.json"))
	idx, _ := st.List()
	if len(idx) != 1 || idx[0].ID != "good" {
		t.Errorf("rebuilt index = %+v, want only the good session", idx)
	}
	if b, _ := os.ReadFile(bad); string(b) != `{"id":"bad",` {
		t.Errorf("the corrupt file was changed: %q", b)
	}
}
