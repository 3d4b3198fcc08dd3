package permission

import (
	"slices"
	"strings"
)

// Danger is what the dangerous set found in one tool call.
type Danger struct {
	// Rules are the names of the rules the call matches, Reason their
	// reasons joined with "; " ("" when it matches none).
	Rules  []string
	Reason string
	// Allowed is the reason of an exception that let a part of the call
	// that a rule flags through ("" when none did).
	Allowed string
}

// Flagged reports whether a rule flags the call.
func (d Danger) Flagged() bool { return d.Reason != "" }

// Rule names the rules that flag the call, for a message.
func (d Danger) Rule() string { return strings.Join(d.Rules, ", ") }

// judgement collects the rules a call matches.
type judgement struct {
	rules   []*DangerRule
	allowed string
}

func (j *judgement) hit(r *DangerRule) {
	if !slices.Contains(j.rules, r) {
		j.rules = append(j.rules, r)
	}
}

// merge takes what sub found, unless exception a (nil: none) excuses it.
func (j *judgement) merge(sub *judgement, a *Exception) {
	if a != nil && len(sub.rules) > 0 {
		if j.allowed == "" {
			j.allowed = a.Reason
		}
		return
	}
	for _, r := range sub.rules {
		j.hit(r)
	}
	if j.allowed == "" {
		j.allowed = sub.allowed
	}
}

func (j *judgement) danger() Danger {
	d := Danger{Allowed: j.allowed}
	var reasons []string
	for _, r := range j.rules {
		d.Rules = append(d.Rules, r.Name)
		if !slices.Contains(reasons, r.Reason) {
			reasons = append(reasons, r.Reason)
		}
	}
	d.Reason = strings.Join(reasons, "; ")
	return d
}

// writingTools are Claude's tools that write their file_path.
var writingTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true}

// Judge checks a tool call: a command (any tool with a "command") by its
// command line; a file tool by its path, which the writing tools (Write,
// Edit, MultiEdit, NotebookEdit) write and the others only read.
func (s *Dangers) Judge(tool string, input map[string]any) Danger {
	if s == nil {
		return Danger{}
	}
	j := &judgement{}
	if c, ok := input["command"].(string); ok {
		if strings.TrimSpace(c) != "" {
			s.judgeLine(j, c, 0)
		}
		return j.danger()
	}
	keys := []string{"file_path", "notebook_path", "path"}
	if tool == "Glob" {
		keys = append(keys, "pattern")
	}
	for _, k := range keys {
		if p, ok := input[k].(string); ok && p != "" {
			sub := &judgement{}
			s.judgePath(sub, p, writingTools[tool])
			j.merge(sub, s.allowFor(p))
		}
	}
	return j.danger()
}

// judgeLine judges a command line: as a whole, by its pipelines and by
// each simple command, with the lines those run (sh -c, eval).
func (s *Dangers) judgeLine(j *judgement, line string, depth int) {
	rules := s.rules()
	whole := &judgement{}
	for i := range rules {
		if r := &rules[i]; r.re != nil && r.scope() == "line" && r.re.MatchString(line) {
			whole.hit(r)
		}
	}
	cmds := parseLine(line)
	for _, p := range pipelines(cmds) {
		sub := &judgement{}
		text, raw := pipelineText(p)
		for i := range rules {
			if r := &rules[i]; r.re != nil && r.scope() == "pipeline" && r.re.MatchString(text) {
				sub.hit(r)
			}
		}
		s.judgeHeredocs(sub, p, depth)
		whole.merge(sub, s.allowFor(raw, text))
	}
	for _, c := range cmds {
		sub := &judgement{}
		vs := views(c.words)
		s.judgeCommand(sub, c, vs, depth)
		var full string
		if len(vs) > 0 {
			full = joinWords(vs[0])
		}
		whole.merge(sub, s.allowFor(c.raw, full))
	}
	j.merge(whole, s.allowFor(line))
}

// judgeCommand judges one simple command through its views.
func (s *Dangers) judgeCommand(j *judgement, c simple, vs [][]string, depth int) {
	rules := s.rules()
	for _, v := range vs {
		text := joinWords(v)
		for i := range rules {
			if r := &rules[i]; r.re != nil && r.scope() == "command" && r.re.MatchString(text) {
				j.hit(r)
			}
		}
		if depth < maxDepth {
			for _, line := range nested(v, "") {
				s.judgeLine(j, line, depth+1)
			}
		}
	}
	for i := range rules {
		if r := &rules[i]; r.Check != "" && s.checkCommand(r, c, vs) {
			j.hit(r)
		}
	}
}

// judgeHeredocs judges the here-documents of a pipeline that a shell in
// it reads as commands (bash <<EOF, cat <<EOF | sh).
func (s *Dangers) judgeHeredocs(j *judgement, p []simple, depth int) {
	if depth >= maxDepth {
		return
	}
	for i, c := range p {
		if c.heredoc == "" {
			continue
		}
		for _, d := range p[i:] {
			vs := views(d.words)
			if len(vs) > 0 && len(nested(vs[len(vs)-1], c.heredoc)) > 0 && shells[vs[len(vs)-1][0]] {
				s.judgeLine(j, c.heredoc, depth+1)
				break
			}
		}
	}
}

// judgePath judges a file tool's path.
func (s *Dangers) judgePath(j *judgement, p string, writes bool) {
	rules := s.rules()
	for i := range rules {
		r := &rules[i]
		switch {
		case r.re != nil && r.scope() == "line" && r.re.MatchString(p):
			j.hit(r)
		case r.Check == "touches-path" && s.touches(r, p):
			j.hit(r)
		case !writes:
		case r.Check == "writes-path" && s.writesTo(r, p):
			j.hit(r)
		case r.Check == "outside-cwd" && outside(p, s.cwdOrWd()):
			j.hit(r)
		}
	}
}

// pipelines groups simple commands joined by |.
func pipelines(cmds []simple) [][]simple {
	var out [][]simple
	start := 0
	for i, c := range cmds {
		if !c.piped || i == len(cmds)-1 {
			out = append(out, cmds[start:i+1])
			start = i + 1
		}
	}
	return out
}

// pipelineText is a pipeline as its programs run it (each command's
// innermost view), and as written.
func pipelineText(p []simple) (text, raw string) {
	var parts, raws []string
	for _, c := range p {
		vs := views(c.words)
		if len(vs) == 0 {
			parts = append(parts, "")
		} else {
			parts = append(parts, joinWords(vs[len(vs)-1]))
		}
		raws = append(raws, c.raw)
	}
	return strings.Join(parts, " | "), strings.Join(raws, " | ")
}
