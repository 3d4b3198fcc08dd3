//go:build unix

package sessions

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The crash tests run the test binary as a writer and kill it with
// SIGKILL: at random moments (YUME_STORE_CRASHER), or at a named step of a
// write (YUME_STORE_KILLAT). After each kill every session file must read,
// and List must list exactly the sessions that read, as they read; a
// session a writer finished storing is there, with at least what it
// stored, unless a writer was removing it.

func init() {
	helpers = append(helpers, crasher, killAt)
	syncDisk = func() { _ = unixSync() } // Best effort: a disk that cannot sync only times worse.
}

// crasher is a writer that never stops: it creates, continues, removes
// and lists sessions at random, printing each one done ("saved ID N" with
// the history's length, "removed ID"), until it is killed.
func crasher() {
	root := os.Getenv("YUME_STORE_CRASHER")
	if root == "" {
		return
	}
	seed, _ := strconv.ParseUint(os.Getenv("YUME_STORE_SEED"), 10, 64)
	rng := rand.New(rand.NewPCG(seed, 1))
	st := Open(root)
	var ids []string
	if idx, err := st.List(); err == nil {
		for _, e := range idx {
			ids = append(ids, e.ID)
		}
	}
	fmt.Println("ready")
	for i := 0; ; i++ {
		var err error
		switch r := rng.IntN(20); {
		case r < 5 || len(ids) == 0:
			s := testSession(fmt.Sprintf("c%d-%d", seed, i))
			s.Provider = []string{"claude", "codex", "gemini"}[rng.IntN(3)]
			if err = st.Save(s); err == nil {
				ids = append(ids, s.ID)
				fmt.Printf("saved %s %d\n", s.ID, len(s.History))
			}
		case r < 15:
			id := ids[rng.IntN(len(ids))]
			var s *Session
			if s, err = st.Load(id); err == nil {
				s.History = append(s.History, Entry{Role: "user", Text: fmt.Sprintf("turn %d", i)}, Entry{Role: "assistant", Text: strings.Repeat("ok ", rng.IntN(2000))})
				s.Updated = time.Now().UTC()
				if err = st.Save(s); err == nil {
					fmt.Printf("saved %s %d\n", s.ID, len(s.History))
				}
			}
		case r < 17:
			j := rng.IntN(len(ids))
			id := ids[j]
			fmt.Printf("removing %s\n", id) // a writer killed now may have removed it
			if err = st.Remove(id); err == nil {
				ids = slices.Delete(ids, j, j+1)
				fmt.Printf("removed %s\n", id)
			}
		default:
			_, err = st.List()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "crasher:", err)
			os.Exit(2)
		}
	}
}

// TestKilledWriterLeavesEverySessionReadable kills a writer at random
// moments, again and again on one store; the seed is logged
// (YUME_STORE_SEED repeats a run).
func TestKilledWriterLeavesEverySessionReadable(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("YUME_STORE_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (YUME_STORE_SEED=%d repeats it)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	root := t.TempDir()
	want := map[string]int{} // what a writer said it stored: the history's least length
	rounds := 30
	if testing.Short() {
		rounds = 8
	}
	for round := range rounds {
		runSeed := rng.Uint64() % 1e9
		delay := time.Duration(rng.IntN(30_000)) * time.Microsecond
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "YUME_STORE_CRASHER="+root, "YUME_STORE_SEED="+strconv.FormatUint(runSeed, 10))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 1024)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		if l := <-lines; l != "ready" {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("round %d: the writer said %q, not ready; stderr: %s", round, l, stderr.String())
		}
		time.Sleep(delay)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		ops := 0
		for l := range lines {
			if !strings.HasPrefix(l, "removing ") {
				ops++
			}
			f := strings.Fields(l)
			switch {
			case len(f) == 3 && f[0] == "saved":
				n, _ := strconv.Atoi(f[2])
				want[f[1]] = n
			case len(f) == 2 && (f[0] == "removing" || f[0] == "removed"):
				delete(want, f[1])
			default:
				t.Fatalf("round %d: the writer printed %q", round, l)
			}
		}
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("round %d: the writer was not killed (%v); stderr: %s", round, err, stderr.String())
		}
		t.Logf("round %d: writer seed %d killed after %v, %d operations done", round, runSeed, delay, ops)
		checkStore(t, fmt.Sprintf("seed %d round %d", seed, round), root, want)
	}
}

// checkStore: every session file reads; every session a writer finished
// storing is there with at least the history it stored; and List, run on
// a copy (so that the next writer meets the store as the kill left it),
// lists exactly the sessions that read, as they read, and leaves no temp
// file behind.
func checkStore(t *testing.T, what, root string, want map[string]int) {
	t.Helper()
	st := Open(root)
	read := map[string]*Session{}
	files, _ := filepath.Glob(filepath.Join(root, "*", "*"+sessionExt))
	for _, p := range files {
		id := strings.TrimSuffix(filepath.Base(p), sessionExt)
		sess, err := st.Load(id)
		if err != nil {
			t.Fatalf("%s: session %s does not read: %v", what, id, err)
		}
		read[id] = sess
	}
	for id, n := range want {
		if s := read[id]; s == nil || len(s.History) < n {
			t.Fatalf("%s: session %s was stored with %d entries; now %+v", what, id, n, s)
		}
	}
	cp := filepath.Join(t.TempDir(), "copy")
	if err := copyTree(root, cp); err != nil {
		t.Fatal(err)
	}
	idx, err := Open(cp).List()
	if err != nil {
		t.Fatalf("%s: List: %v", what, err)
	}
	if len(idx) != len(read) {
		t.Fatalf("%s: List has %d sessions, %d session files read", what, len(idx), len(read))
	}
	for _, e := range idx {
		s := read[e.ID]
		if s == nil || !sameEntry(e, s.index()) {
			t.Fatalf("%s: List says %+v; the session file reads %+v", what, e, s)
		}
	}
	temps, _ := filepath.Glob(filepath.Join(cp, "*", tmpPrefix+"*"))
	if len(temps) > 0 {
		t.Fatalf("%s: List left temp files: %v", what, temps)
	}
}

