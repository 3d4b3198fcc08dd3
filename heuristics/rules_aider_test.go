package heuristics

import "testing"

// aider is not installed where these tests run: the screens follow the
// prompts aider documents (aider/io.py confirm_ask, "Run shell command?").
func TestAiderRules(t *testing.T) {
	p, err := LoadProfile("aider")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, screen    string
		rule, command   string
		prompt, approve string
	}{
		{"one command", "Here is how to run it:\n\npython hello.py\n\nRun shell command? (Y)es/(N)o/(D)on't ask again [Yes]: ",
			"run-shell", "python hello.py", "Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]:", "y\r"},
		{"several commands", "pip install rich\npython hello.py\nRun shell commands? (Y)es/(N)o/(S)kip all/(D)on't ask again [Yes]: ",
			"run-shell", "pip install rich\npython hello.py", "Run shell commands? (Y)es/(N)o/(S)kip all/(D)on't ask again [Yes]:", "y\r"},
		{"add file", "Add hello.py to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: ",
			"add-file", "", "Add hello.py to the chat? (Y)es/(N)o/(D)on't ask again [Yes]:", "y\r"},
		// The question answered: the cursor left it, nothing fires.
		{"answered", "python hello.py\nRun shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y\nHello\n", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := screenOf(120, 40, tt.screen)
			d, _ := NewEngine(p).Evaluate(v, false) // cursor: end fires unsettled
			if tt.rule == "" {
				if d != nil {
					t.Fatalf("rule %s fired on an answered question", d.Rule.Name)
				}
				return
			}
			if d == nil || d.Rule.Name != tt.rule {
				t.Fatalf("detection %+v, want rule %s", d, tt.rule)
			}
			if d.Command != tt.command || d.Prompt != tt.prompt {
				t.Errorf("command %q prompt %q, want %q %q", d.Command, d.Prompt, tt.command, tt.prompt)
			}
			if b, err := d.Rule.Approve.Encode(v); err != nil || string(b) != tt.approve {
				t.Errorf("approve keys %q (%v), want %q", b, err, tt.approve)
			}
		})
	}
}
