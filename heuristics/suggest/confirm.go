// Yes/no questions: the hint that asks for yes or no and what Enter answers,
// whether the typed keys said yes, and the opposite answer.

package suggest

import (
	"strings"
	"unicode"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// Hints that a question wants yes or no: (y/n) [Y/n] (y or n) (yes/no)
// ([y]/n) [y,n,q,a,d,e,?] (yes) [no].
var hintRx = lazyre.New(`(?i)[\[(]\s*\[?y(?:es)?\]?\s*(?:/|,|\bor\b|\|)\s*n(?:o)?\b[^\])\n]*[\])]|[\[(](?:yes|no|y|n)[\])]`)

// defaultAnswer reads what Enter answers from the hint: an upper-case
// letter or a lone word in it.
func defaultAnswer(q string) int {
	h := hintRx.FindString(q)
	switch {
	case h == "" || strings.Contains(h, "Y/") && strings.Contains(h, "/N"):
		return 0
	case strings.Contains(h, "Y/") || strings.Contains(h, "[y]") || strings.EqualFold(h[1:len(h)-1], "yes"):
		return 1
	case strings.Contains(h, "/N") || strings.Contains(h, "[n]") || strings.EqualFold(h[1:len(h)-1], "no"):
		return -1
	}
	return 0
}

var ynRx = lazyre.New(`(?i)^(?:y|yes|n|no)$`)

// isYesNo reports whether the typed text is a yes or no answer: y, yes, n,
// no (any case), or a bare Enter.
func isYesNo(typed string, enter bool) bool {
	return ynRx.MatchString(typed) || typed == "" && enter
}

// answersYes decides whether a yes/no answer said yes; a bare Enter takes
// the question's default, and yes when it shows none.
func answersYes(typed string, q *question) bool {
	if typed == "" {
		return q.defaultYes >= 0
	}
	return typed[0] == 'y' || typed[0] == 'Y'
}

// opposite is the other answer, in the style of the typed one: n<Enter>
// for y<Enter>, no<Enter> for yes<Enter>, and for a bare Enter the letter
// (or the word, when the hint shows words) of the answer it did not give.
func opposite(typed string, yes bool, q *question) string {
	word := len(typed) > 1 || typed == "" && wordHint(q.prompt)
	upper := typed != "" && unicode.IsUpper(rune(typed[0]))
	var s string
	switch {
	case yes && word:
		s = "no"
	case yes:
		s = "n"
	case word:
		s = "yes"
	default:
		s = "y"
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return s + "<Enter>"
}

var wordHintRx = lazyre.New(`(?i)[\[(](?:yes|no)(?:/(?:yes|no))?[\])/]`)

func wordHint(q string) bool { return wordHintRx.MatchString(q) }
