package main

import (
	"io"
	"strings"
	"testing"
)

func TestPromptFromStdin(t *testing.T) {
	cases := []struct {
		name, stdin string
		opts        StartOptions
		terminal    bool
		prompt      string
		rest        string // what stays on stdin for control frames; "-" = no channel
	}{
		{"plain text, all of it", "fix the test\nin pkg/x\n", StartOptions{}, false, "fix the test\nin pkg/x", "-"},
		{"a user frame, then frames", "{\"type\":\"user\",\"content\":\"fix it\"}\n{\"type\":\"interrupt\"}\n", StartOptions{}, false, "fix it", "{\"type\":\"interrupt\"}\n"},
		{"JSON that is not a frame is text", "{\"a\":1}\n", StartOptions{}, false, "{\"a\":1}", "-"},
		{"--prompt wins", "ignored\n", StartOptions{Prompt: "given"}, false, "given", "ignored\n"},
		{"a terminal is not read", "typed\n", StartOptions{}, true, "", "typed\n"},
		{"persistent sessions read frames", "{\"type\":\"user\",\"content\":\"x\"}\n", StartOptions{SessionID: "s"}, false, "", "{\"type\":\"user\",\"content\":\"x\"}\n"},
		{"a program given: stdin is its control channel", "{}\n", StartOptions{Command: []string{"rm", "-i", "x"}}, false, "", "{}\n"},
		{"empty stdin", "", StartOptions{}, false, "", "-"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := c.opts
			o.IO = &IOStreams{In: strings.NewReader(c.stdin), InIsTerminal: c.terminal}
			if err := promptFromStdin(&o); err != nil {
				t.Fatal(err)
			}
			if o.Prompt != c.prompt {
				t.Errorf("prompt %q, want %q", o.Prompt, c.prompt)
			}
			rest := "-"
			if o.IO.In != nil {
				b, _ := io.ReadAll(o.IO.In)
				rest = string(b)
			}
			if rest != c.rest {
				t.Errorf("stdin left %q, want %q", rest, c.rest)
			}
		})
	}
}
