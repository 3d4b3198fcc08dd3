package ptyhost

import (
	"strings"
	"testing"
)

func TestBatchCommandLine(t *testing.T) {
	const script = `C:\npm\copilot.cmd`
	tests := []struct {
		name    string
		args    []string
		want    string // the command line, or
		refused string // the character an error names
	}{
		{"no arguments", nil, `cmd.exe /d /s /c ""C:\npm\copilot.cmd""`, ""},
		{"plain words", []string{"-p", "two words"}, `cmd.exe /d /s /c ""C:\npm\copilot.cmd" "-p" "two words""`, ""},
		{"cmd.exe's operators stay text in quotes", []string{"a&b|c<d>e", "(f)^g"},
			`cmd.exe /d /s /c ""C:\npm\copilot.cmd" "a&b|c<d>e" "(f)^g""`, ""},
		{"a trailing backslash is doubled", []string{`dir\`, `a\b`},
			`cmd.exe /d /s /c ""C:\npm\copilot.cmd" "dir\\" "a\b""`, ""},
		{"empty argument", []string{""}, `cmd.exe /d /s /c ""C:\npm\copilot.cmd" """`, ""},
		{"a quote", []string{`say "hi"`}, "", `'"'`},
		{"a percent", []string{"100%"}, "", `'%'`},
		{"a variable", []string{"%PATH%"}, "", `'%'`},
		{"delayed expansion", []string{"wow!"}, "", `'!'`},
		{"a line break", []string{"one\ntwo"}, "", `'\n'`},
		{"a carriage return", []string{"one\rtwo"}, "", `'\r'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := batchCommandLine(script, tt.args)
			if tt.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tt.refused) || !strings.Contains(err.Error(), "copilot.cmd") {
					t.Fatalf("batchCommandLine(%q) = %q, %v; want an error naming %s and the batch file", tt.args, got, err, tt.refused)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("batchCommandLine(%q) = %q, %v\nwant %q", tt.args, got, err, tt.want)
			}
		})
	}
	if _, err := batchCommandLine(`C:\100%\x.cmd`, nil); err == nil || !strings.Contains(err.Error(), "path") {
		t.Errorf("a batch file whose path holds %%: %v; want an error naming the path", err)
	}
}

func TestIsBatch(t *testing.T) {
	for path, want := range map[string]bool{
		`C:\npm\claude.cmd`: true, `C:\x\run.BAT`: true, `C:\x\node.exe`: false,
		`C:\x\cmd`: false, `C:\x.cmd\prog.exe`: false, "": false,
	} {
		if got := isBatch(path); got != want {
			t.Errorf("isBatch(%q) = %v; want %v", path, got, want)
		}
	}
}
