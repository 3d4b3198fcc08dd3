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
