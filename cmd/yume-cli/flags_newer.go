package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// A newer Yume may pass a flag this yume-cli does not know. Stopping the
// run on it would fail every message (Yume shows the exit, not why), so an
// unknown flag is ignored and said (stderr, a system notice), unless
// ignoring it could do harm: a flag whose name says it limits what the
// agent may do, where, with what or for how long (harmfulStems), which,
// ignored, would let the agent do what Yume meant to stop, or do it
// elsewhere. Those stay usage errors (exit 2), as an unknown short flag
// does (a letter says nothing of what it asks).

// harmfulStems: an unknown flag whose name holds one of these is an error.
var harmfulStems = []string{
	"perm", "approv", "allow", "deny", "disallow", "sandbox", "readonly", "read-only", "guard", "safe", "secur",
	"restrict", "block", "polic", "trust", "tool", "budget", "max", "limit", "timeout", "cwd", "dir", "path",
	"file", "tree", "workspace", "branch", "root", "dry", "network", "offline", "config", "setting", "env",
	"base", "url", "endpoint", "key", "token", "auth", "output", "resume", "session", "history", "model",
}

// newerFlags takes out of args the unknown flags of the start command
// (the bare root or start) that may be ignored, with their values; it
// returns what is left, the flags ignored (as given), and a usage error
// for one that may not be. Other subcommands' args are left to them.
func newerFlags(root *cobra.Command, args []string) (kept, ignored []string, err error) {
	if len(args) > 0 && strings.HasPrefix(args[0], "__complete") {
		return args, nil, nil // the shell completing what it typed
	}
	root.InitDefaultHelpFlag()
	root.InitDefaultVersionFlag()
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd(args...)
	fs := root.Flags()
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(kept, args[i:]...), ignored, nil
		case !strings.HasPrefix(a, "-") || a == "-":
			if c, _, err := root.Find([]string{a}); a != "start" && err == nil && c != root {
				// A subcommand other than start: its flags are its own.
				return append(kept, args[i:]...), ignored, nil
			}
			kept = append(kept, a)
			continue
		case strings.HasPrefix(a, "--"):
			name, _, inline := strings.Cut(a[2:], "=")
			if f := fs.Lookup(name); f != nil {
				kept = append(kept, a)
				if !inline && f.NoOptDefVal == "" && i+1 < len(args) {
					i++
					kept = append(kept, args[i])
				}
				continue
			}
			if near := nearFlag(fs, name); near != "" {
				// A typo of a flag it knows, not a newer Yume's flag.
				return nil, nil, usagef("unknown flag: --%s (did you mean --%s?)", name, near)
			}
			if stem := harmfulStem(name); stem != "" {
				return nil, nil, usagef("unknown flag: --%s: this %s does not know it, and a flag about %q that is ignored could let the agent do what it was meant to stop, or do it elsewhere: update yume-cli", name, versionString(), stem)
			}
			said := a
			if !inline && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++ // its value, as pflag reads an unknown flag's
				said += " " + args[i]
			}
			ignored = append(ignored, said)
		default: // -x, -xVALUE, -abc
			letters, taken := a[1:], false
			for j, r := range letters {
				f := fs.ShorthandLookup(string(r))
				if f == nil {
					return nil, nil, usagef("unknown shorthand flag: %q in %s: this %s does not know it", r, a, versionString())
				}
				if f.NoOptDefVal == "" { // takes a value: the rest, or the next arg
					taken = j == len(letters)-1
					break
				}
			}
			kept = append(kept, a)
			if taken && i+1 < len(args) {
				i++
				kept = append(kept, args[i])
			}
		}
	}
	return kept, ignored, nil
}

// nearFlag is the known flag name is a typo of (within two edits), or "".
func nearFlag(fs *pflag.FlagSet, name string) string {
	var names []string
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	return didYouMean(name, names)
}

// harmfulStem is the stem of harmfulStems that name holds ("" for none).
func harmfulStem(name string) string {
	n := strings.ToLower(name)
	for _, s := range harmfulStems {
		if strings.Contains(n, s) {
			return s
		}
	}
	return ""
}

// ignoredNote says that a newer Yume's flag was ignored.
func ignoredNote(flag string) string {
	return fmt.Sprintf("yume-cli: ignored %s: this %s does not know it (a newer Yume's flag?); the run goes on without it", flag, versionString())
}

// argValue is the value args give flag (--name V or --name=V), before
// "--"; "" when they give none.
func argValue(args []string, name string) string {
	for i, a := range args {
		switch {
		case a == "--":
			return ""
		case a == "--"+name && i+1 < len(args):
			return args[i+1]
		case strings.HasPrefix(a, "--"+name+"="):
			return strings.TrimPrefix(a, "--"+name+"=")
		}
	}
	return ""
}
