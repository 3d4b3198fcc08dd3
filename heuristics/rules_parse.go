package heuristics

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Field names of a profile and of a rule, in the order messages list them.
var (
	profileFields = []string{"name", "description", "command", "quiet_ms", "ready", "busy", "ran", "echo", "quit", "quit_also", "interrupt", "newline", "context_rows", "keeps_running", "drops_keys", "dialog_end", "view_keys", "rules"}
	ruleFields    = []string{"name", "look", "match", "kind", "tool", "cursor", "approve", "approve_also", "deny", "deny_also", "revise", "followup", "once", "whole_call", "hint"}
	groupNames    = []string{"command", "prompt", "description", "text", "option", "output", "context", "file", "content"}
)

// The profile file format (profiles/*.yaml are the examples):
//
//	name: generic          # optional in a --rules file: defaults to the file name
//	description: …
//	command: [gh, copilot, suggest, '{prompt}']  # argv template; [] for generic
//	quiet_ms: 40           # settle period; default 40
//	ready: 'regex'         # optional: screen must match before a prompt is typed (as a bracketed paste when the program enabled it)
//	busy: 'regex'          # optional: the program is working (a spinner, "esc to interrupt"): not at rest even at its ready box
//	ran: 'regex'           # optional: what it draws under a command that runs ("Running…"): a denied command that shows it ran
//	echo: 'regex'          # optional: lines the program prints to echo an answer, dropped from the start of tool output
//	quit: '<C-c>'          # optional: keys that leave the program; typed when a done rule fires, again while it lingers
//	quit_also: ['<C-d>', '/exit<Enter>']  # optional: the program's other ways to leave: a person's in a replay, the same as quit
//	interrupt: '<Esc>'     # optional: keys that stop a turn and keep the program open (persistent sessions)
//	newline: space         # optional: how the input box takes a line break typed without bracketed paste:
//	                       #   space (default: lines joined, and the GUI told), key:<C-j> (a newline key), backslash-enter ('\' Enter)
//	context_rows: 20       # optional: a question's tool_use carries what the program printed for it since the last answer (at most N rows)
//	keeps_running: true    # optional: the program works on while it asks (timers, animations): being on a CPU does not put a question off
//	drops_keys: true       # optional: the program may drop keys (a prompt's Enter, an answer): typed again while its screen does not change at all
//	dialog_end: '\A.*\n(?:   .*\n)*\n+ Esc to cancel'  # optional: the rest of a dialog drawn whole, from the start of a question rule's last matched row (rows with trailing spaces dropped): asked as soon as output pauses, not after its rows held still
//	view_keys: ['<C-o>']   # optional: keys that only change what the program shows (a transcript view): a person's own in a replay, never an answer
//	rules:
//	  - name: rm-remove    # unique; a --rules rule of the same name replaces it
//	    look: screen       # screen | bottom:N | transcript[:N]
//	    match: '(?m)^(?P<prompt>rm: remove .+\?)$'  # groups: command prompt description text option output
//	    kind: confirm      # suggestion | confirm | menu | input | text | result | done | fail
//	    cursor: end        # optional: fire only with the cursor right after the match
//	    approve: 'y<Enter>'  # confirm, menu, input: keys (see ParseKeys)
//	    deny: 'n<Enter>'     # confirm, menu (input: optional)
//	    approve_also: ['Y<Enter>', '<Enter>']  # optional: other answers that mean the same (a replay compares meanings)
//	    deny_also: ['N<Enter>']
//	    followup: false    # confirm, menu: answered with the previous decision
//	    once: true         # input: type the prompt at the first such question only (a REPL's prompt)
//	    whole_call: true   # confirm, menu: the question shows its call whole (command and description groups): with the command on one row it goes to the GUI at once, not after the program's transcript has the call
//	    hint: 'run …'      # fail: what the user should do about the screen
//	    tool: Write        # confirm, menu: the Claude tool the question is about (default Bash; Write and Edit read the file group)
//
// Unknown fields, bad regexes, unknown key names and kinds are errors.

