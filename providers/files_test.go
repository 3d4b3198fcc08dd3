package providers

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestProviderFiles holds docs/providers.md's "A provider's files" table
// against the registry: every provider has a row; every file a row names
// exists; the row's profile is the descriptor's; a provider whose TUI has
// a transcript names where it is read; each of its formats' translators
// (structured/<format's first word>.go) is in the row.
func TestProviderFiles(t *testing.T) {
	root := filepath.Join("..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "providers.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := providerRows(t, string(doc))
	file := regexp.MustCompile("`([^`]+)`")
	for _, p := range All() {
		row, ok := rows[p.Name]
		if !ok {
			t.Errorf("%s: no row in docs/providers.md's table of a provider's files", p.Name)
			continue
		}
		named := map[string]bool{}
		for _, cell := range row {
			for _, m := range file.FindAllStringSubmatch(cell, -1) {
				named[m[1]] = true
				if strings.Contains(m[1], "*") {
					continue
				}
				if _, err := os.Stat(filepath.Join(root, m[1])); err != nil {
					t.Errorf("%s: the table names %s, which is not there", p.Name, m[1])
				}
			}
		}
		if p.Profile != "" && !strings.Contains(row[1], "heuristics/profiles/"+p.Profile+".yaml") {
			t.Errorf("%s: profile %s, the table says %q", p.Name, p.Profile, row[1])
		}
		if p.TUI != nil && p.TUI.Transcript != nil && !strings.Contains(row[2], ".go") {
			t.Errorf("%s: its TUI has a transcript, the table names no file that reads it", p.Name)
		}
		for _, m := range p.Structured {
			tr := "structured/" + strings.SplitN(m.Format, "-", 2)[0] + ".go"
			if !named[tr] {
				t.Errorf("%s: mode %s (format %s) is translated in %s, which its row does not name", p.Name, m.Name, m.Format, tr)
			}
		}
	}
}

// providerRows reads the table under "## A provider's files": the
// provider's name, then its descriptor, profile, transcript and
// translation cells.
func providerRows(t *testing.T, doc string) map[string][]string {
	t.Helper()
	_, after, ok := strings.Cut(doc, "## A provider's files\n")
	if !ok {
		t.Fatal(`docs/providers.md has no "## A provider's files" section`)
	}
	section, _, _ := strings.Cut(after, "\n## ")
	rows := map[string][]string{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if !strings.HasPrefix(line, "| ") || len(cells) != 5 || cells[0] == "provider" {
			continue
		}
		rows[cells[0]] = cells[1:]
	}
	return rows
}
