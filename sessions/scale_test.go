package sessions

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// buildStore writes n sessions straight into a store, as Save would leave
// them but without its fsyncs, so that a store of 100,000 takes seconds.
func buildStore(tb testing.TB, root string, n int) {
	tb.Helper()
	dir := filepath.Join(root, "claude")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		s := testSession(benchID(i))
		b, _ := json.MarshalIndent(s, "", "  ")
		p := filepath.Join(dir, s.ID+sessionExt)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			tb.Fatal(err)
		}
		fi, err := os.Lstat(p)
		if err != nil {
			tb.Fatal(err)
		}
		e, _ := json.Marshal(newEntry(s.index(), fi))
		if err := os.WriteFile(filepath.Join(dir, s.ID+entryExt), e, 0o600); err != nil {
			tb.Fatal(err)
		}
	}
}

// syncDisk writes what buildStore left in the page cache to disk, so
// that a turn's fsync does not wait for it (sync(2) where there is one).
var syncDisk = func() {}

func benchID(i int) string { return fmt.Sprintf("sess-%06d", i) }

// turn is what the store does for one message of a resumed conversation:
// the session looked up by id, the turn appended and stored.
func turn(tb testing.TB, st *Store, id string) {
	s, err := st.Load(id)
	if err != nil {
		tb.Fatal(err)
	}
	now := time.Now().UTC()
	s.History = append(s.History, Entry{Role: "user", Time: now, Text: "again"}, Entry{Role: "assistant", Time: now, Text: "ok"})
	s.Updated = now
	if err := st.Save(s); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkTurn: a turn's cost with 100, 10,000 and 100,000 sessions in
// the store (go test -run '^$' -bench Turn -benchtime 200x ./sessions/).
// It does not grow with the store. Most of it is the session file's
// fsync, which is the disk's: fsync-ns/op is, measured between the turns
// (off the clock), one bare write of a session-sized file the way Save
// writes it (temp file, fsync, rename) in the same directory, so that
// ns/op less fsync-ns/op is the store's own work.
func BenchmarkTurn(b *testing.B) {
	for _, n := range []int{100, 10_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			root := b.TempDir()
			buildStore(b, root, n)
			syncDisk() // the store on disk, as a store that grew over months is
			st := Open(root)
			s := testSession("floor")
			s.History = append(s.History, s.History...)
			body, _ := json.MarshalIndent(s, "", "  ")
			var floor time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				turn(b, st, benchID((i*7919)%n))
				b.StopTimer()
				t0 := time.Now()
				if _, err := writeAtomic(filepath.Join(root, "claude", "floor"), body, true); err != nil {
					b.Fatal(err)
				}
				floor += time.Since(t0)
				b.StartTimer()
			}
			b.ReportMetric(float64(floor.Nanoseconds())/float64(b.N), "fsync-ns/op")
		})
	}
}

// BenchmarkTurnInterleaved is BenchmarkTurn with the three stores side
// by side: each iteration stores one turn in each, so that a machine
// whose load changes while it runs weighs on every size alike. It reports
// each size's mean and median turn (ns/turn).
func BenchmarkTurnInterleaved(b *testing.B) {
	sizes := []int{100, 10_000, 100_000}
	stores := make([]*Store, len(sizes))
	for k, n := range sizes {
		root := b.TempDir()
		buildStore(b, root, n)
		stores[k] = Open(root)
	}
	syncDisk()
	took := make([][]time.Duration, len(sizes))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, n := range sizes {
			t0 := time.Now()
			turn(b, stores[k], benchID((i*7919)%n))
			took[k] = append(took[k], time.Since(t0))
		}
	}
	b.StopTimer()
	for k, n := range sizes {
		var sum time.Duration
		for _, d := range took[k] {
			sum += d
		}
		slices.Sort(took[k])
		b.ReportMetric(float64(sum.Nanoseconds())/float64(b.N), fmt.Sprintf("mean-%d-ns/turn", n))
		b.ReportMetric(float64(took[k][b.N/2].Nanoseconds()), fmt.Sprintf("p50-%d-ns/turn", n))
	}
}

// BenchmarkList: `sessions list` reads every entry (it is not per turn).
func BenchmarkList(b *testing.B) {
	for _, n := range []int{100, 10_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			root := b.TempDir()
			buildStore(b, root, n)
			st := Open(root)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if idx, err := st.List(); err != nil || len(idx) != n {
					b.Fatalf("List: %d entries, %v", len(idx), err)
				}
			}
		})
	}
}

