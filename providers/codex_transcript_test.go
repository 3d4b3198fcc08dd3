package providers

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestCodexDayDirs(t *testing.T) {
	east, west := time.FixedZone("UTC+2", 2*3600), time.FixedZone("UTC-8", -8*3600)
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		name     string
		from, to time.Time
		zones    []*time.Location
		want     []string
	}{
		{"one day", at("2026-11-29T10:00:00Z"), at("2026-11-29T10:01:00Z"), []*time.Location{east, time.UTC}, []string{"2026/11/29"}},
		{"over local midnight", at("2026-11-29T21:59:00Z"), at("2026-11-29T22:01:00Z"), []*time.Location{east, time.UTC}, []string{"2026/11/29", "2026/11/30"}},
		{"local and UTC days differ", at("2026-11-29T01:00:00Z"), at("2026-11-29T01:00:02Z"), []*time.Location{west, time.UTC}, []string{"2026/11/28", "2026/11/29"}},
		{"over a month's end", at("2026-11-30T23:59:00Z"), at("2026-12-01T00:01:00Z"), []*time.Location{time.UTC}, []string{"2026/11/30", "2026/12/01"}},
		{"no start time", time.Time{}, at("2026-11-29T10:00:00Z"), []*time.Location{time.UTC}, []string{"*/*/*"}},
		{"over a week", at("2026-11-01T10:00:00Z"), at("2026-11-29T10:00:00Z"), []*time.Location{time.UTC}, []string{"*/*/*"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range codexDayDirs("s", tt.from, tt.to, tt.zones...) {
				rel, _ := filepath.Rel("s", d)
				got = append(got, filepath.ToSlash(rel))
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// codexHome is a CODEX_HOME with n rollouts of earlier sessions, ten a day
// over the days before 2026-11-01, all for cwd and modified now (another
// run resumed them, or a copy touched them).
func codexHome(t testing.TB, n int, cwd string) string {
	home := t.TempDir()
	day := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	for i := range n {
		if i%10 == 0 {
			day = day.AddDate(0, 0, -1)
		}
		writeRollout(t, home, day, fmt.Sprintf("old-%d", i), cwd)
	}
	return home
}

// writeRollout writes a rollout of session id begun at day, for cwd.
func writeRollout(t testing.TB, home string, day time.Time, id, cwd string) string {
	dir := filepath.Join(home, "sessions", day.Format("2006"), day.Format("01"), day.Format("02"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "rollout-"+day.Format("2006-01-02T15-04-05")+"-"+id+".jsonl")
	meta := fmt.Sprintf(`{"type":"session_meta","payload":{"id":%q,"cwd":%q}}`+"\n", id, cwd)
	if err := os.WriteFile(path, []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCodexFindsTheRolloutOfToday: the new session's rollout is found in
// its day's directory, not an earlier session's that was written to since
// the start (a resumed session of the same workspace).
func TestCodexFindsTheRolloutOfToday(t *testing.T) {
	cwd := t.TempDir()
	home := codexHome(t, 30, cwd)
	l := Launch{Cwd: cwd, Started: time.Now().Add(-time.Second), Getenv: func(k string) string {
		return map[string]string{"CODEX_HOME": home}[k]
	}}
	src := codexTranscript(l)
	if _, err := src.Poll(); err != nil {
		t.Fatal(err)
	}
	if p := src.(interface{ Path() string }).Path(); p != "" {
		t.Fatalf("found %s before this run's session began", p)
	}
	ours := writeRollout(t, home, time.Now(), "ours", cwd)
	if _, err := src.Poll(); err != nil {
		t.Fatal(err)
	}
	if p := src.(interface{ Path() string }).Path(); p != ours {
		t.Fatalf("found %q, want %q", p, ours)
	}
}

// BenchmarkCodexLocate: a read of Codex's transcript before the session's
// rollout is written (each read until then looks for it), with a history
// of 100 and 10,000 sessions: flat, as only the days of this run are read.
func BenchmarkCodexLocate(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			cwd := b.TempDir()
			home := codexHome(b, n, cwd)
			l := Launch{Cwd: cwd, Started: time.Now(), Getenv: func(k string) string {
				return map[string]string{"CODEX_HOME": home}[k]
			}}
			src := codexTranscript(l)
			for b.Loop() {
				if _, err := src.Poll(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
