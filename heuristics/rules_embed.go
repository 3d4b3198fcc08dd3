package heuristics

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// profileFS holds the embedded provider profiles, one YAML file each.
//
//go:embed profiles/*.yaml
var profileFS embed.FS

// ProfileNames lists the embedded profiles, sorted.
func ProfileNames() []string {
	entries, err := fs.ReadDir(profileFS, "profiles")
	if err != nil {
		return nil // cannot happen: the directory is embedded
	}
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// LoadProfile parses the embedded profile called name (e.g. "generic").
func LoadProfile(name string) (*Profile, error) {
	file := "profiles/" + name + ".yaml"
	data, err := profileFS.ReadFile(file)
	if err != nil || strings.ContainsAny(name, "/\\") {
		return nil, fmt.Errorf("no built-in rules for %q: known profiles are %s (or pass --rules FILE)",
			name, strings.Join(ProfileNames(), ", "))
	}
	return ParseProfile(file, data)
}
