package heuristics

import (
	"strings"
	"testing"
)

// genericCase is one realistic screen for the generic profile. Lines are
// as the program printed them (a prompt's trailing blank included); the
// cursor sits after the last one unless hidden.
type genericCase struct {
	name    string
	screen  string
	settled bool
	rule    string // "" when nothing may fire
	prompt  string
	option  string
	approve string // encoded approve keys
	deny    string
}

var genericCases = []genericCase{
	{name: "rm regular file", screen: "$ rm -i notes.txt\nrm: remove regular file 'notes.txt'? ",
		rule: "rm-remove", prompt: "rm: remove regular file 'notes.txt'?", approve: "y\r", deny: "n\r"},
	{name: "rm empty file", screen: "rm: remove regular empty file 'x'? ",
		rule: "rm-remove", prompt: "rm: remove regular empty file 'x'?", approve: "y\r", deny: "n\r"},
	{name: "rm directory", screen: "$ rm -ri build\nrm: descend into directory 'build'? ",
		rule: "rm-remove", prompt: "rm: descend into directory 'build'?", approve: "y\r", deny: "n\r"},
	{name: "cp overwrite", screen: "$ cp -i a b\ncp: overwrite 'b'? ",
		rule: "overwrite", prompt: "cp: overwrite 'b'?", approve: "y\r", deny: "n\r"},
	{name: "mv replace read-only", screen: "mv: replace 'b', overriding mode 0444 (r--r--r--)? ",
		rule: "overwrite", prompt: "mv: replace 'b', overriding mode 0444 (r--r--r--)?", approve: "y\r", deny: "n\r"},
	{name: "find -ok", screen: "$ find . -name '*.tmp' -ok rm {} \\;\n< rm ... ./a.tmp > ? ",
		rule: "find-ok", prompt: "< rm ... ./a.tmp > ?", approve: "y\r", deny: "n\r"},
	{name: "xargs -p", screen: "$ ls *.tmp | xargs -p rm\nrm a.tmp b.tmp?...",
		rule: "xargs-prompt", prompt: "rm a.tmp b.tmp?...", approve: "y\r", deny: "n\r"},
	{name: "apt continue", screen: `Reading package lists... Done
Building dependency tree... Done
Reading state information... Done
The following NEW packages will be installed:
  cowsay
0 upgraded, 1 newly installed, 0 to remove and 12 not upgraded.
Need to get 18.6 kB of archives.
After this operation, 93.2 kB of additional disk space will be used.
Do you want to continue? [Y/n] `,
		rule: "yes-no", prompt: "Do you want to continue? [Y/n]", approve: "y\r", deny: "n\r"},
	{name: "git add -p hunk", screen: `diff --git a/a.txt b/a.txt
index 257cc56..5716ca5 100644
--- a/a.txt
+++ b/a.txt
@@ -1 +1 @@
-foo
+bar
(1/1) Stage this hunk [y,n,q,a,d,e,p,?]? `,
		rule: "git-add-patch", prompt: "(1/1) Stage this hunk [y,n,q,a,d,e,p,?]?", approve: "y\r", deny: "n\r"},
	{name: "git add -p newer git", screen: "(2/3) Stage this hunk [y,n,q,a,d,K,j,J,g,/,e,p,P,?]? ",
		rule: "git-add-patch", prompt: "(2/3) Stage this hunk [y,n,q,a,d,K,j,J,g,/,e,p,P,?]?", approve: "y\r", deny: "n\r"},
	{name: "git add -p mode change", screen: "old mode 100644\nnew mode 100755\n(1/1) Stage mode change [y,n,q,a,d,?]? ",
		rule: "git-add-patch", prompt: "(1/1) Stage mode change [y,n,q,a,d,?]?", approve: "y\r", deny: "n\r"},
	{name: "git add -p deletion", screen: "(1/1) Stage deletion [y,n,q,a,d,?]? ",
		rule: "git-add-patch", prompt: "(1/1) Stage deletion [y,n,q,a,d,?]?", approve: "y\r", deny: "n\r"},
	{name: "git add -p addition", screen: "(1/1) Stage addition [y,n,q,a,d,e,?]? ",
		rule: "git-add-patch", prompt: "(1/1) Stage addition [y,n,q,a,d,e,?]?", approve: "y\r", deny: "n\r"},
	{name: "inquirer confirm", screen: "? Delete the file? (y/N) ",
		rule: "inquirer-confirm", prompt: "Delete the file?", approve: "y\r", deny: "n\r"},
	{name: "survey confirm default yes", screen: "? Proceed with the upgrade? (Y/n) ",
		rule: "inquirer-confirm", prompt: "Proceed with the upgrade?", approve: "y\r", deny: "n\r"},
	{name: "ssh yes/no/fingerprint", screen: `The authenticity of host 'example.com (93.184.216.34)' can't be established.
ED25519 key fingerprint is SHA256:abc.
This key is not known by any other names.
Are you sure you want to continue connecting (yes/no/[fingerprint])? `,
		rule: "yes-no-word", prompt: "Are you sure you want to continue connecting (yes/no/[fingerprint])?", approve: "yes\r", deny: "no\r"},
	{name: "plain (yes/no)", screen: "Drop the database? (yes/no) ",
		rule: "yes-no-word", prompt: "Drop the database? (yes/no)", approve: "yes\r", deny: "no\r"},
	{name: "(y/n)", screen: "Continue? (y/n) ",
		rule: "yes-no", prompt: "Continue? (y/n)", approve: "y\r", deny: "n\r"},
	{name: "[y/N] with colon", screen: "Install hooks [y/N]: ",
		rule: "yes-no", prompt: "Install hooks [y/N]:", approve: "y\r", deny: "n\r"},
	{name: "conda", screen: "Proceed ([y]/n)? ",
		rule: "yes-no", prompt: "Proceed ([y]/n)?", approve: "y\r", deny: "n\r"},
	{name: "inquirer select", screen: "? Pick one (Use arrow keys)\n❯ alpha\n  beta\n  gamma", settled: true,
		rule: "arrow-menu", prompt: "Pick one", option: "alpha", approve: "\r", deny: "\x03"},
	{name: "@inquirer/prompts select", screen: "? Pick a package manager\n  npm\n❯ yarn\n  pnpm\n\n↑↓ navigate • ⏎ select", settled: true,
		rule: "arrow-menu", prompt: "Pick a package manager", option: "yarn", approve: "\r", deny: "\x03"},
	{name: "survey select", screen: "? Choose a color:  [Use arrows to move, type to filter]\n  red\n> blue\n  green", settled: true,
		rule: "arrow-menu", prompt: "Choose a color:", option: "blue", approve: "\r", deny: "\x03"},
	{name: "numbered menu", screen: "Select a shell:\n1) bash\n2) zsh\n3) fish\nChoose [1-3]: ",
		rule: "numbered-menu", prompt: "Choose [1-3]:", approve: "\r", deny: "\x03"},
	{name: "numbered menu with dots", screen: "  1. Keep local\n  2. Take remote\n  3. Abort\nEnter your choice: ",
		rule: "numbered-menu", prompt: "Enter your choice:", approve: "\r", deny: "\x03"},
	{name: "bash select", screen: "1) start\n2) stop\n#? ",
		rule: "numbered-menu", prompt: "#?", approve: "\r", deny: "\x03"},

	// Screens on which nothing may fire.
	{name: "shell prompt", screen: "$ ls\nREADME.md  go.mod\n$ ", settled: true},
	{name: "half-drawn prompt", screen: "Do you want to contin", settled: true},
	// A TUI's key hints under numbered options: its dialog is read by
	// shape (the command on its own row), not as a numbered menu whose
	// question is the hint (TestDriveShapes, seed 1795849983790936423).
	{name: "key hints under numbered options", screen: " Command: make it\n\n 1. Approve\n 2. ✗ No, cancel execution\n\n ↑↓ navigate • Enter select • Esc cancel", settled: true},
	{name: "answered confirm", screen: "? Delete the file? Yes\n", settled: true},
	{name: "answered rm", screen: "rm: remove regular file 'x'? y\n$ ", settled: true},
	{name: "y/n in prose", screen: "Pass --yes to skip every [y/N] question.\nDone.", settled: true},
	{name: "inquirer select unsettled", screen: "? Pick one (Use arrow keys)\n❯ alpha\n  beta"},
	{name: "numbered list, no question", screen: "1) install deps\n2) run tests\nAll done.", settled: true},
}

