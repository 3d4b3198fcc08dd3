// Command yume-demo is an offline stand-in for the legacy `gh copilot suggest`
// (the gh-copilot extension of the 1.x era, built on AlecAivazis/survey).
//
// It asks the same questions in the same order with the same wording, offers
// the same "Select an option" menu and, on "Execute command", runs the
// suggestion with `sh -c` and exits with its status. Suggestions come from a
// small keyword table, so `make demo` can show yume-cli's whole loop
// (tool_use, approval, keys, tool_result) with no provider CLI installed.
package main

import (
	"os"
)

func main() {
	os.Exit(Main(os.Args[1:], defaultIO()))
}
