package main

import (
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run this binary as the yume-cli command.
func TestMain(m *testing.M) {
	if c := os.Getenv("YUME_FAKE_CLAUDE"); c != "" {
		os.Exit(fakeClaude(c)) // a test's stand-in for Claude Code (fakeclaude_test.go)
	}
	// In-process tests keep yume-cli's caches and sessions in a directory
	// of their own; a script's yume-cli (this binary again) keeps the
	// script's.
	if os.Getenv("YUME_HOME") == "" {
		home, err := os.MkdirTemp("", "yume-home-")
		if err != nil {
			panic(err)
		}
		defer os.RemoveAll(home)
		os.Setenv("YUME_HOME", home)
	}
	testscript.Main(m, map[string]func(){
		"yume-cli": func() { os.Exit(Main(os.Args[1:], defaultIO())) },
	})
}

// TestScripts runs the command-line scenarios in testdata/script: each is
// a readable end-to-end check of what a user types and sees.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Setup: func(env *testscript.Env) error {
		// BINDIR holds only yume-cli: scripts set PATH=$BINDIR to run it
		// on a machine where no provider CLI is found.
		path := env.Getenv("PATH")
		env.Setenv("BINDIR", strings.SplitN(path, string(os.PathListSeparator), 2)[0])
		env.Setenv("YUME_HOME", env.WorkDir+"/.yume") // caches and sessions stay in the script's dir
		return nil
	}})
}
