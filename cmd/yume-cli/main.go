// Command yume-cli lets Yume, a desktop GUI that speaks Claude Code's
// stream-json, drive other coding CLIs: interactive ones through a
// pseudo-terminal and a virtual screen, machine-readable ones by translation.
package main

import (
	"os"
)

func main() {
	os.Exit(Main(os.Args[1:], defaultIO()))
}
