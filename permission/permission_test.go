package permission

import "testing"

func TestDecide(t *testing.T) {
	cases := []struct {
		mode    Mode
		channel bool
		verdict Verdict
		notice  string
		message string
	}{
		{Default, true, Ask, "", ""},
		{Interactive, true, Ask, "", ""},
		{Default, false, Refuse, "", NoChannel},
		{Interactive, false, Refuse, "", NoChannel},
		{Auto, false, Allow, "auto-approved (permission mode auto): ls", ""},
		{Auto, true, Allow, "auto-approved (permission mode auto): ls", ""},
		{Deny, true, Refuse, "denied (permission mode deny): ls", DeniedByMode},
		{Deny, false, Refuse, "denied (permission mode deny): ls", DeniedByMode},
	}
	for _, c := range cases {
		d := Decide(c.mode, "ls", "", c.channel)
		if d.Verdict != c.verdict || d.Notice != c.notice || d.Message != c.message {
			t.Errorf("Decide(%s, channel=%v) = %+v, want %v %q %q", c.mode, c.channel, d, c.verdict, c.notice, c.message)
		}
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
	if d, a := p.Decide("toolu_1", "ls", ""); d.Verdict != Refuse || d.Message != "not now" || a == nil {
		t.Errorf("early denial: %+v %v", d, a)
	}
	if d, a := p.Decide("toolu_1", "ls", ""); d.Verdict != Ask || a != nil {
		t.Errorf("an early answer is used once: %+v %v", d, a)
	}
	p.Keep("toolu_2", Answer{Allow: true})
	p.SetMode(Deny)
	if d, _ := p.Decide("toolu_2", "ls", ""); d.Verdict != Allow {
		t.Errorf("the person's early approval wins over the mode: %+v", d)
	}
	p.CloseChannel()
	p.SetMode(Default)
	if d, _ := p.Decide("toolu_3", "ls", ""); d.Verdict != Refuse || d.Message != NoChannel {
		t.Errorf("closed channel: %+v", d)
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
