package permission

import (
	"strings"
	"testing"
)

// TestDecide: what each mode decides, with and without anyone to ask,
// about an ordinary call and one the guard flags.
func TestDecide(t *testing.T) {
	sudo := Danger{Rules: []string{"sudo"}, Reason: "runs a command as root (sudo)"}
	excepted := Danger{Allowed: "our build script"}
	cases := []struct {
		mode    Mode
		fb      Fallback
		danger  Danger
		channel bool
		verdict Verdict
		notice  string
		message string
		by      string
		alert   string // a part of the system error ("" = none)
	}{
		{Default, FallbackGuard, Danger{}, true, Ask, "", "", "", ""},
		{Default, FallbackGuard, sudo, true, Ask, "", "", "", ""},
		{Interactive, FallbackGuard, Danger{}, true, Ask, "", "", "", ""},
		{Default, FallbackGuard, Danger{}, false, Allow, "approved by yume-cli's guard (no approval channel): ls", "", GuardBy, ""},
		{Default, FallbackGuard, excepted, false, Allow, "approved by yume-cli's guard (no approval channel): ls", "", GuardBy + " (exception: our build script)", ""},
		{Default, FallbackGuard, sudo, false, Refuse, "", GuardBlocked(sudo), GuardBy, "yume-cli guard blocked ls (rule sudo: runs a command as root (sudo))"},
		{Default, FallbackDeny, Danger{}, false, Refuse, "", NoChannel, "", ""},
		{Default, FallbackAuto, Danger{}, false, Allow, "auto-approved (permission mode auto): ls", "", NoChannelAutoBy, ""},
		{Default, FallbackAuto, sudo, false, Refuse, "", DangerDenied(sudo.Reason), NoChannelAutoBy, "yume-cli did not run ls (rule sudo"},
		{Interactive, FallbackGuard, Danger{}, false, Refuse, "", NoChannelInteractive, "", ""},
		{Auto, FallbackGuard, Danger{}, false, Allow, "auto-approved (permission mode auto): ls", "", "", ""},
		{Auto, FallbackDeny, Danger{}, true, Allow, "auto-approved (permission mode auto): ls", "", "", ""},
		{Auto, FallbackGuard, sudo, false, Refuse, "", DangerDenied(sudo.Reason), "", "yume-cli did not run ls"},
		{Deny, FallbackGuard, Danger{}, true, Refuse, "denied (permission mode deny): ls", DeniedByMode, "", ""},
		{Deny, FallbackAuto, Danger{}, false, Refuse, "denied (permission mode deny): ls", DeniedByMode, "", ""},
	}
	for _, c := range cases {
		d := Decide(c.mode, c.fb, "ls", c.danger, c.channel)
		if d.Verdict != c.verdict || d.Notice != c.notice || d.Message != c.message || d.By != c.by ||
			(c.alert == "") != (d.Alert == "") || !strings.Contains(d.Alert, c.alert) {
			t.Errorf("Decide(%s, %s, %q, channel=%v) =\n %+v\nwant %v %q %q by %q alert %q", c.mode, c.fb, c.danger.Reason, c.channel, d, c.verdict, c.notice, c.message, c.by, c.alert)
		}
	}
}

func TestParseFallback(t *testing.T) {
	for _, f := range Fallbacks {
		if got, err := ParseFallback(string(f)); err != nil || got != f {
			t.Errorf("ParseFallback(%q) = %q, %v", f, got, err)
		}
	}
	if got, err := ParseFallback(""); err != nil || got != FallbackGuard {
		t.Errorf(`ParseFallback("") = %q, %v; want guard`, got, err)
	}
	if _, err := ParseFallback("yolo"); err == nil || !strings.Contains(err.Error(), "guard, deny, auto") {
		t.Errorf(`ParseFallback("yolo"): %v`, err)
	}
}

func TestParse(t *testing.T) {
	for _, m := range Modes {
		if got, err := Parse(string(m)); err != nil || got != m {
			t.Errorf("Parse(%q) = %q, %v", m, got, err)
		}
	}
	if got, err := Parse(""); err != nil || got != Default {
		t.Errorf(`Parse("") = %q, %v; want default`, got, err)
	}
	if _, err := Parse("yolo"); err == nil {
		t.Error(`Parse("yolo") succeeded`)
	}
}

// TestPolicyEarlyAnswer: an answer kept for a tool_use wins once over the
// mode; the next question about another id follows the mode again.
func TestPolicyEarlyAnswer(t *testing.T) {
	p := New(Default, true)
	p.Keep("toolu_1", Answer{Message: "not now"})
	if d, a := p.Decide("toolu_1", "ls", Danger{}); d.Verdict != Refuse || d.Message != "not now" || a == nil {
		t.Errorf("early denial: %+v %v", d, a)
	}
	if d, a := p.Decide("toolu_1", "ls", Danger{}); d.Verdict != Ask || a != nil {
		t.Errorf("an early answer is used once: %+v %v", d, a)
	}
	p.Keep("toolu_2", Answer{Allow: true})
	p.SetMode(Deny)
	if d, _ := p.Decide("toolu_2", "ls", Danger{}); d.Verdict != Allow {
		t.Errorf("the person's early approval wins over the mode: %+v", d)
	}
	p.CloseChannel()
	p.SetMode(Default)
	if d, _ := p.Decide("toolu_3", "ls", Danger{}); d.Verdict != Allow || d.By != GuardBy {
		t.Errorf("closed channel: the guard answers: %+v", d)
	}
	p.SetFallback(FallbackDeny)
	if d, _ := p.Decide("toolu_4", "ls", Danger{}); d.Verdict != Refuse || d.Message != NoChannel {
		t.Errorf("closed channel, no_channel deny: %+v", d)
	}
}

func TestAnswerDenial(t *testing.T) {
	cases := map[Answer]string{
		{}:                                    UserDenied,
		{Message: "no"}:                       "no",
		{Revise: true, Feedback: "use ls -1"}: "Not run: the user asked for a revision: use ls -1",
		{Revise: true}:                        Revised,
		{Message: "x", Revise: true}:          "x",
	}
	for a, want := range cases {
		if got := a.Denial(); got != want {
			t.Errorf("%+v.Denial() = %q, want %q", a, got, want)
		}
	}
}