// TestTurnTouchesOnlyItsSession: storing a turn changes that session's
// files and no other file in the store; nothing of the store's size is
// read or written.
func TestTurnTouchesOnlyItsSession(t *testing.T) {
	root := t.TempDir()
	buildStore(t, root, 50)
	st := Open(root)
	if _, err := st.List(); err != nil { // a clean store: nothing for List to put right
		t.Fatal(err)
	}
	snap := func() map[string]string {
		m := map[string]string{}
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				fi, _ := d.Info()
				m[p] = fmt.Sprint(fi.Size(), fi.ModTime().UnixNano())
			}
			return nil
		})
		return m
	}
	before := snap()
	time.Sleep(10 * time.Millisecond) // coarse clocks
	id := benchID(17)
	turn(t, st, id)
	after := snap()
	mine := map[string]bool{st.path("claude", id): true, st.entryPath("claude", id): true, filepath.Join(root, ".lock"): true}
	for p, v := range after {
		if before[p] != v && !mine[p] {
			t.Errorf("a turn of %s changed %s", id, p)
		}
		if before[p] == v && mine[p] && !strings.HasSuffix(p, ".lock") {
			t.Errorf("a turn of %s did not change %s", id, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("a turn of %s removed %s", id, p)
		}
	}
}

// TestLegacyIndexMigrated: a store of the whole-file index.json (as
// earlier versions left it, with a stray temp file) lists every session;
// the entries are made, index.json is removed, and turns go on.
func TestLegacyIndexMigrated(t *testing.T) {
	root := t.TempDir()
	var idx []IndexEntry
	for i, p := range []string{"claude", "codex", "claude"} {
		s := testSession(fmt.Sprint("old-", i))
		s.Provider = p
		s.Updated = time.Date(2025, 1, 1+i, 0, 0, 0, 0, time.UTC)
		b, _ := json.MarshalIndent(s, "", "  ")
		if err := os.MkdirAll(filepath.Join(root, p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p, s.ID+".json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
		idx = append(idx, s.index())
	}
	b, _ := json.MarshalIndent(idx, "", "  ")
	_ = os.WriteFile(filepath.Join(root, "index.json"), b, 0o600)
	_ = os.WriteFile(filepath.Join(root, ".tmp-123"), b[:10], 0o600)
	st := Open(root)
	got, err := st.List()
	if err != nil || len(got) != 3 || got[0].ID != "old-2" || got[2].ID != "old-0" || got[1].Provider != "codex" || got[0].Title != "fix the test" {
		t.Fatalf("List = %+v, %v; want the three old sessions, newest first", got, err)
	}
	for _, p := range []string{"index.json", ".tmp-123"} {
		if _, err := os.Stat(filepath.Join(root, p)); err == nil {
			t.Errorf("%s is still there after the migration", p)
		}
	}
	for i, p := range []string{"claude", "codex", "claude"} {
		if _, err := os.Stat(st.entryPath(p, fmt.Sprint("old-", i))); err != nil {
			t.Errorf("no entry made: %v", err)
		}
	}
	turn(t, st, "old-1")
	if got, _ := st.List(); len(got) != 3 || got[0].ID != "old-1" || got[0].MessageCount != 4 {
		t.Errorf("List after a turn = %+v", got)
	}
}

// TestStaleEntryRemade: a session file newer than its entry (a writer
// killed between the two), an entry without its session (killed between
// the two removals) and an unreadable entry are put right by List.
func TestStaleEntryRemade(t *testing.T) {
	st := Open(t.TempDir())
	for _, id := range []string{"a", "b", "c"} {
		if err := st.Save(testSession(id)); err != nil {
			t.Fatal(err)
		}
	}
	s := testSession("a")
	s.History = append(s.History, Entry{Role: "user", Text: "more"}, Entry{Role: "assistant", Text: "yes"})
	b, _ := json.MarshalIndent(s, "", "  ")
	time.Sleep(10 * time.Millisecond)
	_ = os.WriteFile(st.path("claude", "a"), b, 0o600)
	_ = os.Remove(st.path("claude", "b"))
	_ = os.WriteFile(st.entryPath("claude", "c"), []byte("{"), 0o600)
	got, err := st.List()
	if err != nil || len(got) != 2 {
		t.Fatalf("List = %+v, %v; want a and c", got, err)
	}
	for _, e := range got {
		if e.ID == "a" && e.MessageCount != 4 || e.ID == "c" && e.MessageCount != 2 || e.ID == "b" {
			t.Errorf("entry %+v", e)
		}
	}
	if _, err := os.Stat(st.entryPath("claude", "b")); err == nil {
		t.Errorf("the entry of a removed session is still there")
	}
}

// TestSameIDTwoProviders: Load finds an id in the first provider's
// directory by name, as the glob it replaces did.
func TestSameIDTwoProviders(t *testing.T) {
	st := Open(t.TempDir())
	for _, p := range []string{"gemini", "codex"} {
		s := testSession("x")
		s.Provider = p
		if err := st.Save(s); err != nil {
			t.Fatal(err)
		}
	}
	_ = os.WriteFile(filepath.Join(st.Root(), "stray"), nil, 0o600) // a file, not a provider
	if s, err := st.Load("x"); err != nil || s.Provider != "codex" {
		t.Errorf("Load = %+v, %v; want codex's", s, err)
	}
}
