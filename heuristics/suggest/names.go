// Naming: the profile after the recorded command, each rule after its
// question's first words, numbered when a name is taken.

package suggest

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

var wordRx = lazyre.New(`[A-Za-z0-9]+`)

// ruleName is kebab-case from the first words of the question, hints and
// defaults left out.
func ruleName(q string) string {
	s := q
	for _, rx := range []*lazyre.Regexp{hintRx, defaultRx, quotedRx, pathRx, fileRx} {
		s = rx.ReplaceAllString(s, " ")
	}
	var words []string
	for _, w := range wordRx.FindAllString(s, -1) {
		if strings.Trim(w, "0123456789") != "" { // "(1/2)" is no name
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		words = wordRx.FindAllString(q, -1)
	}
	if len(words) > 5 {
		words = words[:5]
	}
	return strings.ToLower(strings.Join(words, "-"))
}

// interpreters run a script named by their first argument: the script
// names the profile.
var interpreters = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "fish": true,
	"node": true, "deno": true, "bun": true, "python": true, "python3": true, "ruby": true, "perl": true, "npx": true}

var plainWordRx = lazyre.New(`^[a-z][a-z0-9-]*$`)

// nameFromCommand names a profile after the recorded program: "npm-init",
// "gdb", a script's name for "sh apt-install.sh".
func nameFromCommand(argv []string) string {
	if len(argv) == 0 {
		return "suggested"
	}
	base := filepath.Base(argv[0])
	name := base
	if interpreters[base] {
		for _, a := range argv[1:] {
			if !strings.HasPrefix(a, "-") {
				s := filepath.Base(a)
				name = strings.TrimSuffix(s, filepath.Ext(s))
				break
			}
		}
	} else if len(argv) > 1 && plainWordRx.MatchString(argv[1]) {
		name += "-" + argv[1]
	}
	name = strings.ToLower(strings.Join(wordRx.FindAllString(name, -1), "-"))
	return orDefault(name, "suggested")
}

func (p *Profile) uniqueName(base string) string {
	if base == "" {
		base = "question"
	}
	name := base
	for n := 2; ; n++ {
		taken := false
		for _, r := range p.Rules {
			taken = taken || r.Name == name
		}
		if !taken {
			return name
		}
		name = base + "-" + strconv.Itoa(n)
	}
}
