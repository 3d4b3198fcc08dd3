package providers

// ACP is any agent that speaks the Agent Client Protocol over stdio; its
// command line comes after -- (`yume-cli --provider acp -- opencode acp`).
const ACP = "acp"

func init() {
	register(&Provider{
		Name:  ACP,
		Title: "any Agent Client Protocol agent over stdio (-- CMD ARGS…)",
		// The agent lists no tools of its own over ACP; these are the
		// Claude tools its tool kinds map to.
		Tools: []string{"Bash", "Read", "Write", "Edit", "Grep", "WebFetch"},
		Structured: []Mode{
			// Any version: the agent is whatever the user runs, and
			// session/load is offered or not by its capabilities.
			{Name: ModeACP, Since: "0.0.0", Format: "acp", Resumes: true,
				Command: func(Request) Invocation { return Invocation{KeepStdin: true} }},
		},
	})
}
