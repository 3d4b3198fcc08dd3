package permission

import (
	"strings"
)

// The guard reads a command line the way a POSIX shell would split it,
// far enough to know which programs it runs with which words: quotes
// removed, cut at ; && || | & newlines and parentheses, with command
// substitutions ($(…), `…`, <(…)) read as commands of their own. It
// runs nothing and expands nothing: $VAR and globs stay as written.

// simple is one simple command: its words as the program gets them, its
// redirections, and how it is joined to the next one.
type simple struct {
	raw    string   // the text it came from, trimmed
	words  []string // quotes removed; redirections left out
	redirs []redir
	// piped: its output goes to the next simple command (|).
	piped bool
	// heredoc is the text of its here-document, if any.
	heredoc string
}

// redir is one redirection: the operator (">", ">>", "<", "<<", "&>",
// ">&", …) and its target word.
type redir struct {
	op, target string
}

// writes reports whether the redirection writes its target as a file.
func (r redir) writes() bool {
	if !strings.Contains(r.op, ">") {
		return false
	}
	// >&2, 2>&1, >&- duplicate a descriptor: no file.
	if strings.HasSuffix(r.op, "&") && r.op != "&>" && r.op != "&>>" {
		return false
	}
	return true
}

// maxDepth bounds how deep command lines inside command lines are read
// (sh -c "…", eval, $(…) inside $(…)).
const maxDepth = 6

// parseLine splits a command line into its simple commands, those of its
// command substitutions first.
func parseLine(line string) []simple {
	p := &lineParser{src: line}
	p.run(0)
	return p.out
}

type lineParser struct {
	src   string
	out   []simple
	depth int
}

// run reads src into simple commands; depth counts substitutions.
func (p *lineParser) run(depth int) {
	var (
		cur      simple
		word     strings.Builder
		inWord   bool
		start    int
		heredocs []heredocAt // here-documents whose text follows the line
		delims   []string    // those of the current simple command
		pendRed  string      // a redirection operator waiting for its target
	)
	endWord := func() {
		if !inWord {
			return
		}
		w := word.String()
		word.Reset()
		inWord = false
		switch {
		case pendRed == "<<" || pendRed == "<<-":
			delims = append(delims, w)
			cur.redirs = append(cur.redirs, redir{pendRed, w})
			pendRed = ""
		case pendRed != "":
			cur.redirs = append(cur.redirs, redir{pendRed, w})
			pendRed = ""
		default:
			cur.words = append(cur.words, w)
		}
	}
	endCmd := func(end int, piped bool) {
		endWord()
		cur.raw = strings.TrimSpace(p.src[start:min(end, len(p.src))])
		cur.piped = piped
		if len(cur.words) > 0 || len(cur.redirs) > 0 {
			p.out = append(p.out, cur)
			for _, d := range delims {
				heredocs = append(heredocs, heredocAt{d, len(p.out) - 1})
			}
		}
		cur, delims = simple{}, nil
		pendRed = ""
	}
	src := p.src
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src):
			if src[i+1] == '\n' { // a line continuation
				i++
				continue
			}
			word.WriteByte(src[i+1])
			inWord = true
			i++
		case c == '\'':
			j := strings.IndexByte(src[i+1:], '\'')
			if j < 0 {
				j = len(src) - i - 1
			}
			word.WriteString(src[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			i = p.doubleQuoted(i+1, &word, depth)
			inWord = true
		case c == '$' && i+1 < len(src) && src[i+1] == '(' ||
			(c == '<' || c == '>') && i+1 < len(src) && src[i+1] == '(' && !inWord:
			end := p.substitution(i+2, ')', depth)
			word.WriteString(src[i:min(end+1, len(src))])
			inWord = true
			i = end
		case c == '`':
			end := p.substitution(i+1, '`', depth)
			word.WriteString(src[i:min(end+1, len(src))])
			inWord = true
			i = end
		case c == '#' && !inWord:
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i-- // the newline ends the command below
		case c == ' ' || c == '\t' || c == '\r':
			endWord()
		case c == '\n':
			endCmd(i, false)
			if len(heredocs) > 0 {
				i = p.skipHeredocs(i+1, heredocs) - 1
				heredocs = nil
			}
			start = i + 1
		case c == ';' || c == '(' || c == ')':
			endCmd(i, false)
			start = i + 1
		case c == '|':
			piped := true
			if i+1 < len(src) && src[i+1] == '|' {
				piped = false
				i++
			} else if i+1 < len(src) && src[i+1] == '&' {
				i++
			}
			endCmd(i, piped)
			start = i + 1
		case c == '&' && i+1 < len(src) && src[i+1] == '>':
			endWord()
			op := "&>"
			i++
			if i+1 < len(src) && src[i+1] == '>' {
				op += ">"
				i++
			}
			pendRed = op
		case c == '&':
			if i+1 < len(src) && src[i+1] == '&' {
				i++
			}
			endCmd(i, false)
			start = i + 1
		case c == '>' || c == '<':
			// A word of digits just before is the descriptor: 2>err.
			if inWord && isDigits(word.String()) {
				word.Reset()
				inWord = false
			} else {
				endWord()
			}
			j := i + 1
			for j < len(src) && strings.IndexByte("<>&|-", src[j]) >= 0 && j-i < 3 {
				j++
			}
			pendRed = src[i:j]
			if strings.HasSuffix(pendRed, "&") || strings.HasSuffix(pendRed, "&-") {
				// >&2, <&0, >&-: a descriptor, read as the target.
				pendRed = strings.TrimSuffix(pendRed, "-")
			}
			i = j - 1
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	endCmd(len(src), false)
}

// heredocAt is a here-document's delimiter (as written: quotes removed)
// and the index of the simple command that reads it.
type heredocAt struct {
	delim string
	owner int
}

// doubleQuoted reads a "…" string from i (after the quote) into w and
// returns the index of the closing quote. Substitutions inside run.
func (p *lineParser) doubleQuoted(i int, w *strings.Builder, depth int) int {
	src := p.src
	for ; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '"':
			return i
		case c == '\\' && i+1 < len(src) && strings.IndexByte("$`\"\\\n", src[i+1]) >= 0:
			if src[i+1] != '\n' {
				w.WriteByte(src[i+1])
			}
			i++
		case c == '$' && i+1 < len(src) && src[i+1] == '(':
			end := p.substitution(i+2, ')', depth)
			w.WriteString(src[i:min(end+1, len(src))])
			i = end
		case c == '`':
			end := p.substitution(i+1, '`', depth)
			w.WriteString(src[i:min(end+1, len(src))])
			i = end
		default:
			w.WriteByte(c)
		}
	}
	return len(src)
}

// substitution finds the end of a substitution whose text starts at i
// (closing byte close: ')' or '`'), reads that text as commands of its
// own, and returns the index of the closing byte.
func (p *lineParser) substitution(i int, close byte, depth int) int {
	end := matching(p.src, i, close)
	if depth < maxDepth {
		inner := &lineParser{src: p.src[i:min(end, len(p.src))]}
		inner.run(depth + 1)
		p.out = append(p.out, inner.out...)
	}
	return end
}
