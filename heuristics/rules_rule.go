package heuristics

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// parseRules reads the `rules:` list and checks each rule on its own and
// against the others.
func parseRules(ps *problems, n *yaml.Node, source string) []*Rule {
	if n.Kind != yaml.SequenceNode {
		ps.add(n.Line, n.Column, 1, "rules must be a list of rules, each starting with '- name:'")
		return nil
	}
	var out []*Rule
	names := map[string]int{}
	for _, rn := range n.Content {
		r := parseRule(ps, rn, source)
		if r == nil {
			continue
		}
		if prev, dup := names[r.Name]; dup && r.Name != "" {
			l, c := ps.locate(rn.Line, rn.Column, r.Name)
			ps.add(l, c, len(r.Name), "rule name %q is already used on line %d: names must be unique", r.Name, prev)
		}
		names[r.Name] = r.Line
		out = append(out, r)
	}
	return out
}

// parseRule reads one rule mapping; problems go to ps.
func parseRule(ps *problems, n *yaml.Node, source string) *Rule {
	if n.Kind != yaml.MappingNode {
		ps.add(n.Line, n.Column, 1, "a rule is a mapping of %s", strings.Join(ruleFields, ", "))
		return nil
	}
	r := &Rule{Line: n.Line, Source: source, Look: Look{Area: AreaScreen}}
	nodes := map[string]*yaml.Node{}
	eachField(ps, n, ruleFields, "rule", func(key string, k, v *yaml.Node) {
		nodes[key] = v
		switch key {
		case "name":
			r.Name = scalar(ps, v, key)
		case "look":
			if s := scalar(ps, v, key); s != "" {
				look, err := ParseLook(s)
				if err != nil {
					ps.add(v.Line, v.Column, len(s), "%v", err)
				}
				r.Look = look
			}
		case "match":
			r.Match = compileRegex(ps, v, key, true)
		case "kind":
			r.Kind = Kind(scalar(ps, v, key))
			if !containsKind(r.Kind) {
				ps.add(v.Line, v.Column, max(1, len(v.Value)), "unknown kind %q: use one of %s", v.Value, kindList())
			}
		case "cursor":
			switch s := scalar(ps, v, key); s {
			case "", "any":
				r.Cursor = CursorAny
			case "end":
				r.Cursor = CursorEnd
			default:
				ps.add(v.Line, v.Column, len(s), "unknown cursor %q: use end (fire when the cursor waits right after the match) or leave it out", s)
			}
		case "approve":
			r.Approve = parseKeysAt(ps, v, key)
		case "deny":
			r.Deny = parseKeysAt(ps, v, key)
		case "revise":
			r.Revise = parseKeysAt(ps, v, key)
		case "approve_also", "deny_also":
			list := keysList(ps, v, key)
			if key == "approve_also" {
				r.ApproveAlso = list
			} else {
				r.DenyAlso = list
			}
		case "hint":
			r.Hint = scalar(ps, v, key)
		case "tool":
			switch r.Tool = scalar(ps, v, key); r.Tool {
			case "Bash", "Write", "Edit":
			default:
				ps.add(v.Line, v.Column, max(1, len(r.Tool)), "unknown tool %q: use Bash, Write or Edit", r.Tool)
			}
		case "followup", "once", "whole_call":
			set := map[string]*bool{"followup": &r.Followup, "once": &r.Once, "whole_call": &r.WholeCall}[key]
			switch s := scalar(ps, v, key); s {
			case "true":
				*set = true
			case "false":
			default:
				ps.add(v.Line, v.Column, len(s), "%s must be true or false", key)
			}
		}
	})
	checkRule(ps, r, n, nodes)
	return r
}

// checkRule reports missing fields and fields that make no sense together.
func checkRule(ps *problems, r *Rule, n *yaml.Node, nodes map[string]*yaml.Node) {
	for _, req := range []string{"name", "match", "kind"} {
		if nodes[req] == nil {
			ps.add(n.Line, n.Column, 1, "rule needs a %s", req)
		}
	}
	if r.Match == nil || !containsKind(r.Kind) {
		return // already reported
	}
	has := func(g string) bool { return r.Match.SubexpIndex(g) >= 0 }
	at := func(field string) (int, int, int) {
		if v := nodes[field]; v != nil {
			return v.Line, v.Column, max(1, len(v.Value))
		}
		return n.Line, n.Column, 1
	}
	switch r.Kind {
	case KindSuggestion:
		if !has("command") {
			l, c, w := at("match")
			ps.add(l, c, w, "a suggestion rule needs a (?P<command>...) group in match")
		}
	case KindText:
		if !has("text") {
			l, c, w := at("match")
			ps.add(l, c, w, "a text rule needs a (?P<text>...) group in match")
		}
	case KindResult:
		if !has("output") {
			l, c, w := at("match")
			ps.add(l, c, w, "a result rule needs an (?P<output>...) group in match: the command's output")
		}
	}
	if r.Kind.asks() {
		if r.Approve.IsZero() {
			l, c, w := at("kind")
			ps.add(l, c, w, "a %s rule needs approve keys (what to type to say yes)", r.Kind)
		}
		if r.Deny.IsZero() && r.Kind != KindInput {
			l, c, w := at("kind")
			ps.add(l, c, w, "a %s rule needs deny keys (what to type to say no)", r.Kind)
		}
	} else {
		for _, f := range []string{"approve", "deny"} {
			if nodes[f] != nil {
				l, c, w := at(f)
				ps.add(l, c, w, "%s is only used by confirm, menu and input rules; a %s rule types nothing", f, r.Kind)
			}
		}
	}
	if r.Kind == KindFail && r.Hint == "" {
		l, c, w := at("kind")
		ps.add(l, c, w, "a fail rule needs a hint: what the user should do about this screen")
	}
	if r.Followup && r.Kind != KindConfirm && r.Kind != KindMenu {
		l, c, w := at("followup")
		ps.add(l, c, w, "followup is only for confirm and menu rules")
	}
	if r.WholeCall && (r.Kind != KindConfirm && r.Kind != KindMenu || !has("command") || r.Tool != "" && r.Tool != "Bash") {
		l, c, w := at("whole_call")
		ps.add(l, c, w, "whole_call is only for confirm and menu rules about a command, with a (?P<command>...) group")
	}
	if (r.Approve.NeedsPrompt() || r.Deny.NeedsPrompt()) && r.Kind != KindInput {
		l, c, w := at("approve")
		ps.add(l, c, w, "<Prompt> is only typed by input rules")
	}
}

func containsKind(k Kind) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

func kindList() string {
	s := make([]string, len(kinds))
	for i, k := range kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// keysList reads a YAML list of keys (approve_also, view_keys).
func keysList(ps *problems, v *yaml.Node, key string) []Keys {
	return listOf(ps, v, key, "keys, e.g. ['Y<Enter>', '<Enter>']", parseKeysAt)
}