// ParseProfile reads a profile from YAML. name is the file name used in
// messages (and as the profile's name when the file has no `name:`). Every
// problem in the file is reported at once, as a *RulesError.
func ParseProfile(name string, data []byte) (*Profile, error) {
	ps := newProblems(data)
	p := &Profile{Source: name}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line := 0
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		if rest, ok := strings.CutPrefix(msg, "line "); ok {
			if n, tail, ok := strings.Cut(rest, ": "); ok {
				if l, err := strconv.Atoi(n); err == nil {
					line, msg = l, tail
				}
			}
		}
		ps.add(line, 1, 1, "not valid YAML: %s", msg)
		return nil, ps.err(name)
	}
	if len(doc.Content) == 0 {
		ps.add(0, 0, 0, "the file is empty: a profile needs at least `rules:`")
		return nil, ps.err(name)
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		ps.add(root.Line, root.Column, 1, "a profile is a mapping of %s", strings.Join(profileFields, ", "))
		return nil, ps.err(name)
	}
	eachField(ps, root, profileFields, "profile", func(key string, k, val *yaml.Node) {
		switch key {
		case "name":
			p.Name = scalar(ps, val, key)
		case "description":
			p.Description = scalar(ps, val, key)
		case "command":
			p.Command = stringList(ps, val, key)
		case "quiet_ms":
			if s := scalar(ps, val, key); s != "" {
				n, err := strconv.Atoi(s)
				if err != nil || n < 1 || n > 60000 {
					ps.add(val.Line, val.Column, len(s), "quiet_ms must be a whole number of milliseconds from 1 to 60000")
				}
				p.Quiet = time.Duration(n) * time.Millisecond
			}
		case "ready":
			p.Ready = compileRegex(ps, val, key, false)
		case "busy":
			p.Busy = compileRegex(ps, val, key, false)
		case "ran":
			p.Ran = compileRegex(ps, val, key, false)
		case "dialog_end":
			p.DialogEndMatch = compileRegex(ps, val, key, false)
		case "echo":
			p.Echo = compileRegex(ps, val, key, false)
		case "quit":
			p.Quit = parseKeysAt(ps, val, key)
		case "quit_also":
			p.QuitAlso = keysList(ps, val, key)
		case "interrupt":
			p.Interrupt = parseKeysAt(ps, val, key)
		case "newline":
			if s := scalar(ps, val, key); s != "" {
				nl, err := ParseNewline(s)
				if err != nil {
					ps.add(val.Line, val.Column, len(s), "%v", err)
				}
				p.Newline = &nl
			}
		case "context_rows":
			if s := scalar(ps, val, key); s != "" {
				n, err := strconv.Atoi(s)
				if err != nil || n < 0 || n > 200 {
					ps.add(val.Line, val.Column, len(s), "context_rows must be a whole number of rows from 0 to 200")
				}
				p.ContextRows = n
			}
		case "keeps_running":
			if s := scalar(ps, val, key); s != "" {
				b, err := strconv.ParseBool(s)
				if err != nil {
					ps.add(val.Line, val.Column, len(s), "keeps_running must be true or false")
				}
				p.KeepsRunning = &b
			}
		case "drops_keys":
			if s := scalar(ps, val, key); s != "" {
				b, err := strconv.ParseBool(s)
				if err != nil {
					ps.add(val.Line, val.Column, len(s), "drops_keys must be true or false")
				}
				p.DropsKeys = &b
			}
		case "view_keys":
			p.ViewKeys = keysList(ps, val, key)
		case "rules":
			p.Rules = parseRules(ps, val, name)
		}
	})
	if p.Name == "" {
		p.Name = strings.TrimSuffix(path.Base(name), path.Ext(name))
	}
	p.Rules = bindNewline(p.Rules, p.LineBreak(), false)
	if err := ps.err(name); err != nil {
		return nil, err
	}
	return p, nil
}

