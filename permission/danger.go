package permission

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// The dangerous set is data (dangerous.yaml), like the rule profiles: a
// person can read it, and --dangerous-rules or the settings file add to
// it, turn an entry off or make exceptions, without a new build. It is
// the guard's one list: what it flags, the guard blocks when nobody can
// be asked, auto mode never approves, and every mode marks.

//go:embed dangerous.yaml
var dangerousYAML []byte

// DangerRule is one kind of dangerous command.
type DangerRule struct {
	Name   string `yaml:"name"`
	Reason string `yaml:"reason"`
	// Match is a regexp; Scope says what it reads: "line" (the command
	// line as written, the default), "command" (each simple command, as
	// its program gets it: quotes removed, program by base name, once
	// more after each wrapper such as sudo or env) or "pipeline" (each
	// pipeline's commands, so read, joined with " | ").
	Match string `yaml:"match"`
	Scope string `yaml:"scope"`
	// Check names a built-in test instead: outside-cwd, writes-path or
	// touches-path (the last two with Paths).
	Check string   `yaml:"check"`
	Paths []string `yaml:"paths"`
	// Off turns off the embedded rule of the same name.
	Off bool `yaml:"off"`
	// Examples must be flagged, Ordinary must not: the tests run both.
	Examples []string `yaml:"examples"`
	Ordinary []string `yaml:"ordinary"`

	re *regexp.Regexp
}

// Scopes and checks a rule may name.
var (
	scopes     = []string{"line", "command", "pipeline"}
	checkNames = []string{"outside-cwd", "writes-path", "touches-path"}
)

// Compile checks the rule and readies its pattern. Its errors name the
// field at fault and say what to write instead.
func (r *DangerRule) Compile() error {
	switch {
	case r.Name == "":
		return fmt.Errorf("every rule needs a name")
	case r.Off:
		return nil
	case r.Reason == "":
		return fmt.Errorf("reason: needed (what the person reads)")
	case (r.Match == "") == (r.Check == ""):
		return fmt.Errorf("needs either match (a regexp) or check (one of: %s)", strings.Join(checkNames, ", "))
	case r.Check != "" && !slices.Contains(checkNames, r.Check):
		return fmt.Errorf("check: unknown check %q (known: %s)", r.Check, strings.Join(checkNames, ", "))
	case r.Check != "" && r.Check != "outside-cwd" && len(r.Paths) == 0:
		return fmt.Errorf("paths: check %s needs the paths it looks for (/etc/, .ssh/, id_rsa*)", r.Check)
	case r.Scope != "" && !slices.Contains(scopes, r.Scope):
		return fmt.Errorf("scope: unknown scope %q (known: %s)", r.Scope, strings.Join(scopes, ", "))
	}
	for _, p := range r.Paths {
		if _, err := matchName(p, "x"); err != nil || p == "" || p == "/" {
			return fmt.Errorf("paths: %q is not a path pattern (/dir/, name/, or a file name glob)", p)
		}
	}
	if r.Match != "" {
		re, err := regexp.Compile(r.Match)
		if err != nil {
			return fmt.Errorf("match: %w", err)
		}
		r.re = re
	}
	return nil
}

// scope is the rule's scope, "line" when unset.
func (r *DangerRule) scope() string {
	if r.Scope == "" {
		return "line"
	}
	return r.Scope
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
		if seen[r.Name] && r.Name != "" {
			return nil, fmt.Errorf("%s: a second rule with this name", where)
		}
		if err := r.Compile(); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		seen[r.Name] = true
	}
	return doc.Rules, nil
}

// Dangers is a set of dangerous-command rules and the exceptions to
// them, for one working directory.
type Dangers struct {
	rules  func() []DangerRule // resolved once, when first used
	allows []Exception
	cwd    string
}

// DefaultDangers is the embedded set, for the current directory. Its
// file is parsed when a set is first used (Rules, Check, Ready), not
// here: a session builds its set before it starts the program, and the
// parse (about 1 ms, 1.5 as the process starts) would delay that start.
func DefaultDangers() *Dangers { return &Dangers{rules: embeddedDangers} }

// Ready resolves the set now (the embedded file parsed, the extra rules
// applied), so that the first question does not: call it where there is
// time, as the program starts. A nil set (none) has nothing to resolve,
// as it judges nothing (Judge).
func (s *Dangers) Ready() {
	if s != nil {
		s.rules()
	}
}

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
	base := s.rules
	rules := sync.OnceValue(func() []DangerRule {
		var out []DangerRule
		byName := map[string]DangerRule{}
		for _, r := range extra {
			byName[r.Name] = r
		}
		for _, r := range base() {
			if x, ok := byName[r.Name]; ok {
				delete(byName, r.Name)
				r = x
			}
			if !r.Off {
				out = append(out, r)
			}
		}
		for _, r := range extra {
			if _, ok := byName[r.Name]; ok && !r.Off {
				out = append(out, r)
			}
		}
		return out
	})
	return &Dangers{rules: rules, cwd: s.cwd, allows: s.allows}
}

// Excepting returns the set with exceptions added.
func (s *Dangers) Excepting(allows []Exception) *Dangers {
	return &Dangers{rules: s.rules, cwd: s.cwd, allows: append(slices.Clip(s.allows), allows...)}
}

// In returns the set judging paths against the working directory cwd.
func (s *Dangers) In(cwd string) *Dangers {
	return &Dangers{rules: s.rules, allows: s.allows, cwd: cwd}
}

// Rules lists the set's rules.
func (s *Dangers) Rules() []DangerRule { return s.rules() }

// Exceptions lists the set's exceptions.
func (s *Dangers) Exceptions() []Exception { return s.allows }

// Check returns why command is dangerous ("" if it is not): the reasons
// of every rule it matches, joined.
func (s *Dangers) Check(command string) string {
	return s.Judge("Bash", map[string]any{"command": command}).Reason
}

// Call checks a tool call (see Judge) and returns why it is dangerous
// ("" if it is not).
func (s *Dangers) Call(tool string, input map[string]any) string {
	return s.Judge(tool, input).Reason
}
