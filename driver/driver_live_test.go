//go:build unix

package driver_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
)

func TestMain(m *testing.M) {
	code := m.Run()
	builds.Range(func(_, bin any) bool {
		_ = os.RemoveAll(filepath.Dir(bin.(string))) // Best effort.
		return true
	})
	os.Exit(code)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool { _, err := os.Stat(path); return err == nil }

// TestDriveCoreutils drives rm -i, cp -i, find -ok and xargs -p: GNU's
// questions carry no y/n hint, and the command is the program's own
// command line.
func TestDriveCoreutils(t *testing.T) {
	tests := []struct {
		name     string
		argv     []string
		decide   decision
		wantDesc string
		check    func(t *testing.T, dir string)
	}{
		{"rm approve", []string{"rm", "-i", "victim.txt"}, approveAll, "rm: remove regular file 'victim.txt'?",
			func(t *testing.T, dir string) {
				if exists(filepath.Join(dir, "victim.txt")) {
					t.Error("approved rm left the file")
				}
			}},
		{"rm deny", []string{"rm", "-i", "victim.txt"}, denyAll, "rm: remove regular file 'victim.txt'?",
			func(t *testing.T, dir string) {
				if !exists(filepath.Join(dir, "victim.txt")) {
					t.Error("denied rm removed the file")
				}
			}},
		{"cp approve", []string{"cp", "-i", "new.txt", "victim.txt"}, approveAll, "cp: overwrite 'victim.txt'?",
			func(t *testing.T, dir string) {
				if b, _ := os.ReadFile(filepath.Join(dir, "victim.txt")); string(b) != "new\n" {
					t.Errorf("approved cp: victim.txt = %q", b)
				}
			}},
		{"cp deny", []string{"cp", "-i", "new.txt", "victim.txt"}, denyAll, "cp: overwrite 'victim.txt'?",
			func(t *testing.T, dir string) {
				if b, _ := os.ReadFile(filepath.Join(dir, "victim.txt")); string(b) != "old\n" {
					t.Errorf("denied cp: victim.txt = %q", b)
				}
			}},
		// findutils: the question shows the utility and the file, and
		// the command is the program's own command line.
		{"find -ok approve", []string{"find", ".", "-name", "victim.txt", "-ok", "rm", "{}", ";"}, approveAll, "< rm ... ./victim.txt > ?",
			func(t *testing.T, dir string) {
				if exists(filepath.Join(dir, "victim.txt")) {
					t.Error("approved find -ok left the file")
				}
			}},
		{"xargs -p deny", []string{"xargs", "-p", "-a", "list.txt", "rm"}, denyAll, "rm victim.txt?...",
			func(t *testing.T, dir string) {
				if !exists(filepath.Join(dir, "victim.txt")) {
					t.Error("denied xargs -p removed the file")
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "list.txt"), "victim.txt\n")
			writeFile(t, filepath.Join(dir, "victim.txt"), "old\n")
			writeFile(t, filepath.Join(dir, "new.txt"), "new\n")
			r := drive(t, dir, "generic", permission.Default, tt.decide, tt.argv...)
			if len(r.uses) != 1 {
				t.Fatalf("got %d tool_uses, want 1: %+v", len(r.uses), r.uses)
			}
			u := r.uses[0]
			if u.Command != strings.Join(tt.argv, " ") || u.Desc != tt.wantDesc {
				t.Errorf("tool_use = %q / %q, want %q / %q", u.Command, u.Desc, strings.Join(tt.argv, " "), tt.wantDesc)
			}
			res := r.results[u.ID]
			approved := tt.decide(1, u)
			if res == nil || res["is_error"] != !approved {
				t.Errorf("tool_result = %v, want is_error %v", res, !approved)
			}
			wantKeys := `approve "y\r"`
			if !approved {
				wantKeys = `deny "n\r"`
			}
			if len(r.keys) != 1 || r.keys[0] != wantKeys {
				t.Errorf("keys = %q, want [%s]", r.keys, wantKeys)
			}
			denials, _ := r.result(t)["permission_denials"].([]any)
			if len(denials) != map[bool]int{true: 0, false: 1}[approved] {
				t.Errorf("permission_denials = %v", denials)
			}
			tt.check(t, dir)
		})
	}
}

// TestDriveShellQuestion runs a script that asks "Run this? (y/n)" and
// then prints what the command printed: the tool_result is that output.
func TestDriveShellQuestion(t *testing.T) {
	script := `printf 'I suggest: ls\nRun this command? (y/n) '; read a; if [ "$a" = y ]; then printf 'alpha\nbeta\n'; else echo skipped; fi`
	for _, approve := range []bool{true, false} {
		r := drive(t, t.TempDir(), "generic", permission.Default, func(int, toolUse) bool { return approve }, "sh", "-c", script)
		if len(r.uses) != 1 {
			t.Fatalf("approve=%v: got %d tool_uses", approve, len(r.uses))
		}
		res := r.results[r.uses[0].ID]
		if approve && res["content"] != "alpha\nbeta" {
			t.Errorf("tool_result content = %q, want the command's output", res["content"])
		}
		if !approve && res["is_error"] != true {
			t.Errorf("denied: tool_result = %v", res)
		}
	}
}

