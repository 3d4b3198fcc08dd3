// Package e2e runs yume-cli, built from this checkout, against the real
// provider CLIs (installed by `make e2e-deps` into .e2e/bin), offline: each
// run gets a throwaway home whose configuration points the CLI at a fake
// model server on 127.0.0.1, and the test plays Yume: it reads the event
// stream and answers the permission requests. The scenarios are generated
// from a seed printed in the log (E2E_SEED repeats one). E2E_TRACES=DIR
// keeps every run's --trace there, to set a passing run's timings beside
// a failed one's.
//
//	YUME_E2E=1 go test ./e2e/
package e2e
