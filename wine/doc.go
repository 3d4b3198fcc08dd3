// Package wine runs yume-cli's Windows build under Wine: the PTY path over
// ConPTY, driven the way Yume drives it, on a Linux machine. Its tests (in
// wine_test.go) build yume-cli.exe, the test programs in testdata and
// ptyhost's Windows tests, set up a Wine prefix in the checkout's .scratch
// directory, and skip, saying why, where Wine or the MinGW binutils are
// missing (CI installs both: .ci/run).
//
//	go test ./wine/
package wine
