package fakemodel

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A request Script.Side answers gets its reply and leaves the script
// where it was; one it declines takes the next scripted reply.
func TestSideAnswersWithoutShiftingTheScript(t *testing.T) {
	s, err := New(Script{
		Replies: []Reply{{Text: "one"}, {Text: "two"}},
		Side: func(r Request) (Reply, bool) {
			if r.Contains("memory extraction") {
				return Reply{Text: "side"}, true
			}
			return Reply{}, false
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var texts []string
	for _, body := range []string{
		`{"stream":true,"tools":[{}]}`,
		`{"stream":true,"tools":[{}],"system":"memory extraction"}`,
		`{"stream":true,"system":"memory extraction"}`, // no tools: Aux
		`{"stream":true,"tools":[{}]}`,
	} {
		texts = append(texts, decodeAnthropic(t, readSSE(t, post(t, s.URL()+"/v1/messages", body).Body)).Text)
	}
	if got := strings.Join(texts, "|"); got != "one|side|ok|two" {
		t.Errorf("texts %q", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	side, err := s.WaitSideRequests(ctx, 1)
	if err != nil || len(side) != 1 || side[0].Agent || side[0].Reply != -1 || !side[0].Contains("memory extraction") {
		t.Errorf("side requests %+v, %v: want the one Side answered", side, err)
	}
	if n := len(s.AgentRequests()); n != 2 {
		t.Errorf("%d agent requests, want 2", n)
	}
}