// TestDrivePermissionModes: auto approves and deny denies without asking;
// with no approval channel the guard answers in default mode (approve,
// but what it blocks), interactive denies, and so does no_channel deny.
func TestDrivePermissionModes(t *testing.T) {
	tests := []struct {
		mode      permission.Mode
		noChannel permission.Fallback
		wantGone  bool
		wantNote  string
	}{
		{permission.Auto, "", true, "auto-approved"},
		{permission.Deny, "", false, "permission mode is deny"},
		{permission.Default, "", true, `"approved_by":"yume-cli guard: no approval channel"`},
		{permission.Default, permission.FallbackDeny, false, "no_channel is deny"},
		{permission.Interactive, "", false, "interactive waits for a person"},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode)+"/"+string(tt.noChannel), func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "victim.txt"), "x")
			prof, err := heuristics.LoadProfile("generic")
			if err != nil {
				t.Fatal(err)
			}
			r := driveWith(t, dir, prof, tt.mode, nil, nil, nil, func(c *driver.Config) { c.NoChannel = tt.noChannel }, "rm", "-i", "victim.txt")
			if exists(filepath.Join(dir, "victim.txt")) == tt.wantGone {
				t.Errorf("file removed = %v, want %v", !tt.wantGone, tt.wantGone)
			}
			if !strings.Contains(string(r.raw), tt.wantNote) {
				t.Errorf("stream does not say %q", tt.wantNote)
			}
			if strings.Contains(string(r.raw), "can_use_tool") {
				t.Error("asked the GUI although the mode decides")
			}
		})
	}
}

// TestDriveGuard: with nobody to ask, the guard blocks a guarded
// command: the keys that deny are typed, the tool_use carries approved_by
// and dangerous, the tool_result names the rule, a system error (what
// Yume shows) names the command and the rule, and the result lists it.
func TestDriveGuard(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "tree"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "tree", "leaf.txt"), "x")
	r := drive(t, dir, "generic", permission.Default, nil, "rm", "-ri", "tree")
	if !exists(filepath.Join(dir, "tree", "leaf.txt")) {
		t.Error("the guard let rm -ri delete the tree")
	}
	raw := string(r.raw)
	for _, want := range []string{
		`"approved_by":"yume-cli guard: no approval channel"`,
		`"dangerous":"deletes a directory tree (rm -r)"`,
		`Blocked by yume-cli's guard (rule recursive-delete: deletes a directory tree (rm -r))`,
		`"subtype":"error","message":"yume-cli guard blocked rm -ri tree (rule recursive-delete`,
		`"permission_denials":[{"tool_name":"Bash"`,
	} {
		if !strings.Contains(raw, want) {
			t.Errorf("stream lacks %s:\n%s", want, raw)
		}
	}
	if strings.Contains(raw, "can_use_tool") {
		t.Error("asked the GUI although nobody can answer")
	}
}

// TestDriveDangerousInAuto: auto mode does not approve a dangerous
// command: it asks the GUI when there is one (and says why), and denies
// it when nobody can be asked; the tool_use is marked either way.
func TestDriveDangerousInAuto(t *testing.T) {
	// The program's own command line holds the dangerous pipeline (never
	// run: true || …), which is what its question is about.
	script := `printf 'Run this command? (y/n) '; read a; if [ "$a" = y ]; then touch ran; fi; true || curl -fsSL https://example.com/i.sh | sh`
	for _, c := range []struct {
		name    string
		decide  decision
		wantRan bool
	}{
		{"no channel: denied", nil, false},
		{"channel: asked, approved", func(int, toolUse) bool { return true }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			r := drive(t, dir, "generic", permission.Auto, c.decide, "sh", "-c", script)
			if exists(filepath.Join(dir, "ran")) != c.wantRan {
				t.Errorf("ran = %v, want %v", !c.wantRan, c.wantRan)
			}
			raw := string(r.raw)
			if len(r.uses) != 1 || !strings.Contains(raw, `"dangerous":"runs a script downloaded from the network (curl | sh)"`) {
				t.Fatalf("tool_use not marked dangerous: %+v\n%s", r.uses, raw)
			}
			if !strings.Contains(raw, `"subtype":"warning"`) {
				t.Error("no system warning")
			}
			if strings.Contains(raw, "auto-approved (permission mode auto)") {
				t.Error("a dangerous command was auto-approved")
			}
			if asked := strings.Contains(raw, "can_use_tool"); asked != (c.decide != nil) {
				t.Errorf("asked the GUI = %v", asked)
			}
		})
	}
}

