//go:build unix

package driver_test

import (
	"strconv"
	"time"

	"github.com/yume-cli/yume-cli/internal/keytui"
	"github.com/yume-cli/yume-cli/internal/testchild"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// The child programs these tests drive: this test binary, re-run in a mode.
func init() {
	testchild.Run(map[string]testchild.Mode{
		"colorprompt": func(args []string) int { // colorprompt N: N bytes of coloured log lines, then a y/n question.
			n, _ := strconv.Atoi(args[0])
			return colorPrompt(n)
		},
		"textlog": textLog,     // textlog LOG PASTE BS: log every byte read; see TestTypedTextFuzz.
		"keytui":  keytui.Main, // keytui FLAGS: a dialog read key by key; see internal/keytui.
	})
}

// helper returns Options that re-run this test binary in a helper mode.
func helper(mode string, args ...string) ptyhost.Options {
	argv, env := testchild.Command(mode, args...)
	return ptyhost.Options{Argv: argv, Env: env}
}

// testTimeout bounds every wait in these tests; a hang fails, never stalls.
const testTimeout = 30 * time.Second
