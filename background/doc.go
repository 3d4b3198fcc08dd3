// Package background is what yume-cli does for Yume's background agents,
// which start it as
//
//	yume-cli --provider anthropic --model M --cwd DIR --session-id ID --prompt P
//	         --permission-mode auto --agent-type TYPE --output-file F --async --git-branch B
//
// with stdin /dev/null and stdout and stderr piped: the switch of the
// working tree to the agent's branch (branch.go), the lock that keeps two
// agents out of one working tree (lock.go), the progress lines and the
// AgentOutput file Yume reads when the process ends (recorder.go,
// output.go), and a writer that never lets an unread pipe stop the agent
// (detach.go). One job per file; nothing here knows a provider.
package background
