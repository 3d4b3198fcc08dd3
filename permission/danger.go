package permission

import (
	_ "embed"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// The dangerous set is data (dangerous.yaml), like the rule profiles: a
// person can read it, and --dangerous-rules adds to it or turns an entry
// off, without a new build.

//go:embed dangerous.yaml
var dangerousYAML []byte

// DangerRule is one kind of dangerous command.
type DangerRule struct {
	Name   string `yaml:"name"`
	Reason string `yaml:"reason"`
	// Match is a regexp over the whole command; Check names a built-in
	// test instead (outside-cwd).
	Match string `yaml:"match"`
	Check string `yaml:"check"`
	// Off turns off the embedded rule of the same name.
	Off bool `yaml:"off"`
	// Examples must be flagged, Ordinary must not: the tests run both.
	Examples []string `yaml:"examples"`
	Ordinary []string `yaml:"ordinary"`

	re *regexp.Regexp
}

// Dangers is a set of dangerous-command rules for one working directory.
type Dangers struct {
	rules []DangerRule
	cwd   string
}

// checks are the built-in tests a rule may name.
var checks = map[string]func(command, cwd string) bool{
	"outside-cwd": writesOutside,
}

// ParseDangers reads a rule file (the format of dangerous.yaml).
func ParseDangers(name string, data []byte) ([]DangerRule, error) {
	var doc struct {
		Rules []DangerRule `yaml:"rules"`
	}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	seen := map[string]bool{}
	for i := range doc.Rules {
		r := &doc.Rules[i]
		where := fmt.Sprintf("%s: rule %d (%q)", name, i+1, r.Name)
		switch {
		case r.Name == "":
			return nil, fmt.Errorf("%s: every rule needs a name", where)
		case seen[r.Name]:
			return nil, fmt.Errorf("%s: a second rule with this name", where)
		case r.Off:
		case r.Reason == "":
			return nil, fmt.Errorf("%s: needs a reason (what the person reads)", where)
		case (r.Match == "") == (r.Check == ""):
			return nil, fmt.Errorf("%s: needs either match (a regexp) or check (one of: outside-cwd)", where)
		case r.Check != "" && checks[r.Check] == nil:
			return nil, fmt.Errorf("%s: unknown check %q (known: outside-cwd)", where, r.Check)
		}
		seen[r.Name] = true
		if r.Match != "" {
			re, err := regexp.Compile(r.Match)
			if err != nil {
				return nil, fmt.Errorf("%s: match: %w", where, err)
			}
			r.re = re
		}
	}
	return doc.Rules, nil
}

// DefaultDangers is the embedded set, for the current directory.
func DefaultDangers() *Dangers { return &Dangers{rules: embeddedDangers()} }

var embeddedDangers = sync.OnceValue(func() []DangerRule {
	rules, err := ParseDangers("dangerous.yaml", dangerousYAML)
	if err != nil {
		panic(err) // the embedded file is tested
	}
	return rules
})

// With returns the set with extra rules: one with the name of an
// existing rule replaces it (or, with off, removes it); the rest are added.
func (s *Dangers) With(extra []DangerRule) *Dangers {
	out := &Dangers{cwd: s.cwd}
	byName := map[string]DangerRule{}
	for _, r := range extra {
		byName[r.Name] = r
	}
	for _, r := range s.rules {
		if x, ok := byName[r.Name]; ok {
			delete(byName, r.Name)
			r = x
		}
		if !r.Off {
			out.rules = append(out.rules, r)
		}
	}
	for _, r := range extra {
		if _, ok := byName[r.Name]; ok && !r.Off {
			out.rules = append(out.rules, r)
		}
	}
	return out
}

// In returns the set judging paths against the working directory cwd.
func (s *Dangers) In(cwd string) *Dangers { return &Dangers{rules: s.rules, cwd: cwd} }

// Rules lists the set's rules.
func (s *Dangers) Rules() []DangerRule { return s.rules }

// Check returns why command is dangerous ("" if it is not): the reasons
// of every rule it matches, joined.
func (s *Dangers) Check(command string) string {
	if s == nil || strings.TrimSpace(command) == "" {
		return ""
	}
	var reasons []string
	for _, r := range s.rules {
		hit := r.re != nil && r.re.MatchString(command) || r.Check != "" && checks[r.Check](command, s.cwd)
		if hit && !slices.Contains(reasons, r.Reason) {
			reasons = append(reasons, r.Reason)
		}
	}
	return strings.Join(reasons, "; ")
}

// Call checks a tool call: a Bash command against the set, a file edit's
// path against the working directory (when the outside-cwd rule is on).
func (s *Dangers) Call(tool string, input map[string]any) string {
	if s == nil {
		return ""
	}
	if c, ok := input["command"].(string); ok {
		return s.Check(c)
	}
	path, _ := input["file_path"].(string)
	if path == "" {
		path, _ = input["path"].(string)
	}
	if path == "" {
		return ""
	}
	for _, r := range s.rules {
		if r.Check == "outside-cwd" && outside(path, s.cwdOrWd()) {
			return r.Reason
		}
	}
	return ""
}

func (s *Dangers) cwdOrWd() string {
	if s.cwd != "" {
		return s.cwd
	}
	wd, _ := os.Getwd()
	return wd
}

// DangerWarning is the system warning for a dangerous call.
func DangerWarning(what, reason string) string {
	return "dangerous command (" + reason + "): " + what
}

// DangerNotAuto is said when auto mode asks about a dangerous call.
func DangerNotAuto(reason string) string {
	return "permission mode auto does not approve a dangerous command (" + reason + "): asking"
}

// DangerDenied is the tool_result of a dangerous call in auto mode with
// nobody to ask.
func DangerDenied(reason string) string {
	return "Denied: a dangerous command (" + reason + ") is never auto-approved, and there is no approval channel to ask; approve it from the GUI, or run it yourself."
}
