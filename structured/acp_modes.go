package structured

import (
	"strings"
	"unicode"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// An ACP agent may offer session modes (session/new's modes, or a config
// option of category "mode") that decide whether it asks before it acts:
// Claude's adapter starts some sessions in "auto" (the agent decides),
// Codex's in one that runs commands in its sandbox unasked, Qwen's in a
// classifier's. yume-cli owns the permission mode, so it picks the mode
// that asks before changes and answers the questions itself (ask the GUI,
// the guard, auto, deny). Modes are told apart by what their ids, names
// and descriptions say, not by one agent's wording.

// acpMode is one session mode an agent offers.
type acpMode struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// modeClass is what a mode says about asking.
type modeClass int

const (
	modeNeutral modeClass = iota // says nothing about asking (opencode's "build")
	modeAsks                     // asks before changes ("Manual: always ask", "Prompts for approval")
	modeLoose                    // lets some or all calls run unasked (accept edits, auto, yolo, don't ask)
	modePlan                     // plans only, runs nothing: not a working mode
)

func (c modeClass) String() string {
	return [...]string{"neutral", "asks", "runs calls unasked", "plan only"}[c]
}

// modeAllowWord is a phrase of letting calls run unasked, as a mode's
// description says it is on or off.
const modeAllowWord = `(?:auto[ -]?(?:approv|accept|allow|run|execut)\w*|automatic(?:ally)?[ -](?:approv|accept|allow|run|execut)\w*|allow[ -]?all|approves? all|accepts? all|yolo|autopilot|bypass\w*)`

var (
	// modeNoAsk are phrases of a mode that does not ask: negations first
	// ("don't ask", "without approval"), so "ask" in them is not read as
	// asking.
	modeNoAsk = lazyre.New(`\b(?:do ?n[o']?t|never|without|no|skips?|skipping|bypass(?:es|ing)?)\s+(?:\w+\s+){0,2}(?:ask|asking|prompt|prompting|approvals?|confirm|confirmation|permissions?|user interaction)\w*`)
	// modeAllowOff are phrases that say the mode's letting calls run
	// unasked is off: "auto-approve is off", "auto-approval disabled",
	// "does not auto-approve", "no auto-approval", "YOLO: off". Such a
	// mode asks, whatever its name ("Auto") says.
	modeAllowOff = lazyre.New(`\b` + modeAllowWord + `(?:\s+(?:mode|tools?|calls?))?\s*(?:(?:is|are|stays|remains|was|set to|turned)\s+|:\s*|=\s*|\(\s*)?(?:turned\s+)?(?:off|disabled|not (?:enabled|on|active|set)|false|inactive)\b` +
		`|\b(?:do(?:es)? not|don't|doesn't|never|no|without|disables?|disabled|turns? off|switch(?:es)? off|not)\s+(?:\w+\s+){0,2}?` + modeAllowWord)
	// modeAsksDoubly are phrases that refuse to act without asking
	// ("does not run commands without approval"): asking, though both
	// halves read as negations.
	modeAsksDoubly = lazyre.New(`\b(?:do(?:es)? not|don't|doesn't|never|won't|will not|cannot|can't)\s+(?:[\w-]+\s+){1,4}?(?:without|unless)\s+(?:\w+\s+){0,2}?(?:ask\w*|approv\w*|permission\w*|confirm\w*|allow\w*)`)
	// modeAllows are phrases of a mode that lets calls run by itself.
	modeAllows = lazyre.New(`\b(?:yolo|bypass\w*|full[ -]?access|dangerously|unrestricted|autonomous\w*|autopilot|allow[ -]?all|approves? all|accepts? all|auto[ -]?(?:approv|accept|allow|run|execut)\w*|automatic(?:ally)? (?:approv|accept|allow|run|execut)\w*|handles? (?:\w+ )?permission|decides? (?:\w+ )?(?:itself|by itself|on its own)|classifier|trust(?:ed|s)? (?:all|every)|deny if not|denies (?:anything|everything|what))`)
	// modeCapable are a description's words for what the agent may do by
	// itself ("can read and edit files … and run commands").
	modeCapable = lazyre.New(`\bcan\b[^.]*\b(?:edit|write|modify|run|execute|delete)\b`)
	// modeAutoWord is "auto" as the mode's own word (its id or name).
	modeAutoWord = lazyre.New(`\bauto\b`)
	// modeStrongAsk are phrases of a mode that asks before changes.
	modeStrongAsk = lazyre.New(`\b(?:always ask|ask(?:s|ing)? (?:\w+ )?(?:before|first|every|each|for)|approval (?:is )?(?:required|needed)|requires? (?:\w+ )?approvals?|needs? (?:\w+ )?approvals?|confirm(?:s|ation)? (?:before|each|every)|manual\w*|untrusted|on[ -]request|ask mode)\b`)
	// modeWeakAsk are words of an ordinary mode that asks as the agent
	// usually does.
	modeWeakAsk = lazyre.New(`\b(?:prompts? (?:\w+ )?for|asks?|approvals?|permissions? (?:prompt|request)s?|default|standard|normal|safe|careful|cautious|supervised|review)\b`)
	// modePlanning are a mode's own words (id, name) for one that only
	// plans or reads.
	modePlanning = lazyre.New(`\b(?:plan|planning|architect|read ?only|readonly|analy[sz]e only|ask only|chat only)\b`)
	// modeNotActing are a description's words for a mode that does not
	// act: it reads, plans or answers, and changes nothing.
	modeNotActing = lazyre.New(`\b(?:read[ -]?only|no (?:actual )?tool execution|analy[sz]es? only|(?:ask|chat|questions?|answers?) only|without (?:making|modifying|changing|editing|touching) (?:any )?(?:changes|files|code|the code\w*)|(?:only|just) (?:\w+ )?plans?|makes? no changes|changes nothing)\b`)
	// modeRefuses are a description's words that the mode does not do a
	// kind of work ("does not modify files"), unless it is only until it
	// asks ("does not run commands without approval").
	modeRefuses = lazyre.New(`\b(?:do(?:es)? not|don't|doesn't|never|cannot|can't|won't|will not|disallows?(?: all)?) (?:modify|modifies|execute|executes|run|runs|change|changes|edit|edits|write|writes|touch|make changes|act|edit tools)\b(?:\s+[\w-]+){0,4}`)
	// modeAsksFirst ends a refusal that is only until the agent asks.
	modeAsksFirst = lazyre.New(`\b(?:without|unless|until|before|first|asking|approval|approved|permission|confirm\w*)\b`)
	// modePlanWords are a description's words for planning or answering,
	// which make a mode one that does not act when it says nothing of
	// acting.
	modePlanWords = lazyre.New(`\b(?:plans?|planning|explores?|answers?|explains?|explanations?|questions?)\b`)
	// modeActs are a description's words for doing the work.
	modeActs = lazyre.New(`\b(?:execut\w*|implement\w*|runs?|running|edit(?:s|ing)?|modif(?:y|ies|ying)|writes?|writing|makes? changes|making changes|chang(?:e|es|ing) (?:the )?(?:files?|code)|applies|apply|build\w*|creat\w*|acts?)\b`)
)

// modeText is a mode's words, lower case: its id split at camel case,
// dashes, underscores and a URL's path (…/session-modes#agent is
// "agent"), its name and its description.
func modeText(m acpMode) (own, desc string) {
	id := m.ID
	if i := strings.LastIndexAny(id, "#/"); i >= 0 && strings.Contains(id, ":") {
		id = id[i+1:]
	}
	var b strings.Builder
	prev := rune(0)
	for _, r := range id {
		switch {
		case r == '-' || r == '_' || r == '.':
			b.WriteByte(' ')
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteByte(' ')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	own = strings.ToLower(b.String() + " " + m.Name)
	own = strings.ReplaceAll(own, "dont", "don't")
	return own, strings.ToLower(m.Description)
}

// notActing reports whether a mode's description says it does not do the
// work: it only reads, plans or answers ("Read-only mode", "Analyze only,
// do not modify files", "Answers questions and plans changes"). A
// refusal only until it asks ("does not run commands without approval")
// is asking, not refusing; planning words count where the description
// says nothing of acting.
func notActing(desc string) bool {
	if modeNotActing.MatchString(desc) {
		return true
	}
	for _, m := range modeRefuses.FindAllString(desc, -1) {
		if !modeAsksFirst.MatchString(m) {
			return true
		}
	}
	rest := modeRefuses.ReplaceAllString(modeStrongAsk.ReplaceAllString(desc, " "), " ")
	return modePlanWords.MatchString(rest) && !modeActs.MatchString(rest) && !modeCapable.MatchString(desc)
}

// classifyMode says what a mode does about asking, and how strongly it
// says it asks (a higher score asks more). Its id, name and description
// are read together: an "Auto" whose description says its auto-approval
// is off asks; one whose words say it only plans, reads or answers does
// not act (modePlan), whatever it says of asking.
func classifyMode(m acpMode) (modeClass, int) {
	own, desc := modeText(m)
	if modePlanning.MatchString(own) || notActing(desc) {
		return modePlan, 0
	}
	text := own + " . " + desc
	ask, loose := 0, 0
	off := modeAllowOff.FindAllString(text, -1)
	if len(off) > 0 {
		// Its allow-all is said to be off: it asks, and "auto" in its
		// name is not what it does.
		ask += 3 * len(off)
		text = modeAllowOff.ReplaceAllString(text, " ")
		own = modeAutoWord.ReplaceAllString(own, " ")
	}
	if n := len(modeAsksDoubly.FindAllString(text, -1)); n > 0 {
		ask += 3 * n
		text = modeAsksDoubly.ReplaceAllString(text, " ")
	}
	if modeNoAsk.MatchString(text) {
		loose += 4
		text = modeNoAsk.ReplaceAllString(text, " ")
	}
	if modeAllows.MatchString(text) {
		loose += 3
	}
	if modeAutoWord.MatchString(own) || strings.Contains(own, "accept edits") || strings.Contains(own, "auto edit") {
		loose += 2
	}
	if modeCapable.MatchString(desc) {
		loose += 2
	}
	ask += 3 * len(modeStrongAsk.FindAllString(text, -1))
	ask += len(modeWeakAsk.FindAllString(modeStrongAsk.ReplaceAllString(text, " "), -1))
	switch {
	case ask > loose:
		return modeAsks, ask - loose
	case loose > 0:
		return modeLoose, 0
	}
	return modeNeutral, 0
}

// modeChoice is the mode yume-cli wants an agent in.
type modeChoice struct {
	mode  acpMode
	class modeClass
	// change: the agent is not in it yet (set it).
	change bool
}

// pickMode chooses among an agent's modes the one that asks most before
// changes (the current one on a tie). Without one that asks, the agent
// stays where it is, unless its mode is known to run calls unasked (or
// only to plan) and a neutral one is offered. A mode that only plans,
// reads or answers (modePlan, however much it says it asks) is never
// picked: it would not do the work. ok false when the agent offers no
// modes.
func pickMode(modes []acpMode, current string) (modeChoice, bool) {
	if len(modes) == 0 {
		return modeChoice{}, false
	}
	best, bestScore := -1, 0
	cur, curClass := -1, modeNeutral
	neutral := -1
	for i, m := range modes {
		c, score := classifyMode(m)
		if m.ID == current {
			cur, curClass = i, c
		}
		if c == modeNeutral && neutral < 0 {
			neutral = i
		}
		if c == modeAsks && (best < 0 || score > bestScore || score == bestScore && m.ID == current) {
			best, bestScore = i, score
		}
	}
	switch {
	case best >= 0:
		return modeChoice{mode: modes[best], class: modeAsks, change: modes[best].ID != current}, true
	case cur >= 0 && (curClass == modeNeutral || neutral < 0):
		return modeChoice{mode: modes[cur], class: curClass}, true
	case cur >= 0:
		return modeChoice{mode: modes[neutral], class: modeNeutral, change: true}, true
	}
	// The agent's mode is none of those it lists: it stays, not known.
	return modeChoice{mode: acpMode{ID: current}, class: modeNeutral}, true
}
