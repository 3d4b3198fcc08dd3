#!/bin/sh
# Records a person using the four AI TUIs (Claude Code, Codex, Copilot CLI,
# Gemini CLI), and four agents no profile knows (Cline, Continue's cn, Grok
# CLI, nanocoder: run it inside `unshare -n` so that nothing they start
# reaches beyond loopback), into recordings/testdata/people: the person types the prompt
# into the TUI's input box and presses Enter, then approves or denies the
# shell command the model asks to run, reads the answer and quits with
# Ctrl-C. The TUIs are the newest releases `make e2e-deps` linked into
# .e2e/bin; each runs offline in a throwaway sandbox (yume-sandbox) against
# the project's fake model server, which answers from a script: one shell
# call, then a final text. Run from the repository root:
#
#   scripts/person/record-tuis.sh [SCRATCH] [NAME…]
#
# SCRATCH defaults to .wt/tuis (gitignored); NAME picks casts by name
# (default all). The recordings differ from run to run in times and ids.
set -eu

root=$(pwd)
scratch=${1:-.wt/tuis}
[ $# -gt 0 ] && shift
only=" $* "
out=$root/recordings/testdata/people
yc=$root/.wt/yc
sandbox=$root/.wt/yume-sandbox
go build -o "$yc" ./cmd/yume-cli
go build -o "$sandbox" ./internal/cmd/yume-sandbox
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)

# call PROVIDER COMMAND: the provider's own shell tool call, as e2e/live_test.go's shellCall.
call() {
	case $1 in
	claude) echo "{\"name\":\"Bash\",\"args\":{\"command\":\"$2\",\"description\":\"Show the files\"}}" ;;
	gemini) echo "{\"name\":\"run_shell_command\",\"args\":{\"command\":\"$2\",\"description\":\"Show the files\"}}" ;;
	codex) echo "{\"name\":\"exec_command\",\"args\":{\"cmd\":\"$2\",\"sandbox_permissions\":\"require_escalated\",\"justification\":\"Show the files\"}}" ;;
	cline) echo "{\"name\":\"run_commands\",\"args\":{\"commands\":[\"$2\"]}}" ;;
	cn) echo "{\"name\":\"Bash\",\"args\":{\"command\":\"$2\"}}" ;;
	nanocoder) echo "{\"name\":\"execute_bash\",\"args\":{\"command\":\"$2\"}}" ;;
	*) echo "{\"name\":\"bash\",\"args\":{\"command\":\"$2\",\"description\":\"Show the files\"}}" ;;
	esac
}

# tui NAME PROVIDER SEED STEP… -- CMD…: one recording. The sandbox serves
# the fake model while person.py records CMD in the sandbox's workspace
# with the sandbox's environment (minus TERM, NO_COLOR and CI: a person's
# terminal has colour).
tui() {
	name=$1 provider=$2 seed=$3
	shift 3
	case $only in "  ") ;; *" $name "*) ;; *) return 0 ;; esac
	dir=$scratch/$name
	rm -rf "$dir" && mkdir -p "$dir"
	printf '{"replies":[{"text":"I will show the files.","tool_calls":[%s]},{"text":"Those are the files in this folder."}]}\n' \
		"$(call "$provider" 'touch seen.txt && ls')" >"$dir/script.json"
	"$sandbox" -provider "$provider" -script "$dir/script.json" -dir "$dir/sb" -bin "$root/.e2e/bin" -env >"$dir/env" &
	spid=$!
	while ! grep -q '^cd ' "$dir/env" 2>/dev/null; do
		kill -0 "$spid" || { echo "record-tuis: the sandbox for $name did not start" >&2; return 1; }
		sleep 0.1
	done
	ws=$(sed -n "s/^cd '\(.*\)'$/\1/p" "$dir/env")
	printf 'notes\n' >"$ws/notes.txt" && printf 'plan\n' >"$ws/plan.md"
	# cn's config, where its command line names it without this machine's
	# path (a dot file: ls does not list it).
	[ "$provider" = cn ] && cp "$dir/sb/home/.continue/config.yaml" "$ws/.cn.yaml"
	set -- "$@"
	envs=$(sed -n "s/^export '\(.*\)'$/\1/p" "$dir/env" | grep -v -e '^TERM=' -e '^NO_COLOR=' -e '^CI=')
	home=$(printf '%s\n' "$envs" | sed -n 's/^HOME=//p')
	old_ifs=$IFS
	IFS='