func sameEntry(a, b IndexEntry) bool {
	return a.Updated.Equal(b.Updated) && a.ID == b.ID && a.Provider == b.Provider && a.Model == b.Model && a.Cwd == b.Cwd && a.Title == b.Title && a.MessageCount == b.MessageCount
}

// copyTree copies a store, modification times kept (entries name them).
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o700)
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		src, err := os.Open(p)
		if err != nil {
			return err
		}
		defer src.Close()
		out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, src); err != nil {
			_ = out.Close()
			return err
		}
		if err := out.Close(); err != nil {
			return err
		}
		return os.Chtimes(dst, fi.ModTime(), fi.ModTime())
	})
}

// killAt runs one operation (YUME_STORE_OP) and kills itself at the step
// YUME_STORE_KILLAT names.
func killAt() {
	root, at := os.Getenv("YUME_STORE_ROOT"), os.Getenv("YUME_STORE_KILLAT")
	if at == "" {
		return
	}
	crashPoint = func(p string) {
		if p == at {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
	}
	st := Open(root)
	var err error
	switch op := os.Getenv("YUME_STORE_OP"); op {
	case "new":
		err = st.Save(testSession("new"))
	case "continue":
		var s *Session
		if s, err = st.Load("s1"); err == nil {
			s.History = append(s.History, Entry{Role: "user", Text: "again"}, Entry{Role: "assistant", Text: "ok"})
			err = st.Save(s)
		}
	case "remove":
		err = st.Remove("s1")
	case "list":
		_, err = st.List()
	default:
		err = fmt.Errorf("no op %q", op)
	}
	fmt.Fprintf(os.Stderr, "killAt: %s not reached (%v)\n", at, err)
	os.Exit(3)
}

// TestKillAtEveryStep kills a writer at each step of each write: the
// session is there as it was or as it was being stored, never half
// written, and List puts the store right.
func TestKillAtEveryStep(t *testing.T) {
	steps := map[string][]string{
		"new":      {"save:locked", "write:written.json", "write:before-rename.json", "save:session-renamed", "entry:truncated"},
		"continue": {"save:locked", "write:written.json", "write:before-rename.json", "save:session-renamed", "entry:truncated"},
		"remove":   {"remove:locked", "remove:session-removed"},
		"list":     {"list:entry-made", "entry:truncated"},
	}
	for _, op := range []string{"new", "continue", "remove", "list"} {
		for _, at := range steps[op] {
			t.Run(op+"/"+at, func(t *testing.T) {
				root := t.TempDir()
				st := Open(root)
				for _, id := range []string{"s1", "s2", "s3"} {
					if err := st.Save(testSession(id)); err != nil {
						t.Fatal(err)
					}
				}
				if op == "list" { // s2's entry made stale, as a writer killed before it would leave it
					s := testSession("s2")
					s.History = append(s.History, Entry{Role: "user", Text: "more"})
					b, _ := json.MarshalIndent(s, "", "  ")
					time.Sleep(10 * time.Millisecond) // a newer modification time, on coarse clocks too
					if err := os.WriteFile(st.path("claude", "s2"), b, 0o600); err != nil {
						t.Fatal(err)
					}
				}
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), "YUME_STORE_ROOT="+root, "YUME_STORE_KILLAT="+at, "YUME_STORE_OP="+op)
				out, _ := cmd.CombinedOutput()
				if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
					t.Fatalf("the writer was not killed at %s: %s", at, out)
				}
				want := map[string]int{"s2": 2, "s3": 2}
				if op != "remove" {
					want["s1"] = 2
				}
				checkStore(t, op+" killed at "+at, root, want)
				if s, err := st.Load("s1"); err == nil && len(s.History) != 2 && len(s.History) != 4 {
					t.Errorf("s1 has %d entries: neither as it was nor as it was being stored", len(s.History))
				}
				// The store goes on: List puts it right, a turn is stored.
				if _, err := st.List(); err != nil {
					t.Fatal(err)
				}
				if err := st.Save(testSession("after")); err != nil {
					t.Fatal(err)
				}
				checkStore(t, op+" killed at "+at+", then a turn", root, want)
				if _, err := os.Stat(filepath.Join(root, "claude", "after"+entryExt)); err != nil {
					t.Errorf("no entry for the turn after: %v", err)
				}
				if temps, _ := filepath.Glob(filepath.Join(root, "*", tmpPrefix+"*")); len(temps) > 0 {
					t.Errorf("temp files left after List: %v", temps)
				}
			})
		}
	}
}
