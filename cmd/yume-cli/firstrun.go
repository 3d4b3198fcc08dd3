package main

// firstRunNote is the driver's FirstRun hook: when a fail rule (a first-run
// screen such as folder trust) fires, the other first-run problems of the
// provider yume-cli can see on its own (credentials missing, as `yume-cli
// doctor` finds them), naming the --cwd folder; nil for a provider with
// nothing to check.
func firstRunNote(o *StartOptions) func(screen string) string {
	p := o.provider()
	if p == nil || p.Credentials.Fix == "" {
		return nil
	}
	return func(screen string) string { return p.FirstRunNote(screen, o.Cwd) }
}
