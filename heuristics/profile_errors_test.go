package heuristics

import (
	"testing"

	"github.com/yume-cli/yume-cli/modelerror"
)

// TestProfileErrorRules: each AI TUI's error rule reads the error as it
// drew it against the fake model (PTY runs of claude 2.1.332, codex
// 0.169.0, copilot 1.0.102, gemini 0.61.0), and the generic layer
// classifies the rule's text.
func TestProfileErrorRules(t *testing.T) {
	for _, c := range []struct {
		profile, screen, rule, text string
		class                       modelerror.Class
	}{
		{"claude", "❯ make the file\n\n● Please run /login · API Error: 401 fake error 401\n\n\n────────\n❯ Once fixed, resend your message\n────────\n",
			"api-error", "Please run /login · API Error: 401 fake error 401", modelerror.Auth},
		{"claude", "❯ make the file\n\n● API Error: 500 fake error 500. This is a server-side issue, usually temporary — try again in a moment. If it\n  persists, check your inference gateway (127.0.0.1:34063).\n\n\n",
			"api-error", "API Error: 500 fake error 500. This is a server-side issue, usually temporary — try again in a moment. If it\npersists, check your inference gateway (127.0.0.1:34063).", modelerror.Server},
		{"claude", "❯ make the file\n\n● API Error: Request rejected (429) · fake error 429\n",
			"api-error", "API Error: Request rejected (429) · fake error 429", modelerror.RateLimit},
		{"codex", "› make the file\n\n\n■ unexpected status 401 Unauthorized: fake error 401, url: http://127.0.0.1:38807/v1/responses\n",
			"model-error", "unexpected status 401 Unauthorized: fake error 401, url: http://127.0.0.1:38807/v1/responses", modelerror.Auth},
		{"codex", "› make the file\n\n• Reconnecting... 1/5 (5s • esc to interrupt)\n  └ We’re currently experiencing high demand, which may cause temporary errors.\n",
			"reconnecting", "Reconnecting... 1/5 (5s • esc to interrupt)\n└ We’re currently experiencing high demand, which may cause temporary errors.", modelerror.Overloaded},
		{"copilot", "  ❯ make the file\n ● Request failed due to a transient API error. Retrying...\n",
			"model-error", "Request failed due to a transient API error. Retrying...", modelerror.Other},
		{"gemini", " > make the file\n✕ [API Error: {\"error\":{\"code\":401,\"message\":\"fake error 401\",\"status\":\"UNAUTHENTICATED\"}}]\n\n\nℹ This request failed. Press F12 for diagnostics.\n",
			"api-error", "[API Error: {\"error\":{\"code\":401,\"message\":\"fake error 401\",\"status\":\"UNAUTHENTICATED\"}}]", modelerror.Auth},
	} {
		p, err := LoadProfile(c.profile)
		if err != nil {
			t.Fatal(err)
		}
		det, _ := NewEngine(p).Evaluate(screenOf(120, 30, c.screen), true)
		if det == nil || det.Rule.Name != c.rule || det.Kind != KindError || det.Text != c.text {
			t.Errorf("%s: detection %+v, want rule %s with text %q", c.profile, det, c.rule, c.text)
			continue
		}
		e := modelerror.Classify(det.Text)
		switch {
		case c.class == "" && e != nil:
			t.Errorf("%s: %q classified %+v; the profile's rule alone knows it", c.profile, det.Text, *e)
		case c.class != "" && (e == nil || e.Class != c.class):
			t.Errorf("%s: %q classified %+v, want %s", c.profile, det.Text, e, c.class)
		}
	}
}
