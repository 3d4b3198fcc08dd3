package providers

import "strings"

// Agents update themselves at start or at exit (Cline runs "npm update -g
// cline" as it quits, Continue's cn "npm i -g @continuedev/cli" and then
// starts again detached): the program yume-cli drives would change under
// it, and the update's child outlive the turn. Where an agent has a
// switch in its environment, yume-cli turns the update off for every
// program it starts (the user's own setting of one wins); where it has
// none, ptyhost.SelfUpdates sees the update start and yume-cli says so.

// selfUpdateOff are the switches, one agent each (or npm's notifier).
var selfUpdateOff = []string{
	"DISABLE_AUTOUPDATER=1",            // Claude Code
	"COPILOT_AUTO_UPDATE=false",        // GitHub Copilot CLI
	"OPENCODE_DISABLE_AUTOUPDATE=true", // opencode
	"KILO_DISABLE_AUTOUPDATE=true",     // Kilo Code CLI
	"CLINE_NO_AUTO_UPDATE=1",           // Cline
	"CONTINUE_CLI_AUTO_UPDATED=true",   // Continue's cn: "updated already", so it installs nothing
	// Qwen Code asks npm for a newer release at each start (an npm
	// process, about a second of CPU) and may install it: the switch its
	// own relaunch after an update sets (its settings' general.enableAutoUpdate
	// false does the same).
	"QWEN_CODE_SKIP_UPDATE_CHECK_ONCE=true",
	"NO_UPDATE_NOTIFIER=1", // npm's update-notifier, used by many
}

// NoSelfUpdate is the environment that turns self-updates off, less the
// variables the user set already (getenv).
func NoSelfUpdate(getenv func(string) string) []string {
	var env []string
	for _, kv := range selfUpdateOff {
		k, _, _ := strings.Cut(kv, "=")
		if getenv(k) == "" {
			env = append(env, kv)
		}
	}
	return env
}
