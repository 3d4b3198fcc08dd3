package settings

import (
	"slices"
	"strings"

	"github.com/yume-cli/yume-cli/permission"
	"go.yaml.in/yaml/v3"
)

// rules reads guard.block: rules in dangerous.yaml's format.
func rules(ps *problems, n *yaml.Node) []Rule {
	if n.Kind != yaml.SequenceNode {
		ps.add(n.Line, n.Column, 1, "guard.block must be a list of rules (name, reason, match or check), as `yume-cli rules dangerous` prints them")
		return nil
	}
	embedded := map[string]bool{}
	for _, r := range permission.DefaultDangers().Rules() {
		embedded[r.Name] = true
	}
	var out []Rule
	for _, c := range n.Content {
		if !known(ps, c, ruleKeys, "guard.block") {
			continue
		}
		var r permission.DangerRule
		if err := c.Decode(&r); err != nil {
			ps.add(c.Line, c.Column, 1, "guard.block: %s", strings.TrimPrefix(err.Error(), "yaml: "))
			continue
		}
		switch {
		case r.Name != "" && slices.ContainsFunc(out, func(x Rule) bool { return x.Name == r.Name }):
			at(ps, c, "name", "guard.block: a second rule named %q", r.Name)
			continue
		case r.Off && !embedded[r.Name]:
			at(ps, c, "name", "guard.block: off turns off a built-in rule, and none is named %q (yume-cli rules dangerous lists them)", r.Name)
			continue
		}
		if err := r.Compile(); err != nil {
			field, _, _ := strings.Cut(err.Error(), ":")
			at(ps, c, field, "guard.block: rule %q: %v", r.Name, err)
			continue
		}
		out = append(out, Rule{DangerRule: r, Line: c.Line})
	}
	return out
}

// exceptions reads guard.allow: {match, reason}.
func exceptions(ps *problems, n *yaml.Node) []Exception {
	if n.Kind != yaml.SequenceNode {
		ps.add(n.Line, n.Column, 1, "guard.allow must be a list of exceptions, each a match (a regexp the whole command must match) and a reason")
		return nil
	}
	var out []Exception
	for _, c := range n.Content {
		if !known(ps, c, allowKeys, "guard.allow") {
			continue
		}
		var x permission.Exception
		if err := c.Decode(&x); err != nil {
			ps.add(c.Line, c.Column, 1, "guard.allow: %s", strings.TrimPrefix(err.Error(), "yaml: "))
			continue
		}
		if err := x.Compile(); err != nil {
			field, _, _ := strings.Cut(err.Error(), ":")
			at(ps, c, field, "guard.allow: %v", err)
			continue
		}
		out = append(out, Exception{Exception: x, Line: c.Line})
	}
	return out
}

// known reports whether c is a mapping of known keys only, recording
// each other key as a problem.
func known(ps *problems, c *yaml.Node, keys []string, what string) bool {
	if c.Kind != yaml.MappingNode {
		ps.add(c.Line, c.Column, 1, "%s: each entry is a mapping of %s", what, strings.Join(keys, ", "))
		return false
	}
	ok := true
	for i := 0; i+1 < len(c.Content); i += 2 {
		if k := c.Content[i]; !slices.Contains(keys, k.Value) {
			ps.add(k.Line, k.Column, len(k.Value), "%s: unknown key %q: use one of %s", what, k.Value, strings.Join(keys, ", "))
			ok = false
		}
	}
	return ok
}

// at records a problem at the value of key in mapping c (at c itself
// when it has no such key).
func at(ps *problems, c *yaml.Node, key, format string, args ...any) {
	for i := 0; i+1 < len(c.Content); i += 2 {
		if c.Content[i].Value == key {
			v := c.Content[i+1]
			ps.add(v.Line, v.Column, max(1, len(v.Value)), format, args...)
			return
		}
	}
	ps.add(c.Line, c.Column, 1, format, args...)
}
