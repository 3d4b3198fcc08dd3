package providers

import (
	"os"
	"strings"
)

// Finding is one first-run problem yume-cli can see without the CLI's
// help, said as what to run or set.
type Finding struct {
	// Screen names the first-run screen that shows the same problem, as
	// the fail rules of the provider's profile are named ("login"), so an
	// error about that screen does not say it twice.
	Screen string
	// Text says what is missing and what to run or set about it.
	Text string
}

// ScreenLogin is the name of the fail rule (and Finding.Screen) of a
// login screen.
const ScreenLogin = "login"

// FirstRun lists what p still needs before it can work, as far as yume-cli
// can tell without running it: no credentials, found the way `yume-cli
// doctor` finds them (presence only). getenv reads the environment the
// CLI runs with; home is its HOME.
func (p *Provider) FirstRun(getenv func(string) string, home string) []Finding {
	var out []Finding
	c := p.Credentials
	if c.Fix != "" && c.find(getenv, home) == "" {
		out = append(out, Finding{Screen: ScreenLogin,
			Text: "no credentials found (" + c.where() + "); to log in, " + c.Fix})
	}
	return out
}

// where lists the places find looked in, for a person to check.
func (c Credentials) where() string {
	var places []string
	if len(c.Env) > 0 {
		places = append(places, strings.Join(c.Env, ", ")+" unset")
	}
	files := make([]string, 0, len(c.Files))
	for _, f := range c.Files {
		if !strings.HasPrefix(f, "/") {
			f = "~/" + f
		}
		files = append(files, f)
	}
	if len(files) > 0 {
		s := "no login in " + strings.Join(files, " or ")
		if c.HomeEnv != "" {
			s += " ($" + c.HomeEnv + " moves the first)"
		}
		places = append(places, s)
	}
	var own []string
	for _, f := range c.EnvFiles {
		own = append(own, tilde(f))
	}
	if c.SettingsEnv != "" {
		own = append(own, tilde(c.SettingsEnv)+` "env"`)
	}
	if len(own) > 0 {
		places = append(places, "none in "+strings.Join(own, " or "))
	}
	return strings.Join(places, "; ")
}

// FirstRunNote is what a first-run error adds about p in cwd, or "" when
// there is nothing: the findings other than the one its screen (a fail
// rule's name, whose error names the folder already) shows; for screen ""
// (the CLI exited or failed at once), every finding, naming the folder. It
// reads yume-cli's environment, which the CLI inherits.
func (p *Provider) FirstRunNote(screen, cwd string) string {
	home, _ := os.UserHomeDir()
	return firstRunNote(p.Name, p.FirstRun(os.Getenv, home), screen, cwd)
}

func firstRunNote(name string, findings []Finding, screen, cwd string) string {
	var texts []string
	for _, f := range findings {
		if screen == "" || f.Screen != screen {
			texts = append(texts, f.Text)
		}
	}
	if len(texts) == 0 {
		return ""
	}
	lead := "Also, "
	if screen == "" {
		lead = "Before " + name + " can work"
		if cwd != "" {
			lead += " in " + cwd
		}
		lead += ": "
	}
	return lead + strings.Join(texts, "; ") + "."
}