// eachField calls fn for every known key of a mapping and reports unknown
// and repeated ones.
func eachField(ps *problems, m *yaml.Node, known []string, what string, fn func(key string, k, v *yaml.Node)) {
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch {
		case !contains(known, k.Value):
			ps.add(k.Line, k.Column, len(k.Value), "unknown %s field %q: known fields are %s", what, k.Value, strings.Join(known, ", "))
		case seen[k.Value]:
			ps.add(k.Line, k.Column, len(k.Value), "field %q given twice", k.Value)
		default:
			seen[k.Value] = true
			fn(k.Value, k, v)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// scalar returns a scalar's text, reporting any other node.
func scalar(ps *problems, n *yaml.Node, key string) string {
	if n.Kind != yaml.ScalarNode {
		ps.add(n.Line, n.Column, 1, "%s must be a single value, not a list or mapping", key)
		return ""
	}
	return n.Value
}

// stringList reads a sequence of scalars.
func stringList(ps *problems, n *yaml.Node, key string) []string {
	return listOf(ps, n, key, "strings, e.g. [gh, copilot, suggest, '{prompt}']", scalar)
}

// listOf reads a sequence, each item with item; what names the items in
// the error for anything else ("keys, e.g. …").
func listOf[T any](ps *problems, n *yaml.Node, key, what string, item func(*problems, *yaml.Node, string) T) []T {
	if n.Kind != yaml.SequenceNode {
		ps.add(n.Line, n.Column, max(1, len(n.Value)), "%s must be a list of %s", key, what)
		return nil
	}
	out := make([]T, 0, len(n.Content))
	for _, c := range n.Content {
		out = append(out, item(ps, c, key))
	}
	return out
}

// compileRegex compiles a regex value, putting the caret under the bad part
// of the pattern; with groups it also checks the named groups.
func compileRegex(ps *problems, n *yaml.Node, key string, groups bool) *regexp.Regexp {
	s := scalar(ps, n, key)
	if s == "" {
		if n.Kind == yaml.ScalarNode {
			ps.add(n.Line, n.Column, 1, "%s must be a non-empty regular expression", key)
		}
		return nil
	}
	rx, err := regexp.Compile(s)
	if err != nil {
		bad := s
		var se *syntax.Error
		if errors.As(err, &se) {
			bad = se.Expr
			if se.Code == syntax.ErrMissingParen {
				bad = s[unclosedParen(s):] // the caret goes under the '(' left open
			}
			bad, _, _ = strings.Cut(bad, "\n")
			msg := fmt.Sprintf("bad regular expression in %s: %s: `%s`", key, se.Code, strings.ReplaceAll(se.Expr, "\n", `\n`))
			l, c := ps.locate(n.Line, n.Column, bad)
			ps.add(l, c, len(bad), "%s", msg)
			return nil
		}
		l, c := ps.locate(n.Line, n.Column, bad)
		ps.add(l, c, len(bad), "bad regular expression in %s: %v", key, err)
		return nil
	}
	if groups {
		for _, g := range rx.SubexpNames() {
			if g != "" && !contains(groupNames, g) {
				l, c := ps.locate(n.Line, n.Column, "<"+g+">")
				ps.add(l, c+1, len(g), "unknown group name %q: rules read the groups %s", g, strings.Join(groupNames, ", "))
			}
		}
	}
	return rx
}

// parseKeysAt parses a keys value, with the caret under the bad key name.
func parseKeysAt(ps *problems, n *yaml.Node, key string) Keys {
	s := scalar(ps, n, key)
	k, err := ParseKeys(s)
	if err != nil {
		var ke *KeyError
		tok := s
		if errors.As(err, &ke) {
			tok = s[ke.Offset : ke.Offset+ke.Len]
		}
		l, c := ps.locate(n.Line, n.Column, tok)
		ps.add(l, c, len(tok), "%s: %v", key, err)
	}
	return k
}

// unclosedParen returns the offset of the last '(' in a regex that no ')'
// closes, skipping escapes and character classes; 0 if there is none.
func unclosedParen(re string) int {
	var open []int
	inClass := false
	for i := 0; i < len(re); i++ {
		switch c := re[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
			if i+1 < len(re) && re[i+1] == ']' {
				i++ // "[]...]": a leading ']' is literal
			}
		case c == '(':
			open = append(open, i)
		case c == ')' && len(open) > 0:
			open = open[:len(open)-1]
		}
	}
	if len(open) == 0 {
		return 0
	}
	return open[len(open)-1]
}
