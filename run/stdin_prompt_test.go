package run

import (
	"io"
	"strings"
	"testing"
)

func TestPromptFromStdin(t *testing.T) {
	cases := []struct {
		name, stdin string
		opts        Config
		terminal    bool
		prompt      string
		rest        string // what stays on stdin for control frames; "-" = no channel
	}{
		{"plain text, all of it", "fix the test\nin pkg/x\n", Config{}, false, "fix the test\nin pkg/x", "-"},
		{"a user frame, then frames", "{\"type\":\"user\",\"content\":\"fix it\"}\n{\"type\":\"interrupt\"}\n", Config{}, false, "fix it", "{\"type\":\"interrupt\"}\n"},
		{"JSON that is not a frame is text", "{\"a\":1}\n", Config{}, false, "{\"a\":1}", "-"},
		{"--prompt wins", "ignored\n", Config{Prompt: "given"}, false, "given", "ignored\n"},
		{"a terminal is not read", "typed\n", Config{}, true, "", "typed\n"},
		{"persistent sessions read frames", "{\"type\":\"user\",\"content\":\"x\"}\n", Config{SessionID: "s"}, false, "", "{\"type\":\"user\",\"content\":\"x\"}\n"},
		{"a program given: stdin is its control channel", "{}\n", Config{Command: []string{"rm", "-i", "x"}}, false, "", "{}\n"},
		{"empty stdin", "", Config{}, false, "", "-"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.opts
			cfg.IO = &IOStreams{In: strings.NewReader(c.stdin), InIsTerminal: c.terminal}
			if err := promptFromStdin(&cfg); err != nil {
				t.Fatal(err)
			}
			if cfg.Prompt != c.prompt {
				t.Errorf("prompt %q, want %q", cfg.Prompt, c.prompt)
			}
			rest := "-"
			if cfg.IO.In != nil {
				b, _ := io.ReadAll(cfg.IO.In)
				rest = string(b)
			}
			if rest != c.rest {
				t.Errorf("stdin left %q, want %q", rest, c.rest)
			}
		})
	}
}