func TestGenericProfile(t *testing.T) {
	p, err := LoadProfile("generic")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range genericCases {
		t.Run(tc.name, func(t *testing.T) {
			v := screenOf(100, 24, tc.screen)
			if tc.settled {
				v.hidden = true // menus hide the cursor; it must not matter
			}
			d, trace := NewEngine(p).Evaluate(v, tc.settled)
			if tc.rule == "" {
				if d != nil {
					t.Fatalf("%s fired on a screen that asks nothing: %+v", d.Rule.Name, d)
				}
				return
			}
			if d == nil {
				t.Fatalf("nothing fired; trace:\n  %s", strings.Join(whys(trace), "\n  "))
			}
			if d.Rule.Name != tc.rule || d.Prompt != tc.prompt || d.Option != tc.option || d.Command != "" {
				t.Fatalf("got %s prompt %q option %q command %q; want %s %q %q", d.Rule.Name, d.Prompt, d.Option, d.Command, tc.rule, tc.prompt, tc.option)
			}
			for _, k := range []struct {
				keys Keys
				want string
			}{{d.Rule.Approve, tc.approve}, {d.Rule.Deny, tc.deny}} {
				got, err := k.keys.Encode(v)
				if err != nil || string(got) != k.want {
					t.Errorf("keys %s encode to %q, %v; want %q", k.keys, got, err, k.want)
				}
			}
		})
	}
}