'
	# shellcheck disable=SC2046 # one --env per line
	python3 "$root/scripts/person/person.py" --yc "$yc" --cast "$out/$name.cast" --cwd "$ws" --home "$home" \
		--cols 120 --rows 40 --seed "$seed" --timeout 60 --log "$dir/raw.log" \
		$(printf '%s\n' "$envs" | sed 's/^/--env\n/') "$@" || status=$?
	IFS=$old_ifs
	# The TUIs draw the workspace's path: this machine's, never committed.
	# A stand-in of the same length keeps every row's layout.
	stand_in=$(printf '%s' "$root" | sed 's#.#p#g; s#^.....#/srv/#')
	sed -i "s#$root#$stand_in#g" "$out/$name.cast"
	# Cline prints a stack trace as it quits, its paths in Bun's virtual
	# file system (/$bunfs/root/…): no machine's, but the corpus check
	# refuses a root anywhere.
	sed -i 's#/\$bunfs/root/#/$bunfs/bunr/#g' "$out/$name.cast"
	kill "$spid" 2>/dev/null || true
	wait "$spid" 2>/dev/null || true
	return "${status:-0}"
}

prompt='show me the files here'

# Claude Code (in its mode that asks: auto mode is its default): the
# input box (❯), its Bash dialog "Do you want to proceed?" (1. Yes
# highlighted, 4. No), the answer, Ctrl-C twice. The person denies by
# walking to "4. No" one arrow key at a time. Expectations match the
# output with escapes taken out, where cursor moves stand for spaces.
tui claude-approve claude 21 --step '\? for shortcuts' "$prompt<Enter>" \
	--step 'proceed\?' '<Enter>' --step 'this\s*folder\.' '<C-c>' --step 'again' '<C-c>' -- claude --permission-mode manual
tui claude-deny claude 22 --step '\? for shortcuts' "$prompt<Enter>" \
	--step 'proceed\?' '<Down><Down><Down><Enter>' --step '(?i)what\s*should\s*claude\s*do' '<C-c>' --step 'again' '<C-c>' -- claude --permission-mode manual

# claude-unfold: the person approves, then presses Ctrl-O (Claude's
# transcript view) once the answer is shown: the command's output, folded
# into "Ran 1 shell command" on the main view, is drawn there.
tui claude-unfold claude 28 --step '\? for shortcuts' "$prompt<Enter>" \
	--step 'proceed\?' '<Enter>' --step 'this\s*folder\.' '<C-o>' --step 'seen\.txt' '<C-o>' --step 'manual\s*mode\s*on' '<C-c>' --step 'again' '<C-c>' -- claude --permission-mode manual

# Codex: its "Meet GPT-… / 2. Use existing model" nudge (the person keeps
# the model), the composer, its approval dialog, the answer, Ctrl-C (once: it
# leaves at the first); in codex-slow-enter the person thinks 14 s before pressing Enter.
tui codex-approve codex 23 --step 'Use\s*existing\s*model' '<Down><Enter>' --step 'for shortcuts' "$prompt<Enter>" \
	--step '(?i)would\s*you\s*like\s*to\s*run' '<Enter>' --step 'this\s*folder\.' '<C-c>' -- codex --ask-for-approval on-request --sandbox read-only
