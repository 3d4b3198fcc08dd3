package permission

import "strings"

// The shell reader's scanning helpers: where a substitution ends, the
// text of here-documents, descriptor numbers.

// matching returns the index of the byte that closes what starts at i,
// skipping quotes and nested parentheses; len(s) when nothing does.
func matching(s string, i int, close byte) int {
	level := 0
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case c == '\'' && close != '`':
			if j := strings.IndexByte(s[i+1:], '\''); j >= 0 {
				i += j + 1
			} else {
				return len(s)
			}
		case c == close && (close == '`' || level == 0):
			return i
		case c == '(':
			level++
		case c == ')':
			level--
		}
	}
	return len(s)
}

// skipHeredocs returns the index just past the bodies of the given
// here-documents, which start at i, and gives each its text.
func (p *lineParser) skipHeredocs(i int, docs []heredocAt) int {
	for _, h := range docs {
		var body strings.Builder
		for i < len(p.src) {
			end := strings.IndexByte(p.src[i:], '\n')
			if end < 0 {
				end = len(p.src) - i
			}
			line := p.src[i : i+end]
			i += end + 1
			if strings.TrimLeft(line, "\t") == h.delim {
				break
			}
			body.WriteString(line + "\n")
		}
		p.out[h.owner].heredoc += body.String()
	}
	return min(i, len(p.src))
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
