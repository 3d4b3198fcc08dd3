package providers

// The older verified releases' flags, as each prints them in its --help
// (Provider.Releases): what TUI.Args and the modes' Command read, so a
// first run of one of these starts with its own flags, no probe and no
// second start. TestReleases checks each against the release's whole
// --help in testdata.

// claudeReleases: 2.1.197 lists "default" where later releases list
// "manual" (a first run of it was started twice on the newest's flags).
var claudeReleases = []Release{{Version: "2.1.197", Help: `  --debug-file <path>                   Write debug logs to a specific file path
                                        (implicitly enables debug mode)
  --permission-mode <mode>              Permission mode to use for the session
                                        (choices: "acceptEdits", "auto",
                                        "bypassPermissions", "default",
                                        "dontAsk", "plan")
  --session-id <uuid>                   Use a specific session ID for the
                                        conversation (must be a valid UUID)
`}, {Version: "2.1.331", Help: claudeKnownHelp}}

// codexReleases: 0.166.0 and 0.169.0 print the newest's flags.
var codexReleases = []Release{{Version: "0.166.0", Help: codexKnownHelp}, {Version: "0.169.0", Help: codexKnownHelp}}

var copilotReleases = []Release{{Version: "1.0.87", Help: copilotKnownHelp}}

var geminiReleases = []Release{{Version: "0.57.0", Help: geminiKnownHelp}}