tui codex-slow-enter codex 24 --step 'Use\s*existing\s*model' '<Down><Enter>' --step 'for shortcuts' "$prompt<wait=14><Enter>" \
	--step '(?i)would\s*you\s*like\s*to\s*run' '<Enter>' --step 'this\s*folder\.' '<C-c>' -- codex --ask-for-approval on-request --sandbox read-only

# Copilot CLI: its input box, the command dialog, Ctrl-C twice.
tui copilot-approve copilot 25 --step 'open sidebar' "$prompt<Enter>" \
	--step '(?i)run\s*this\s*command\?' '<Enter>' --step 'this\s*folder\.' '<C-c>' --step 'again' '<C-c>' -- copilot

# copilot-unfold: the person unfolds the command's output with Ctrl-O
# (Copilot folds it as "$ Shell … 3 lines…") before leaving.
tui copilot-unfold copilot 27 --step 'open sidebar' "$prompt<Enter>" \
	--step '(?i)run\s*this\s*command\?' '<Enter>' --step 'this\s*folder\.' '<C-o>' --step 'seen\.txt' '<C-c>' --step 'again' '<C-c>' -- copilot

# Gemini CLI: its input box, "Allow execution of", the answer, Ctrl-C twice.
tui gemini-approve gemini 26 --step 'Type your message' "$prompt<Enter>" \
	--step '(?i)allow\s*execution' '<Enter>' --step 'this\s*folder\.' '<C-c>' --step 'again' '<C-c>' -- gemini
# Four agents no profile knows (replayed with the generic profile): each
# takes its prompt in its input box, asks in a dialog of its own shape,
# and is left with Ctrl-C.
tui cline-approve cline 31 --step 'What\s*can\s*I\s*do' "$prompt<Enter>" --step 'Approve\s*tool\s*call' 'y' \
	--step 'this\s*folder\.' '<C-c>' -- cline -i --auto-approve false
tui cline-deny cline 32 --step 'What\s*can\s*I\s*do' "$prompt<Enter>" --step 'Approve\s*tool\s*call' 'n' \
	--step '(?i)rejected' '<C-c>' -- cline -i --auto-approve false
tui cn-approve cn 33 --step 'Ask\s*anything' "$prompt<Enter>" --step 'Would\s*you\s*like\s*to\s*continue' '<Enter>' \
	--step 'this\s*folder\.' '<C-c>' --step 'ctrl\+c\s*to\s*exit' '<C-c>' -- cn --config ./.cn.yaml
tui cn-deny cn 34 --step 'Ask\s*anything' "$prompt<Enter>" --step 'Would\s*you\s*like\s*to\s*continue' '<Esc>' \
	--step 'Permission\s*denied' '<C-c>' --step 'ctrl\+c\s*to\s*exit' '<C-c>' -- cn --config ./.cn.yaml
tui grok-approve grok 35 --step 'Ask\s*me\s*anything' "$prompt<Enter>" --step 'proceed\s*with\s*this\s*operation' '<Enter>' \
	--step 'this\s*folder\.' '<C-c>' --step 'Ask\s*me\s*anything' '<C-c>' -- grok
tui grok-deny grok 36 --step 'Ask\s*me\s*anything' "$prompt<Enter>" --step 'proceed\s*with\s*this\s*operation' '<Down><Down><Enter>' \
	--step 'this\s*folder\.' '<C-c>' --step 'Ask\s*me\s*anything' '<C-c>' -- grok
tui nanocoder-approve nanocoder 37 --step 'help\s*with\?' "$prompt<Enter>" --step 'execute\s*tool' '<Enter>' \
	--step 'this\s*folder\.' '<C-c>' -- nanocoder
tui nanocoder-deny nanocoder 38 --step 'help\s*with\?' "$prompt<Enter>" --step 'execute\s*tool' '<Down><Enter>' \
	--step '(?i)cancelled\s*by\s*user' '<C-c>' -- nanocoder
chmod 644 "$out"/*.cast
