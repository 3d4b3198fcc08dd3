package recordings_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/internal/tracedoc"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/replay"
)

// people are recordings of a person answering ordinary programs and the
// four AI TUIs (testdata/people/README.md says how each was made), with
// the profile each replays with, what each question's tool_use must
// carry (the question and the context a person needs to decide, or the
// TUI's command), the prompt the person typed at a TUI's input box, and
// what a tool_result must hold.
var people = []struct {
	cast     string
	provider string   // "": generic
	want     []string // in some tool_use input, each
	prompt   string   // the turn's prompt the person typed at the input box
	output   string   // in some tool_result
	denied   bool     // the person declined a question
}{
	{cast: "ssh-keygen-overwrite-yes", want: []string{`Overwrite (y/n)?`, `demo_key already exists.`}},
	{cast: "ssh-keygen-overwrite-no", want: []string{`Overwrite (y/n)?`, `demo_key already exists.`}, denied: true},
	{cast: "gdb-quit-yes", want: []string{`Quit anyway? (y or n)`, `A debugging session is active.`}},
	{cast: "npm-init-ok-enter", want: []string{`package name: (demo)`, `Is this OK? (yes)`, `About to write to`}},
	{cast: "npm-init-ok-no", want: []string{`Is this OK? (yes)`, `About to write to`}, denied: true},
	{cast: "git-clean-i-one", want: []string{`What now>`, `Would remove the following items:`, `1: clean`}},
	{cast: "git-clean-i-c", want: []string{`What now>`, `Would remove the following items:`}},
	{cast: "git-add-p-quit", want: []string{`"command":"git add -p"`, `Stage this hunk [y,n,q,a,d,e,?]?`, `+three`}, denied: true},
	// Three hunks, answered y, n, y: three questions, one rule, one row.
	{cast: "git-add-p-three", want: []string{`(1/3) Stage this hunk`, `+two`, `(2/3) Stage this hunk`, `+fifteen`, `(3/3) Stage this hunk`, `+twenty-eight`}, denied: true},
	{cast: "inquirer-run-enter", want: []string{`"command":"rm -rf build/cache"`, `Run this command?`, `How should it run?`}},
	{cast: "inquirer-run-y", want: []string{`"command":"rm -rf build/cache"`, `How should it run?`}},
	{cast: "inquirer-run-arrows", want: []string{`"command":"rm -rf build/cache"`, `How should it run?`}, output: "(background)"},
	{cast: "apt-continue-enter", want: []string{`Do you want to continue? [Y/n]`, `The following NEW packages will be installed:`}},
	{cast: "apt-continue-no", want: []string{`Do you want to continue? [Y/n]`, `demo-tool`}, denied: true},
	{cast: "press-enter", want: []string{`Press Enter to continue`, `Build finished`}},
	// The AI TUIs, each at the release in .e2e/bin when recorded: the
	// person types the prompt into the input box, then answers.
	{cast: "claude-approve", provider: "claude", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here"},
	{cast: "claude-deny", provider: "claude", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here", denied: true},
	{cast: "claude-unfold", provider: "claude", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here", output: "notes.txt\nplan.md\nseen.txt"},
	{cast: "codex-approve", provider: "codex", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here", output: "notes.txt\nplan.md\nseen.txt"},
	{cast: "codex-slow-enter", provider: "codex", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here", output: "notes.txt\nplan.md\nseen.txt"},
	{cast: "copilot-approve", provider: "copilot", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here"},
	{cast: "copilot-unfold", provider: "copilot", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here", output: "seen.txt"},
	{cast: "gemini-approve", provider: "gemini", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here", output: "seen.txt"},
	// The second pass (issue 32), recorded in tmux: the person gives the
	// same answer another way (README.md). Real programs first.
	{cast: "gh-suggest-default-enter", provider: "gh-copilot", want: []string{`"command":"echo suggested-output"`}, output: "suggested-output"},
	{cast: "git-clean-i-quit", want: []string{`What now>`, `5: quit`}, denied: true},
	{cast: "git-add-p-fix-quit", want: []string{`Stage this hunk [y,n,q,a,d,e,?]?`}, denied: true},
	{cast: "gzip-overwrite-ctrl-c", want: []string{`do you wish to overwrite (y or n)?`}, denied: true},
	{cast: "pip-uninstall-enter", want: []string{`Proceed (Y/n)?`, `Found existing installation: setuptools`}, output: "Successfully uninstalled setuptools"},
	{cast: "unzip-none", want: []string{`[y]es, [n]o, [A]ll, [N]one, [r]ename:`}, denied: true},
	{cast: "claude-new-unfold", provider: "claude", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", output: "31 notes-copy.txt\nalpha\nbeta\ngamma\ndelta\nepsilon\nthe notes are copied to notes-copy.txt for the person"},
	{cast: "claude-new-deny-number", provider: "claude", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", denied: true},
	{cast: "codex-new-wrap", provider: "codex", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", output: "delta\nepsilon\nthe notes are copied to notes-copy.txt for the person\n[yume-cli: the program did not show 4 more lines of this output]"},
	{cast: "codex-new-deny-walk", provider: "codex", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", denied: true},
	{cast: "copilot-new-unfold", provider: "copilot", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", output: "31 notes-copy.txt\nalpha\nbeta\ngamma\ndelta\nepsilon\nthe notes are copied to notes-copy.txt for the person"},
	{cast: "copilot-new-deny-esc", provider: "copilot", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", denied: true},
	{cast: "gemini-new-wrap", provider: "gemini", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", output: "31 notes-copy.txt\nalpha\nbeta\ngamma\ndelta\nepsilon\nthe notes are copied to notes-copy.txt for the person"},
	{cast: "gemini-new-deny-walk", provider: "gemini", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", denied: true},
	{cast: "claude-old-unfold", provider: "claude", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", output: "31 notes-copy.txt\nalpha\nbeta\ngamma\ndelta\nepsilon\nthe notes are copied to notes-copy.txt for the person"},
	{cast: "claude-old-deny-number", provider: "claude", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", denied: true},
	{cast: "codex-old-wrap", provider: "codex", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", output: "delta\nepsilon\nthe notes are copied to notes-copy.txt for the person\n[yume-cli: the program did not show 4 more lines of this output]"},
	{cast: "codex-old-deny-walk", provider: "codex", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", denied: true},
	{cast: "copilot-old-unfold", provider: "copilot", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", output: "31 notes-copy.txt\nalpha\nbeta\ngamma\ndelta\nepsilon\nthe notes are copied to notes-copy.txt for the person"},
	{cast: "copilot-old-deny-esc", provider: "copilot", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", denied: true},
	{cast: "gemini-old-wrap", provider: "gemini", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", output: "31 notes-copy.txt\nalpha\nbeta\ngamma\ndelta\nepsilon\nthe notes are copied to notes-copy.txt for the person"},
	{cast: "gemini-old-deny-walk", provider: "gemini", want: []string{`"command":"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"`}, prompt: "copy the notes", denied: true},
	// Four agents no profile knows (record-tuis.sh), replayed with the
	// generic profile alone: the person types the prompt into the agent's
	// own input box, answers its dialog (its own keys, Enter, arrows, Esc),
	// and leaves with Ctrl-C at the box.
	{cast: "cline-approve", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here", output: "notes.txt\n[yume-cli: the program did not show 2 more lines of this output]"},
	{cast: "cline-deny", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here", denied: true},
	{cast: "cn-approve", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here", output: "notes.txt\nplan.md\nseen.txt"},
	{cast: "cn-deny", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here", denied: true},
	{cast: "grok-approve", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here", output: "notes.txt\nplan.md\nseen.txt"},
	{cast: "grok-deny", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here", denied: true},
	{cast: "nanocoder-approve", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here", output: "did not show this command's output"},
	{cast: "nanocoder-deny", want: []string{`"command":"touch seen.txt && ls"`}, prompt: "show me the files here", denied: true},
	// The fresh set, recorded after the rules above were written.
	{cast: "select-editor-two", want: []string{`Choose 1-2 [1]:`, `Select an editor.`}},
	{cast: "mv-overwrite-fixed-no", want: []string{`mv: overwrite 'b.txt'?`}, denied: true},
	{cast: "ln-replace-ctrl-d", want: []string{`ln: replace 'b.txt'?`}, denied: true},
	{cast: "git-difftool-enter", want: []string{`Launch 'show' [Y/n]?`, `Viewing (1/1): 'notes.txt'`}, output: "one\nthree"},
	{cast: "gh-suggest-filter-yes", provider: "gh-copilot", want: []string{`"command":"echo fresh-output"`}, output: "fresh-output"},
	{cast: "claude-new-fresh-approve", provider: "claude", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", output: "2 notes-copy.txt\nalpha beta"},
	{cast: "claude-new-fresh-deny", provider: "claude", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", denied: true},
	{cast: "codex-new-fresh-approve", provider: "codex", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", output: "notes-copy.txt\nnotes.txt\nplan.md\n[yume-cli: the program did not show 3 more lines of this output]"},
	{cast: "codex-new-fresh-deny", provider: "codex", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", denied: true},
	{cast: "copilot-new-fresh-approve", provider: "copilot", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", output: "2 notes-copy.txt\nalpha beta"},
	{cast: "copilot-new-fresh-deny", provider: "copilot", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", denied: true},
	{cast: "gemini-new-fresh-approve", provider: "gemini", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", output: "2 notes-copy.txt\nalpha beta"},
	{cast: "gemini-new-fresh-deny", provider: "gemini", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", denied: true},
	{cast: "claude-old-fresh-approve", provider: "claude", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", output: "2 notes-copy.txt\nalpha beta"},
	{cast: "claude-old-fresh-deny", provider: "claude", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", denied: true},
	{cast: "codex-old-fresh-approve", provider: "codex", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", output: "notes-copy.txt\nnotes.txt\nplan.md\n[yume-cli: the program did not show 3 more lines of this output]"},
	{cast: "codex-old-fresh-deny", provider: "codex", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", denied: true},
	{cast: "copilot-old-fresh-approve", provider: "copilot", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", output: "2 notes-copy.txt\nalpha beta"},
	{cast: "copilot-old-fresh-deny", provider: "copilot", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", denied: true},
	{cast: "gemini-old-fresh-approve", provider: "gemini", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", output: "2 notes-copy.txt\nalpha beta"},
	{cast: "gemini-old-fresh-deny", provider: "gemini", want: []string{`"command":"cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"`}, prompt: "copy the notes", denied: true},
}

// TestPeopleReplay: each person's recording replays through the generic
// profile, answered as the person answered (read for what the keys mean),
// with no mismatch and nothing left untyped; every question carries its
// question and context; the stream matches the golden file (-update).
func TestPeopleReplay(t *testing.T) {
	for _, p := range people {
		t.Run(p.cast, func(t *testing.T) {
			provider := p.provider
			if provider == "" {
				provider = "generic"
			}
			prof, err := heuristics.LoadProfile(provider)
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(filepath.Join("testdata", "people", p.cast+".cast"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			c, err := recordings.Read(f)
			if err != nil {
				t.Fatal(err)
			}
			var out, trace bytes.Buffer
			res := replay.Run(context.Background(), c, replay.Options{
				Profile: prof, Out: emit.NewWriter(&out, emit.Config{Model: "corpus"}), AsRecorded: true, Trace: &trace,
			})
			if res.Err != nil {
				t.Errorf("replay: %v", res.Err)
			}
			for _, m := range res.Mismatches {
				t.Errorf("keys differ: %v", &m)
			}
			if res.Pending != "" {
				t.Errorf("recorded input %q was never typed", res.Pending)
			}
			for _, pr := range emittest.Validate(out.Bytes()) {
				t.Errorf("conformance: %v", pr)
			}
			inputs := toolInputs(t, out.Bytes())
			if len(inputs) == 0 {
				t.Fatalf("no tool_use:\n%s", out.String())
			}
			for _, in := range inputs {
				if p.provider == "" && !strings.Contains(in, `"description":"`) {
					t.Errorf("a tool_use without its question: %s", in)
				}
			}
			if p.prompt != "" && (len(res.Prompts) != 1 || res.Prompts[0] != p.prompt) {
				t.Errorf("the turns' prompts are %q, want the one the person typed, %q", res.Prompts, p.prompt)
			}
			if p.prompt == "" && len(res.Prompts) > 0 {
				t.Errorf("prompts %q in a recording where the person typed none at an input box", res.Prompts)
			}
			results := toolResults(t, out.Bytes())
			if p.output != "" && !strings.Contains(strings.Join(results, "\n"), p.output) {
				t.Errorf("no tool_result holds %q: %q", p.output, results)
			}
			if denied := slices.Contains(results, "Denied by the user."); denied != p.denied {
				t.Errorf("a question denied: %v, want %v (the person's answer read for its meaning): %q", denied, p.denied, results)
			}
			all := strings.Join(inputs, "\n")
			for _, w := range p.want {
				if !strings.Contains(all, w) {
					t.Errorf("no tool_use carries %q:\n%s", w, all)
				}
			}
			tracedoc.Check(t, trace.Bytes())
			checkGolden(t, filepath.Join("testdata", "people", p.cast+".golden.jsonl"), out.Bytes(), trace.String())
		})
	}
}

// toolInputs are the tool_use inputs of a stream, as JSON text.
func toolInputs(t *testing.T, stream []byte) []string {
	var out []string
	for _, line := range bytes.Split(bytes.TrimSpace(stream), []byte("\n")) {
		var ev struct {
			Type    string
			Message json.RawMessage
		}
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		var msg struct {
			Content []struct {
				Type  string
				Input json.RawMessage
			}
		}
		if ev.Type != "assistant" || json.Unmarshal(ev.Message, &msg) != nil {
			continue
		}
		for _, b := range msg.Content {
			if b.Type == "tool_use" {
				out = append(out, string(b.Input))
			}
		}
	}
	return out
}

// toolResults are the contents of a stream's tool_results.
func toolResults(t *testing.T, stream []byte) []string {
	var out []string
	for _, line := range bytes.Split(bytes.TrimSpace(stream), []byte("\n")) {
		var ev struct {
			Type    string
			Message json.RawMessage
		}
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		var msg struct {
			Content []struct {
				Type    string
				Content string
			}
		}
		if ev.Type != "user" || json.Unmarshal(ev.Message, &msg) != nil {
			continue
		}
		for _, b := range msg.Content {
			if b.Type == "tool_result" {
				out = append(out, b.Content)
			}
		}
	}
	return out
}

// TestPeopleOtherAnswer: where the rules answer otherwise than the person
// did (deny what they approved, approve what they denied, by arrows, by
// q), the replay reports the difference: equivalence by meaning does not
// hide a different decision.
func TestPeopleOtherAnswer(t *testing.T) {
	for _, c := range []struct {
		cast, provider string
		approved       bool // what the person answered
	}{
		{"claude-approve", "claude", true},
		{"claude-deny", "claude", false},
		{"claude-unfold", "claude", true},
		{"codex-slow-enter", "codex", true},
		{"copilot-approve", "copilot", true},
		{"gemini-approve", "gemini", true},
		{"git-add-p-quit", "generic", false},
		{"apt-continue-enter", "generic", true},
		// The second pass: the same answer given another way is still
		// that answer, and the other one still differs.
		{"gh-suggest-default-enter", "gh-copilot", true},
		{"git-clean-i-quit", "generic", false},
		{"git-add-p-fix-quit", "generic", false},
		{"gzip-overwrite-ctrl-c", "generic", false},
		{"pip-uninstall-enter", "generic", true},
		{"unzip-none", "generic", false},
		{"claude-new-deny-number", "claude", false},
		{"claude-old-unfold", "claude", true},
		{"codex-new-wrap", "codex", true},
		{"codex-old-deny-walk", "codex", false},
		{"copilot-new-deny-esc", "copilot", false},
		{"copilot-old-unfold", "copilot", true},
		{"gemini-new-deny-walk", "gemini", false},
		{"gemini-old-wrap", "gemini", true},
		{"select-editor-two", "generic", true},
		{"ln-replace-ctrl-d", "generic", false},
		{"gh-suggest-filter-yes", "gh-copilot", true},
		{"claude-old-fresh-approve", "claude", true},
		{"codex-new-fresh-deny", "codex", false},
		{"copilot-old-fresh-deny", "copilot", false},
		{"gemini-old-fresh-deny", "gemini", false},
	} {
		t.Run(c.cast, func(t *testing.T) {
			prof, err := heuristics.LoadProfile(c.provider)
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(filepath.Join("testdata", "people", c.cast+".cast"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cast, err := recordings.Read(f)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			res := replay.Run(context.Background(), cast, replay.Options{
				Profile: prof, Out: emit.NewWriter(&out, emit.Config{Model: "corpus"}),
				Answer: func(int, *heuristics.Detection) permission.Answer { return permission.Answer{Allow: !c.approved} },
			})
			if len(res.Mismatches) == 0 {
				t.Errorf("answered otherwise than the person (approve %v), the replay reports no difference:\n%s", !c.approved, out.String())
			}
		})
	}
}