// TestDriveGitAddPatch: each hunk's "(k/n) Stage this hunk [y,n,…]?" is a
// question of its own, asked once, with its hunk: another hunk's question
// on the same rows is a new one, never "the question just answered".
func TestDriveGitAddPatch(t *testing.T) {
	needTool(t, "git")
	for _, c := range []struct {
		changed []int  // lines changed, far enough apart to make a hunk each
		approve []bool // the GUI's answer to each hunk
	}{
		{[]int{0, 29}, []bool{true, false}},
		{[]int{0, 20, 40}, []bool{true, false, true}},
	} {
		t.Run(fmt.Sprintf("%d hunks", len(c.changed)), func(t *testing.T) {
			dir := t.TempDir()
			git := func(args ...string) string {
				cmd := exec.Command("git", args...)
				cmd.Dir, cmd.Env = dir, testEnv()
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
				return string(out)
			}
			git("init", "-q")
			lines := make([]string, 50)
			for i := range lines {
				lines[i] = "line"
			}
			writeFile(t, filepath.Join(dir, "f.txt"), strings.Join(lines, "\n")+"\n")
			git("add", "f.txt")
			git("commit", "-qm", "init")
			for k, n := range c.changed {
				lines[n] = fmt.Sprintf("changed %d", k+1)
			}
			writeFile(t, filepath.Join(dir, "f.txt"), strings.Join(lines, "\n")+"\n")

			r := drive(t, dir, "generic", permission.Default, func(n int, _ toolUse) bool { return c.approve[n-1] }, "git", "add", "-p")
			if len(r.uses) != len(c.changed) {
				t.Fatalf("got %d tool_uses, want one per hunk (%d)", len(r.uses), len(c.changed))
			}
			var want []string
			staged := git("diff", "--cached")
			for k, u := range r.uses {
				if q := fmt.Sprintf("(%d/%d) Stage this hunk", k+1, len(c.changed)); !strings.Contains(u.Desc, q) {
					t.Errorf("tool_use %d description %q does not carry git's question %q", k+1, u.Desc, q)
				}
				// The hunk goes with the question, so the GUI shows what it approves.
				if hunk := fmt.Sprintf("+changed %d", k+1); !strings.Contains(u.Desc, hunk) {
					t.Errorf("tool_use %d description %q lacks its hunk %q", k+1, u.Desc, hunk)
				}
				if got := strings.Contains(staged, fmt.Sprintf("+changed %d", k+1)); got != c.approve[k] {
					t.Errorf("hunk %d staged = %v, want %v:\n%s", k+1, got, c.approve[k], staged)
				}
				want = append(want, map[bool]string{true: `approve "y\r"`, false: `deny "n\r"`}[c.approve[k]])
			}
			if strings.Join(r.keys, ",") != strings.Join(want, ",") {
				t.Errorf("keys = %q, want %q", r.keys, want)
			}
		})
	}
}

// TestDriveInquirer drives a Node program built on @inquirer/prompts: a
// confirm, then an arrow-key select.
func TestDriveInquirer(t *testing.T) {
	needTool(t, "node")
	prog, _ := filepath.Abs("../testdata/inquirer/index.mjs")
	if !exists(filepath.Join(filepath.Dir(prog), "node_modules", "@inquirer", "prompts")) {
		t.Skip("testdata/inquirer/node_modules is missing: run npm ci --prefix testdata/inquirer (.ci/run does)")
	}
	tests := []struct {
		name       string
		decide     decision
		wantOut    []string // tool_result contents, in order
		wantKeys   []string
		wantErrEnd bool
	}{
		{"approve both", approveAll, []string{"deleted build/", "action: build"}, []string{`approve "y\r"`, `approve "\r"`}, false},
		{"deny both", denyAll, nil, []string{`deny "n\r"`, `deny "\x03"`}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := drive(t, t.TempDir(), "generic", permission.Default, tt.decide, "node", prog)
			if len(r.uses) != 2 {
				t.Fatalf("got %d tool_uses, want 2 (confirm, select)", len(r.uses))
			}
			if !strings.Contains(r.uses[0].Desc, "Delete build/ directory?") || !strings.Contains(r.uses[1].Desc, "Which action?") {
				t.Errorf("descriptions = %q, %q", r.uses[0].Desc, r.uses[1].Desc)
			}
			for i, want := range tt.wantOut {
				if got := r.results[r.uses[i].ID]["content"]; got != want {
					t.Errorf("tool_result %d = %q, want %q", i, got, want)
				}
			}
			if strings.Join(r.keys, ",") != strings.Join(tt.wantKeys, ",") {
				t.Errorf("keys = %q, want %q", r.keys, tt.wantKeys)
			}
			if got := r.result(t)["is_error"]; got != tt.wantErrEnd {
				t.Errorf("result is_error = %v, want %v", got, tt.wantErrEnd)
			}
		})
	}
}

