package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLiveDenialNeverRuns: denying in the live AI TUIs never runs the
// command, with each provider's own profile and with the generic one
// (which knows none of them and answers the dialog by its shape: Claude
// Code 2.1.197 took Down, Down and Enter typed together for "1. Yes"),
// on the newest release and the oldest of the drift matrix. Every key of
// the answer goes in a write of its own, and the turn is not reported
// as a command that ran although denied.
func TestLiveDenialNeverRuns(t *testing.T) {
	live(t)
	oldest, err := filepath.Abs(filepath.Join(binDir(t), "..", "oldest", "bin"))
	if err != nil {
		t.Fatal(err)
	}
	bins := map[string]string{"newest": binDir(t), "oldest": oldest}
	all := append(append([]string{}, providers...), agents...)
	for ri, release := range []string{"newest", "oldest"} {
		for pi, provider := range all {
			profiles := []string{"profile", "generic"}
			if strings.Contains(strings.Join(agents, " "), provider) {
				profiles = []string{"profile"} // their own TUIs' profiles (TestLiveAgentsTUI has the rest)
			}
			for fi, profile := range profiles {
				t.Run(release+"/"+provider+"/"+profile, func(t *testing.T) {
					cell(t, pi, len(all), ri*len(profiles)+fi, 2*len(profiles))
					bin := bins[release]
					if _, err := os.Stat(filepath.Join(bin, provider)); err != nil {
						t.Skipf("no %s %s in %s: run make e2e-deps", release, provider, bin)
					}
					h := newHomeIn(t, provider, bin)
					script := oneCommandScript(provider)
					if profile == "profile" && strings.Contains(strings.Join(agents, " "), provider) {
						script = agentScript(provider)
					}
					flags := []string{"--mode", "pty", "--prompt", "make the file"}
					if profile == "generic" {
						if provider == "codex" {
							seenMigration(t, h)
						}
						flags = append([]string{"--provider", "generic"}, append(flags, "--")...)
						flags = append(flags, launchArgv(t, provider, filepath.Join(bin, provider), h.sb, "make the file")...)
					}
					r := h.run(t, script, gui{answer: func(int) bool { return false }}, flags...)
					checkDenied(t, r)
				})
			}
		}
	}
}

// checkDenied holds a run whose one question was denied.
func checkDenied(t *testing.T, r *run) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(r.sb.Workspace, "made.txt")); err == nil {
		t.Errorf("the denied command ran: made.txt exists\nkeys: %s", answerWrites(r.trace))
	}
	if len(r.uses) == 0 {
		t.Fatalf("no tool_use\nstderr:\n%s", r.stderr)
	}
	if res := r.results[r.uses[0].ID]; !res.IsError || strings.Contains(res.Content, "although it was denied") {
		t.Errorf("tool_result %+v: want a denial", res)
	}
	f := r.final()
	if f == nil {
		t.Fatalf("no result\nstderr:\n%s", r.stderr)
	}
	if strings.Contains(f.str("result"), "although it was denied") {
		t.Errorf("result %q", f.str("result"))
	}
	for _, w := range answerWrites(r.trace) {
		if k, _ := strconv.Unquote(w); keyCount(k) > 1 {
			t.Errorf("the answer's keys went together in one write: %s", w)
		}
	}
}

// answerWrites are the writes of answer keys in a --trace file.
func answerWrites(trace string) []string {
	var out []string
	for _, line := range strings.Split(trace, "\n") {
		var tl struct{ Event, Why, Keys string }
		if json.Unmarshal([]byte(line), &tl) == nil && tl.Event == "keys" && (tl.Why == "approve" || tl.Why == "deny") {
			out = append(out, strconv.Quote(tl.Keys))
		}
	}
	return out
}

// keyCount counts the keys in a write: an escape sequence counts once.
func keyCount(s string) int {
	n := 0
	for len(s) > 0 {
		if strings.HasPrefix(s, "\x1b[") || strings.HasPrefix(s, "\x1bO") {
			s = s[min(3, len(s)):]
		} else {
			s = s[1:]
		}
		n++
	}
	return n
}

// seenMigration marks Codex's model-migration notice as seen, as after a
// first run: a screen the generic layer rightly stops at.
func seenMigration(t *testing.T, h *home) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(h.sb.Home, ".codex", "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, _ = f.WriteString("\n[notice.model_migrations]\n\"gpt-5.5\" = \"gpt-6-sol\"\n")
}
