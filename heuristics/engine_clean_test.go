package heuristics

import "testing"

func TestEngineCleanGroup(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "  npm test  ", "npm test"},
		{"dollar glyph", "$ npm test", "npm test"},
		{"chevron glyph", "❯ git push", "git push"},
		{"keeps inner dollar and redirect", "echo $HOME > out.txt", "echo $HOME > out.txt"},
		{"keeps a pipe", "ls | wc -l", "ls | wc -l"},
		{"keeps a trailing pipe row", "ls |", "ls |"},
		{"indented lines dedent", "  find . -name '*.go' \\\n    -newer go.mod", "find . -name '*.go' \\\n  -newer go.mod"},
		{"a word wrap in a box joins with the space it dropped",
			"│ npm run build &&   │\n│ npm test --        │\n│ --coverage         │",
			"npm run build && npm test -- --coverage"},
		{"a word broken at a full box row joins with nothing",
			"│ printf abcdefghijk │\n│ lmn                │",
			"printf abcdefghijklmn"},
		{"a short row in a box ended a line (a heredoc)",
			"│ cat <<'EOF'                 │\n│ one two                     │\n│ EOF                         │",
			"cat <<'EOF'\none two\nEOF"},
		{"heavy box", "┃ $ make install ┃", "make install"},
		{"box frame rows dropped",
			"╭──────────────╮\n│ rm -rf dist  │\n╰──────────────╯",
			"rm -rf dist"},
		{"box paragraphs", "│ Bash command │\n│              │\n│   ls -la     │", "Bash command\nls -la"},
		{"ascii box", "| terraform apply |", "terraform apply"},
		{"glyph inside a box", "│ ● Update(src/main.go) │", "Update(src/main.go)"},
		{"blank lines trimmed", "\n\n  make\n\n", "make"},
		{"wide chars", "│ echo 日本語 │", "echo 日本語"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cleanGroup(tt.in); got != tt.want {
				t.Errorf("cleanGroup(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestEngineSoftWrapped(t *testing.T) {
	tests := []struct {
		line, next string
		want       bool
	}{
		{"abcde", "fg", true},
		{"abcd", "efg", false}, // one cell short: not full width
		{"abcde", "", false},
		{"╭───╮", "│ x │", false}, // a frame fills the width, it does not wrap
		{"ab日", "x", false},       // 4 cells of 5
		{"abc日", "x", true},
	}
	for _, tt := range tests {
		if got := softWrapped(tt.line, tt.next, 5); got != tt.want {
			t.Errorf("softWrapped(%q, %q, 5) = %v, want %v", tt.line, tt.next, got, tt.want)
		}
	}
}

// TestEngineCleanCommand: a command keeps its blank lines (a heredoc's),
// drops only the box's padding rows, and joins wrapped rows as a group does.
func TestEngineCleanCommand(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"a blank heredoc line stays",
			"│ cat <<'EOF'                 │\n│                             │\n│ EOF                         │",
			"cat <<'EOF'\n\nEOF"},
		{"two blank lines stay",
			"│ cat <<'EOF'     │\n│ a               │\n│                 │\n│                 │\n│ b               │\n│ EOF             │",
			"cat <<'EOF'\na\n\n\nb\nEOF"},
		{"padding rows at the edges go",
			"╭──────────────╮\n│              │\n│ rm -rf dist  │\n│              │\n╰──────────────╯",
			"rm -rf dist"},
		{"a word wrap still joins",
			"│ npm run build &&   │\n│ npm test --        │\n│ --coverage         │",
			"npm run build && npm test -- --coverage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cleanCommand(tt.in); got != tt.want {
				t.Errorf("cleanCommand(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestEngineDrawnCommand: a command read off the screen is joined the way
// its program wrapped it, whatever the rows' indent and frame: rows taken
// from the recordings of people in testdata (100 columns).
func TestEngineDrawnCommand(t *testing.T) {
	long := `printf 'alpha\nbeta\ngamma\ndelta\nepsilon\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person`
	tok := "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij" +
		"abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij"
	tests := []struct {
		name, lead, group, want string
	}{
		{"codex: a word wrap, the box's indent dropped", "  $ ",
			"printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat\n" +
				"  notes-copy.txt && echo the notes are copied to notes-copy.txt for the person", long},
		{"codex: a word broken at the text area's edge", "  $ ",
			"printf %s\n  " + tok[:96] + "\n  " + tok[96:] + " > long.txt", "printf %s " + tok + " > long.txt"},
		{"codex: a heredoc keeps its breaks and its own indent", "  $ ",
			"cat <<'EOF' > notes.txt\n  one\n    two\n  EOF", "cat <<'EOF' > notes.txt\none\n  two\nEOF"},
		{"codex: a \\ continuation keeps its break", "  $ ",
			"find . -name '*.go' \\\n    -newer go.mod", "find . -name '*.go' \\\n  -newer go.mod"},
		{"claude 2.1.197: rows indented by three", "",
			"   printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat\n" +
				"   notes-copy.txt && echo the notes are copied to notes-copy.txt for the person\n", long},
		{"claude 2.1.197: a full row of a long word", "",
			"   printf %s " + tok[:84] + "\n   " + tok[84:] + " >\n   long.txt\n", "printf %s " + tok + " > long.txt"},
		{"claude 2.1.332: rows under a rule, broken and wrapped", "",
			" │ printf %s " + tok[:86] + "\n │ " + tok[86:] + " > long.txt\n", "printf %s " + tok + " > long.txt"},
		{"claude 2.1.332: real line breaks under a rule", "",
			" │ printf 'alpha\n │ beta\n │ ' > notes-copy.txt && wc -c notes-copy.txt\n", "printf 'alpha\nbeta\n' > notes-copy.txt && wc -c notes-copy.txt"},
		{"codex: a word broken after its hyphen", "  $ ",
			"wc -c notes-copy.txt && cat notes-copy.txt && head -n 3 notes-copy.txt && tail -n 2 notes-\n  copy.txt",
			"wc -c notes-copy.txt && cat notes-copy.txt && head -n 3 notes-copy.txt && tail -n 2 notes-copy.txt"},
		{"a lone dash is a word", "  $ ",
			"tar -cf - notes-copy.txt notes.txt plan.md | gzip -9 | ssh backup-host 'cat > /srv/nn.tgz' -\n  && echo sent",
			"tar -cf - notes-copy.txt notes.txt plan.md | gzip -9 | ssh backup-host 'cat > /srv/nn.tgz' - && echo sent"},
		{"one row", "  $ ", "ls -la", "ls -la"},
		{"a two-sided box as before", "",
			"│ │ npm run build &&  │ │\n│ │ npm test          │ │", "npm run build && npm test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := drawnCommand(tt.group, tt.lead, 100); got != tt.want {
				t.Errorf("drawnCommand(%q, %q, 100) =\n%q\nwant\n%q", tt.group, tt.lead, got, tt.want)
			}
		})
	}
}

// TestEngineCleanOutput: a TUI's rows among a command's output that are
// not the program's (fold markers, Copilot's note) are left out, and how
// many lines a fold hid is said.
func TestEngineCleanOutput(t *testing.T) {
	tests := []struct {
		name, in, want string
		hidden         int
	}{
		{"claude's output rows", "  ⎿  31 notes-copy.txt\n     alpha", "31 notes-copy.txt\nalpha", 0},
		{"claude folded", "  ⎿  31 notes-copy.txt\n     alpha\n     … +5 lines (ctrl+o to expand)", "31 notes-copy.txt\nalpha", 5},
		{"codex folded, the tail shown", "  └ delta\n    epsilon\n    + 4 lines (^t to expand)", "delta\nepsilon", 4},
		{"codex show details", "  └ one\n    + Show details", "one", -1},
		{"a bare expand hint", "  ⎿  one\n     (ctrl+o to expand)", "one", -1},
		{"copilot's note", " │ alpha\n │ <shellId: 0 completed with exit code 0>", "alpha", 0},
		{"output that only looks like a note stays", "  ⎿  + 4 apples\n     lines (of text)", "+ 4 apples\nlines (of text)", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, hidden := cleanOutput(tt.in)
			if got != tt.want || hidden != tt.hidden {
				t.Errorf("cleanOutput(%q) = %q, %d; want %q, %d", tt.in, got, hidden, tt.want, tt.hidden)
			}
		})
	}
}
