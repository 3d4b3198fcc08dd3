package structured

import (
	"context"
	"fmt"
	"slices"

	"github.com/kballard/go-shellquote"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
)

// runCommand runs the agent command line the user gave after -- over ACP
// (--provider acp): nothing is probed or added, so any program that
// speaks ACP on stdio works; it is told nothing about permission modes,
// and yume-cli's policy answers every request it makes.
func runCommand(ctx context.Context, opts Options, w *emit.Writer, mode providers.Mode, path string, perm permission.Mode) error {
	if opts.Verbose {
		fmt.Fprintf(opts.Stderr, "yume-cli: ACP agent %s at %s, permission mode %s\n", shellquote.Join(opts.Command...), path, perm)
	}
	w.SetDriveMode(mode.Name)
	note := fmt.Sprintf("yume-cli: %s in acp mode", shellquote.Join(opts.Command...))
	inv := providers.Invocation{Args: opts.Command[1:], KeepStdin: true}
	// An agent yume-cli knows by name keeps its side agents off as it
	// would there: ACP cuts them off at stdin's end.
	env, err := sideAgentsEnv(opts, providers.ByCommand(opts.Command), perm, false)
	if err != nil {
		return err
	}
	opts.Env = append(slices.Clone(opts.Env), env...)
	return runACP(ctx, opts, w, mode, inv, path, note)
}

// commandMode is the ACP mode a command after -- runs in.
func commandMode(opts Options) (providers.Mode, error) {
	mode, ok := opts.Provider.ModeFor(providers.ModeACP, "")
	if !ok || (opts.Mode != "" && opts.Mode != "auto" && opts.Mode != providers.ModeACP) {
		return mode, fmt.Errorf("a command after -- runs in ACP mode with --provider acp, not --provider %s --mode %s; use --provider acp -- CMD ARGS…", opts.Provider.Name, opts.Mode)
	}
	return mode, nil
}
