package structured

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kballard/go-shellquote"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
)

// runCommand runs the agent command line the user gave after -- over ACP
// (--provider acp): nothing is probed or added to it, so any program that
// speaks ACP on stdio works; its session mode is set to the one that asks
// (acp_modes.go), and yume-cli's policy answers every request it makes.
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
	opts.Env = append(slices.Clone(opts.Env), append(env, permissionEnv(providers.ByCommand(opts.Command))...)...)
	return runACP(ctx, opts, w, mode, inv, path, note)
}

// permissionEnv is the permission setting yume-cli gives an agent it
// knows by name that asks as its environment says (opencode's and Kilo's
// *_PERMISSION at ask), so that run as any ACP agent it asks too: yume-cli
// owns the permission mode. Nothing else of its command line is added.
func permissionEnv(known *providers.Provider) []string {
	if known == nil {
		return nil
	}
	m, ok := known.ModeFor(providers.ModeACP, "")
	if !ok || m.Command == nil {
		return nil
	}
	var env []string
	for _, e := range m.Command(providers.Request{}).Env {
		if k, _, _ := strings.Cut(e, "="); strings.HasSuffix(k, "_PERMISSION") {
			env = append(env, e)
		}
	}
	return env
}

// commandMode is the ACP mode a command after -- runs in.
func commandMode(opts Options) (providers.Mode, error) {
	mode, ok := opts.Provider.ModeFor(providers.ModeACP, "")
	if !ok || (opts.Mode != "" && opts.Mode != "auto" && opts.Mode != providers.ModeACP) {
		return mode, fmt.Errorf("a command after -- runs in ACP mode with --provider acp, not --provider %s --mode %s; use --provider acp -- CMD ARGS…", opts.Provider.Name, opts.Mode)
	}
	return mode, nil
}