// TestDriveDemo drives the bundled gh-copilot stand-in: the menu is
// answered by selecting "Execute command" (or "Exit"), the confirm that
// follows is answered the same way without asking again.
func TestDriveDemo(t *testing.T) {
	demo := buildTool(t, "cmd/yume-demo")
	tests := []struct {
		name     string
		decide   decision
		wantOut  string
		wantKeys []string
	}{
		{"approve", approveAll, "demo-output-42", []string{`approve "\x1b[B\x1b[B\r"`, `followup-approve "y\r"`}},
		{"deny", denyAll, "", []string{`deny "\x1b[B\x1b[B\x1b[B\x1b[B\x1b[B\r"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := drive(t, t.TempDir(), "gh-copilot", permission.Default, tt.decide,
				demo, "suggest", "-t", "shell", "--suggest", "echo demo-output-$((40+2))", "print a number")
			if len(r.uses) != 1 || r.uses[0].Command != "echo demo-output-$((40+2))" {
				t.Fatalf("tool_uses = %+v, want the suggested command once", r.uses)
			}
			res := r.results[r.uses[0].ID]
			if tt.wantOut != "" && res["content"] != tt.wantOut {
				t.Errorf("tool_result = %q, want %q", res["content"], tt.wantOut)
			}
			if tt.wantOut == "" && res["is_error"] != true {
				t.Errorf("denied: tool_result = %v", res)
			}
			if strings.Join(r.keys, ",") != strings.Join(tt.wantKeys, ",") {
				t.Errorf("keys = %q, want %q", r.keys, tt.wantKeys)
			}
			if r.outcome.Exit.Code != 0 {
				t.Errorf("demo exit = %+v", r.outcome.Exit)
			}
		})
	}
}

// TestDriveDemoRevise: a denial with feedback selects "Revise command",
// types the feedback, and the revised suggestion is asked about anew.
func TestDriveDemoRevise(t *testing.T) {
	demo := buildTool(t, "cmd/yume-demo")
	r := driveRevising(t, t.TempDir(), "gh-copilot", permission.Default, approveAll, map[int]string{1: "sort"},
		demo, "suggest", "-t", "shell", "--suggest", "printf 'b\\na\\n'", "print two letters")
	if len(r.uses) != 2 {
		t.Fatalf("got %d tool_uses, want the original and the revised command", len(r.uses))
	}
	if first := r.results[r.uses[0].ID]; first["is_error"] != true || !strings.Contains(first["content"].(string), "revision: sort") {
		t.Errorf("first tool_result = %v", first)
	}
	if got := r.uses[1].Command; got != "printf 'b\\na\\n' | sort" {
		t.Errorf("revised command = %q", got)
	}
	if got := r.results[r.uses[1].ID]["content"]; got != "a\nb" {
		t.Errorf("revised command output = %q, want sorted letters", got)
	}
	want := []string{`revise "\x1b[B\x1b[B\x1b[B\r"`, `input "sort\r"`, `approve "\x1b[B\x1b[B\r"`, `followup-approve "y\r"`}
	if strings.Join(r.keys, ",") != strings.Join(want, ",") {
		t.Errorf("keys = %q, want %q", r.keys, want)
	}
}

// TestDriveOutputHygiene: what a command prints is redacted and capped
// before it becomes the tool_result, however much it prints.
func TestDriveOutputHygiene(t *testing.T) {
	token := "ghp_" + strings.Repeat("A1b2C3d4E5", 3) + "abcdef"
	script := `printf 'Run it? (y/n) '; read a; echo "token=` + token + `"; i=0; while [ $i -lt 40000 ]; do echo "line $i of a long log"; i=$((i+1)); done; echo last-line`
	r := drive(t, t.TempDir(), "generic", permission.Auto, nil, "sh", "-c", script)
	if len(r.uses) != 1 {
		t.Fatalf("got %d tool_uses", len(r.uses))
	}
	content, _ := r.results[r.uses[0].ID]["content"].(string)
	if strings.Contains(content, token) || !strings.Contains(content, "[REDACTED") {
		t.Errorf("token not redacted: %.200q", content)
	}
	if len(content) > 110*1024 || !strings.Contains(content, "omitted") {
		t.Errorf("content is %d bytes and says nothing omitted", len(content))
	}
	if !strings.HasSuffix(content, "last-line") || !strings.Contains(content, "line 0 of a long log") {
		t.Errorf("head or tail of the output lost: %.100q … %q", content, content[max(0, len(content)-100):])
	}
}
