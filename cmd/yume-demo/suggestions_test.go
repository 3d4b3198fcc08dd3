package main

import (
	"bytes"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

func TestSuggest(t *testing.T) {
	tests := []struct {
		target, prompt, want string
	}{
		{"shell", "list files", "ls -la"},
		{"shell", "List all files here", "ls -la"},
		{"shell", "find the largest files", "find . -type f -size +100M"},
		{"shell", "find all files larger than 100MB", "find . -type f -size +100M"},
		{"shell", "how much disk is free", "df -h"},
		{"shell", "count lines in every file", "wc -l *"},
		{"shell", "say hello", `echo "Hello from yume-demo"`},
		{"shell", "print a greeting", `echo "print a greeting"`},
		{"gh", "list my PR queue", "gh pr list"},
		{"gh", "print issues", "gh issue list"}, // "pr" must not match inside "print"
		{"git", "undo the last commit", "git reset --soft HEAD~1"},
		{"git", "what changed", "git status"},
		{"git", "list files", `echo "list files"`}, // table rows are per target
	}
	for _, tt := range tests {
		if got := Suggest(tt.target, tt.prompt); got != tt.want {
			t.Errorf("Suggest(%q, %q) = %q, want %q", tt.target, tt.prompt, got, tt.want)
		}
	}
}

// The fallback must print the prompt verbatim whatever it contains: the
// prompt comes from a person and reaches `sh -c`.
func TestFallbackEchoIsSafe(t *testing.T) {
	prompts := []string{
		`plain words`,
		`a "quoted" word`,
		`$HOME and $(touch pwned) and ` + "`touch pwned2`",
		`back\slash and 'single' quotes; rm -rf nothing`,
	}
	for _, p := range prompts {
		cmd := Suggest("shell", p)
		out, err := exec.Command("sh", "-c", cmd).Output()
		if err != nil {
			t.Fatalf("sh -c %q: %v", cmd, err)
		}
		if got := strings.TrimSuffix(string(out), "\n"); got != p {
			t.Errorf("sh -c %q printed %q, want the prompt %q", cmd, got, p)
		}
	}
	if got := Suggest("shell", "two\nlines"); got != `echo "two lines"` {
		t.Errorf("a multi-line prompt gave %q, want one line", got)
	}
}

func TestRevise(t *testing.T) {
	tests := []struct {
		name, target, cmd, revision, want string
	}{
		{"keyword switches row", "shell", "ls -la", "show disk usage instead", "df -h"},
		{"sudo prefixes", "shell", "df -h", "run it as root", "sudo df -h"},
		{"sort appends", "shell", "ls", "sorted please", "ls | sort"},
		{"count appends", "shell", "ls", "how many are there", "ls | wc -l"},
		{"head appends", "shell", "ls -la", "only the first few", "ls -la | head -n 10"},
		{"other text becomes a comment", "shell", "ls", "in  blue\nplease", "ls # in blue please"},
		{"blank keeps the command", "shell", "ls", "   ", "ls"},
		{"git keywords", "git", "git status", "undo it", "git reset --soft HEAD~1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Revise(tt.target, tt.cmd, tt.revision); got != tt.want {
				t.Errorf("Revise(%q, %q) = %q, want %q", tt.cmd, tt.revision, got, tt.want)
			}
		})
	}
}

func TestExplain(t *testing.T) {
	tests := []struct {
		name, target, cmd string
		want              []string
	}{
		{"table row", "shell", "df -h", []string{
			"  • df reports file system disk space usage.",
			"    • -h prints sizes in human readable units (K, M, G).",
		}},
		{"pipeline and comment", "shell", "ls | sort # neat", []string{
			"  • ls lists the contents of a directory.",
			"  • sort sorts lines of text.",
			"  • The | characters pipe the output of each command into the next.",
			"  • # neat is a comment; the shell ignores it.",
		}},
		{"unknown program", "shell", "frob --fast", []string{
			"  • frob is the program being run.",
			"    • --fast are the arguments passed to frob.",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Explain(tt.target, tt.cmd); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Explain(%q) =\n%s\nwant\n%s", tt.cmd, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    Options
		wantErr string
	}{
		{"subcommand", []string{"suggest", "-t", "git", "undo", "it"}, Options{Target: "git", Prompt: "undo it"}, ""},
		{"bare prompt", []string{"list files"}, Options{Prompt: "list files"}, ""},
		{"prompt after --, as gh-copilot's profile passes it", []string{"suggest", "-t", "shell", "--", "-rf everything"}, Options{Target: "shell", Prompt: "-rf everything"}, ""},
		{"flags after prompt", []string{"suggest", "hi", "--suggest", "echo hi", "--target", "shell"}, Options{Target: "shell", Prompt: "hi", Forced: "echo hi"}, ""},
		{"shell out", []string{"-s", "/tmp/x", "-t", "gh"}, Options{Target: "gh", ShellOut: "/tmp/x"}, ""},
		{"no args asks everything", nil, Options{}, ""},
		{"bad target", []string{"suggest", "-t", "zsh"}, Options{}, `invalid target "zsh"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *Options
			cmd := newRootCmd(&IOStreams{}, func(o *Options) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			err := cmd.Execute()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			got.IO = nil
			if *got != tt.want {
				t.Errorf("options = %+v, want %+v", *got, tt.want)
			}
		})
	}
}

func TestMainReportsUsageErrors(t *testing.T) {
	var errOut bytes.Buffer
	code := Main([]string{"suggest", "--no-such-flag"}, &IOStreams{ErrOut: &errOut})
	if code != 1 {
		t.Errorf("exit status = %d, want 1", code)
	}
	if !strings.Contains(errOut.String(), "✗ Error: unknown flag: --no-such-flag") || !strings.Contains(errOut.String(), "--help") {
		t.Errorf("stderr = %q, want the error and where to find usage", errOut.String())
	}
}
