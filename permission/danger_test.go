package permission

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestDangerRulesData: every rule's examples are flagged with its reason
// and its ordinary commands are not flagged at all.
func TestDangerRulesData(t *testing.T) {
	set := DefaultDangers().In("/work/project")
	rules := set.Rules()
	if len(rules) < 10 {
		t.Fatalf("%d rules: the embedded set did not load", len(rules))
	}
	for _, r := range rules {
		if len(r.Examples) == 0 || len(r.Ordinary) == 0 {
			t.Errorf("rule %s: needs examples and ordinary commands", r.Name)
		}
		for _, ex := range r.Examples {
			if got := set.Check(ex); !strings.Contains(got, r.Reason) {
				t.Errorf("rule %s: %q not flagged (got %q)", r.Name, ex, got)
			}
		}
		for _, ok := range r.Ordinary {
			if got := set.Check(ok); got != "" {
				t.Errorf("rule %s: ordinary %q flagged: %s", r.Name, ok, got)
			}
		}
	}
}

// TestOrdinaryCommandsNotFlagged: commands of everyday work, generated
// from parts (seed printed), are never flagged.
func TestOrdinaryCommandsNotFlagged(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 2))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	set := DefaultDangers().In("/work/project")
	for range 3000 {
		parts := []string{
			pick("npm test", "go test ./...", "make -j4", "cargo build --release", "pytest -q tests/", "ls -la", "git status", "git diff --stat"),
			pick("rm -rf node_modules", "rm -f *.log", "rm -r build/tmp", "mkdir -p out/bin", "touch src/new.go", "cp a.txt b.txt", "mv old.md docs/new.md"),
			pick("echo done > out/log.txt", "cat ../README.md | head", "grep -rn TODO .", "git push origin HEAD", "chmod +x scripts/run.sh", "curl -s https://example.com | jq .name"),
			pick("find . -name '*.tmp' -delete", "tar czf dist/app.tgz build", "sed -i 's/a/b/' src/x.go", "docker build -t app .", "echo $HOME", "ls ~/projects"),
		}
		rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
		cmd := strings.Join(parts[:1+rng.IntN(len(parts))], pick(" && ", "; ", " || ", "\n"))
		if got := set.Check(cmd); got != "" {
			t.Fatalf("seed %d: ordinary command flagged (%s):\n%s", seed, got, cmd)
		}
	}
}

// TestDangerousInAnyPosition: a dangerous command is flagged wherever it
// stands in a compound command (seed printed).
func TestDangerousInAnyPosition(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 3))
	set := DefaultDangers().In("/work/project")
	var bad []string
	for _, r := range set.Rules() {
		bad = append(bad, r.Examples...)
	}
	for range 1000 {
		danger := bad[rng.IntN(len(bad))]
		cmd := fmt.Sprintf("cd src && %s", danger)
		if rng.IntN(2) == 0 {
			cmd = fmt.Sprintf("%s; echo ok", danger)
		}
		if set.Check(cmd) == "" {
			t.Fatalf("seed %d: %q not flagged", seed, cmd)
		}
	}
}

func TestDangersOverride(t *testing.T) {
	extra, err := ParseDangers("mine.yaml", []byte(`rules:
  - name: sudo
    off: true
  - name: terraform-destroy
    reason: destroys infrastructure
    match: '\bterraform\s+destroy\b'
    examples: [terraform destroy]
    ordinary: [terraform plan]
`))
	if err != nil {
		t.Fatal(err)
	}
	set := DefaultDangers().With(extra)
	if got := set.Check("sudo ls"); got != "" {
		t.Errorf("sudo turned off, still flagged: %s", got)
	}
	if got := set.Check("terraform destroy -auto-approve"); got != "destroys infrastructure" {
		t.Errorf("added rule: %q", got)
	}
	for _, bad := range []string{
		"rules:\n  - name: x\n    reason: y\n",
		"rules:\n  - name: x\n    reason: y\n    match: '('\n",
		"rules:\n  - name: x\n    reason: y\n    check: nope\n",
		"rules:\n  - name: x\n    match: a\n",
		"rules:\n  - name: x\n    reason: y\n    match: a\n    colour: red\n",
	} {
		if _, err := ParseDangers("bad.yaml", []byte(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// TestAutoNeverApprovesDanger: the policy asks about a dangerous call in
// auto mode, denies it with nobody to ask, and leaves others alone.
func TestAutoNeverApprovesDanger(t *testing.T) {
	for _, c := range []struct {
		mode    Mode
		danger  string
		channel bool
		want    Verdict
	}{
		{Auto, "", true, Allow},
		{Auto, "runs a command as root (sudo)", true, Ask},
		{Auto, "runs a command as root (sudo)", false, Refuse},
		{Default, "runs a command as root (sudo)", true, Ask},
		{Deny, "runs a command as root (sudo)", true, Refuse},
	} {
		d := Decide(c.mode, "sudo ls", c.danger, c.channel)
		if d.Verdict != c.want {
			t.Errorf("%s danger=%q channel=%v: %v, want %v", c.mode, c.danger, c.channel, d.Verdict, c.want)
		}
		if c.want == Refuse && c.mode == Auto && !strings.Contains(d.Message, "never auto-approved") {
			t.Errorf("denial says why: %q", d.Message)
		}
	}
}

func TestFileOutsideCwd(t *testing.T) {
	set := DefaultDangers().In("/work/project")
	for _, c := range []struct {
		path string
		want bool
	}{
		{"src/main.go", false},
		{"/work/project/README.md", false},
		{"/etc/passwd", true},
		{"../other/x.go", true},
		{"/tmp/scratch.txt", false},
	} {
		got := set.Call("Write", map[string]any{"file_path": c.path}) != ""
		if got != c.want {
			t.Errorf("Write %s: dangerous %v, want %v", c.path, got, c.want)
		}
	}
}
