#!/bin/sh
# Records the second pass of the people corpus (issue 32): a person in tmux
# answering real programs and the four AI TUIs at their newest (.e2e/bin)
# and oldest (.e2e/oldest/bin) releases, in the ways a person gives an
# answer another way: a shown default taken with Enter, a menu left with
# its quit option or key, a correction (a wrong key fixed with Backspace,
# an arrow past the option and back), the output unfolded (Ctrl-O), a long
# command the TUI wraps, and leaving with the program's own quit keys once
# the turn is done. Run from the repository root:
#
#   scripts/person/record-second.sh SET [SCRATCH] [NAME…]
#
# SET is dev (the casts the rules were written against) or fresh (a set
# recorded after the rules, which they had never seen). SCRATCH defaults to
# .wt/second (gitignored); NAME picks casts by name (default all of SET).
# Every program runs in SCRATCH with HOME there; the person's terminal is a
# pane of a private tmux server (person.py --tmux), 80x24 for the programs
# and 100x40 for the TUIs (where their commands wrap). This machine's paths
# in a cast are replaced with stand-ins of the same length, the scratch
# home with /home/person.
set -eu

root=$(pwd)
set_=${1:?usage: record-second.sh dev|fresh [SCRATCH] [NAME…]}
shift
scratch=${1:-.wt/second}
[ $# -gt 0 ] && shift
only=" $* "
out=$root/recordings/testdata/people
yc=$root/.wt/yc
sandbox=$root/.wt/yume-sandbox
go build -o "$yc" ./cmd/yume-cli
go build -o "$sandbox" ./internal/cmd/yume-sandbox
go build -o "$root/.wt/yume-demo" ./cmd/yume-demo
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
# The CLIs `make e2e-deps` installed: in this checkout, or in the main one
# of a worktree.
e2e=$root/.e2e
[ -d "$e2e" ] || e2e=$(dirname "$(git rev-parse --path-format=absolute --git-common-dir)")/.e2e
stand_in=$(printf '%s' "$root" | sed 's#.#p#g; s#^.....#/srv/#')

wanted() { case $only in "  ") return 0 ;; *" $1 "*) return 0 ;; esac; return 1; }

# scrub CAST: this machine's paths out (a stand-in of the same length keeps
# every row's layout), and the scratch home's as /home/person.
scrub() {
	sed -i "s#$scratch/home#/home/person#g; s#$root#$stand_in#g" "$1"
	chmod 644 "$1"
}

# person NAME SEED COLS ROWS CWD STEP… -- CMD…: a real program in tmux.
person() {
	name=$1 seed=$2 cols=$3 rows=$4 cwd=$5
	shift 5
	python3 "$root/scripts/person/person.py" --tmux --tmux-dir "$scratch/tmux" --yc "$yc" --home "$scratch/home" \
		--cols "$cols" --rows "$rows" --seed "$seed" --log "$scratch/$name.raw" --cast "$out/$name.cast" --cwd "$cwd" "$@"
	scrub "$out/$name.cast"
}

# call PROVIDER COMMAND: the provider's own shell tool call (JSON).
call() {
	c=$(python3 -c 'import json, sys; print(json.dumps(sys.argv[1])[1:-1])' "$2")
	case $1 in
	claude) printf "%s\n" "{\"name\":\"Bash\",\"args\":{\"command\":\"$c\",\"description\":\"Copy the notes\"}}" ;;
	gemini) printf "%s\n" "{\"name\":\"run_shell_command\",\"args\":{\"command\":\"$c\",\"description\":\"Copy the notes\"}}" ;;
	codex) printf "%s\n" "{\"name\":\"exec_command\",\"args\":{\"cmd\":\"$c\",\"sandbox_permissions\":\"require_escalated\",\"justification\":\"Copy the notes\"}}" ;;
	*) printf "%s\n" "{\"name\":\"bash\",\"args\":{\"command\":\"$c\",\"description\":\"Copy the notes\"}}" ;;
	esac
}

# tui NAME PROVIDER RELEASE SEED COLS COMMAND STEP… -- CMD…: one AI TUI
# recording (RELEASE new or old), offline against the fake model, which
# asks to run COMMAND and then answers "The notes are copied.".
tui() {
	name=$1 provider=$2 release=$3 seed=$4 cols=$5 command=$6
	shift 6
	bin=$e2e/bin
	[ "$release" = old ] && bin=$e2e/oldest/bin
	dir=$scratch/$name
	rm -rf "$dir" && mkdir -p "$dir"
	printf '{"replies":[{"text":"I will copy the notes.","tool_calls":[%s]},{"text":"The notes are copied."}]}\n' \
		"$(call "$provider" "$command")" >"$dir/script.json"
	"$sandbox" -provider "$provider" -script "$dir/script.json" -dir "$dir/sb" -bin "$bin" -env >"$dir/env" &
	spid=$!
	while ! grep -q '^cd ' "$dir/env" 2>/dev/null; do
		kill -0 "$spid" || { echo "record-second: the sandbox for $name did not start" >&2; return 1; }
		sleep 0.1
	done
	ws=$(sed -n "s/^cd '\(.*\)'$/\1/p" "$dir/env")
	printf 'notes\n' >"$ws/notes.txt" && printf 'plan\n' >"$ws/plan.md"
	envs=$(sed -n "s/^export '\(.*\)'$/\1/p" "$dir/env" | grep -v -e '^TERM=' -e '^NO_COLOR=' -e '^CI=' -e '^COLORTERM=')
	home=$(printf '%s\n' "$envs" | sed -n 's/^HOME=//p')
	old_ifs=$IFS
	IFS='
'
	# shellcheck disable=SC2046 # one --env per line
	python3 "$root/scripts/person/person.py" --tmux --tmux-dir "$scratch/tmux" --yc "$yc" --cast "$out/$name.cast" \
		--cwd "$ws" --home "$home" --env "GIT_CEILING_DIRECTORIES=$scratch" --cols "$cols" --rows 40 --seed "$seed" --timeout 60 --log "$dir/raw.log" \
		$(printf '%s\n' "$envs" | sed 's/^/--env\n/') "$@" || status=$?
	IFS=$old_ifs
	sed -i "s#$root#$stand_in#g; s#$e2e#$(printf '%s' "$e2e" | sed 's#.#p#g; s#^.....#/srv/#')#g" "$out/$name.cast"
	chmod 644 "$out/$name.cast"
	kill "$spid" 2>/dev/null || true
	wait "$spid" 2>/dev/null || true
	return "${status:-0}"
}

prompt='copy the notes'
# The model's command: one line the TUIs wrap at 100 columns, printing
# seven lines (more than their folded views show).
long="printf 'alpha\\nbeta\\ngamma\\ndelta\\nepsilon\\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person"
done_='copied\.'
# The fresh set's command: a heredoc (its rows keep their breaks) with a
# line the TUIs wrap at 100 columns.
multi="cat > notes-copy.txt <<'EOF'
alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega
one
EOF
wc -l notes-copy.txt && cat notes-copy.txt && ls"

# A command in a directory of its own under SCRATCH: fresh DIR.
fresh() { rm -rf "$scratch/$1" && mkdir -p "$scratch/$1" && printf '%s' "$scratch/$1"; }
gitrepo() { # DIR: a repository with one commit of notes.txt
	(cd "$1" && HOME=$scratch/home GIT_CONFIG_NOSYSTEM=1 git init -q && printf 'one\ntwo\n' >notes.txt &&
		HOME=$scratch/home git add notes.txt && HOME=$scratch/home git -c user.name=p -c user.email=p@x commit -qm one)
}
mkdir -p "$scratch/home"
demo_path="PATH=$root/.wt:$PATH"

case $set_ in
dev)
	# Real programs.
	# gh copilot suggest (yume-demo, its stand-in): "Execute command" reached
	# with an arrow past it and back, then Enter at "(Y/n)", its default.
	d=$(fresh gh-suggest)
	wanted gh-suggest-default-enter && person gh-suggest-default-enter 41 80 24 "$d" --env "$demo_path" \
		--step 'Select an option' '<Down><Down><Down><Up><Enter>' \
		--step 'execute the suggested command\? \(Y/n\)' '<Enter>' -- yume-demo suggest -t shell --suggest 'echo suggested-output' 'say something'
	# git clean -i: the menu left with 5 (quit), where the rule denies with Ctrl-C.
	d=$(fresh git-clean-quit) && gitrepo "$d" && printf 'a\n' >"$d/scratch.log"
	wanted git-clean-i-quit && person git-clean-i-quit 42 80 24 "$d" --env GIT_CONFIG_NOSYSTEM=1 \
		--step '^What now> $' '5<Enter>' -- git clean -i
	# git add -p: y typed, taken back with Backspace, then q (quit).
	d=$(fresh git-add-p-fix) && gitrepo "$d" && printf 'one\nthree\n' >"$d/notes.txt"
	wanted git-add-p-fix-quit && person git-add-p-fix-quit 43 80 24 "$d" --env GIT_CONFIG_NOSYSTEM=1 \
		--step 'Stage this hunk \[[^]]*\]\? $' 'y<BS>q<Enter>' -- git add -p
	# gzip: "already exists; do you wish to overwrite (y or n)?" left with Ctrl-C.
	d=$(fresh gzip) && printf 'notes\n' >"$d/notes.txt" && gzip -k "$d/notes.txt"
	wanted gzip-overwrite-ctrl-c && person gzip-overwrite-ctrl-c 44 80 24 "$d" \
		--step 'overwrite \(y or n\)\? $' '<C-c>' -- gzip -k notes.txt
	# pip uninstall in a venv: "Proceed (Y/n)? " taken with Enter.
	d=$(fresh pip) && python3 -m venv "$d/venv" >/dev/null
	wanted pip-uninstall-enter && person pip-uninstall-enter 45 80 24 "$d" --env PIP_DISABLE_PIP_VERSION_CHECK=1 --env PIP_NO_CACHE_DIR=1 \
		--step 'Proceed \(Y/n\)\? $' '<Enter>' -- venv/bin/pip uninstall setuptools
	# unzip over an existing file: "[y]es, [n]o, [A]ll, [N]one, [r]ename: " answered N (none).
	d=$(fresh unzip) && printf 'notes\n' >"$d/notes.txt" && (cd "$d" && zip -q notes.zip notes.txt)
	wanted unzip-none && person unzip-none 46 80 24 "$d" \
		--step '\[r\]ename: $' 'N<Enter>' -- unzip notes.zip

	# The AI TUIs, newest and oldest: the long command wraps at 100 columns.
	for r in new old; do
		mode=manual && [ $r = old ] && mode=default && no=3 || no=4
		# Claude: 1. Yes reached with arrows past it and back; Ctrl-O (its
		# detailed transcript, the output drawn) and back; Ctrl-C twice.
		wanted claude-$r-unfold && tui claude-$r-unfold claude $r 51 100 "$long" --step '\?\s*for\s*shortcuts' "$prompt<Enter>" \
			--step 'proceed\?' '<Down><Down><Up><Up><Enter>' --step "$done_" '<wait=1><C-o>' --step 'epsilon' '<wait=1><C-o>' \
			--step 'for\s*shortcuts' '<wait=0.5><C-c>' --step 'again' '<C-c>' -- claude --permission-mode $mode
		# Claude: No chosen by its number; Ctrl-D twice to leave.
		wanted claude-$r-deny-number && tui claude-$r-deny-number claude $r 52 100 "$long" --step '\?\s*for\s*shortcuts' "$prompt<Enter>" \
			--step 'proceed\?' "$no" --step 'for\s*shortcuts' '<wait=1><C-d>' --step 'again' '<C-d>' -- claude --permission-mode $mode
		# Codex: Enter on the highlighted "1. Yes, proceed (y)"; the output
		# under "└"; Ctrl-C.
		wanted codex-$r-wrap && tui codex-$r-wrap codex $r 53 100 "$long" --step 'Use\s*existing\s*model' '<Down><Enter>' --step 'for\s*shortcuts' "$prompt<Enter>" \
			--step '(?i)would\s*you\s*like\s*to\s*run' '<Enter>' --step "$done_" '<wait=1><C-c>' -- codex --ask-for-approval on-request --sandbox read-only
		# Codex: "3. No…" reached with arrows, one too many and back; /quit.
		wanted codex-$r-deny-walk && tui codex-$r-deny-walk codex $r 54 100 "$long" --step 'Use\s*existing\s*model' '<Down><Enter>' --step 'for\s*shortcuts' "$prompt<Enter>" \
			--step '(?i)would\s*you\s*like\s*to\s*run' '<Down><Down><Up><Down><Enter>' --step '(?i)interrupted|what\s*to\s*do\s*differently' '<wait=1>/quit<Enter>' -- codex --ask-for-approval on-request --sandbox read-only
		# Copilot: 1 pressed; Ctrl-O unfolds the output; Ctrl-C twice.
		wanted copilot-$r-unfold && tui copilot-$r-unfold copilot $r 55 100 "$long" --step 'open\s*sidebar|for\s*shortcuts' "$prompt<Enter>" \
			--step '(?i)run\s*this\s*command\?' '1' --step "$done_" '<wait=1><C-o>' --step 'epsilon' '<wait=1><C-c>' --step 'again' '<C-c>' -- copilot
		# Copilot: a Down, then Esc (cancel); Ctrl-D twice... and /exit.
		wanted copilot-$r-deny-esc && tui copilot-$r-deny-esc copilot $r 56 100 "$long" --step 'open\s*sidebar|for\s*shortcuts' "$prompt<Enter>" \
			--step '(?i)run\s*this\s*command\?' '<Down><wait=0.5><Esc>' --step '(?i)cancel' '<wait=1>/exit<Enter>' -- copilot
		# Gemini: 1 pressed; /quit.
		wanted gemini-$r-wrap && tui gemini-$r-wrap gemini $r 57 100 "$long" --step 'Type\s*your\s*message' "$prompt<Enter>" \
			--step '(?i)allow\s*execution' '1' --step "$done_" '<wait=1>/quit<Enter>' -- gemini
		# Gemini: "3. No, suggest changes" walked to; Ctrl-C twice.
		wanted gemini-$r-deny-walk && tui gemini-$r-deny-walk gemini $r 58 100 "$long" --step 'Type\s*your\s*message' "$prompt<Enter>" \
			--step '(?i)allow\s*execution' '<Down><Down><Down><Up><Enter>' --step '(?i)cancel' '<wait=1><C-c>' --step 'again' '<C-c>' -- gemini
	done
	;;
fresh)
	# Recorded after the rules of the dev set were written, never seen by
	# them: other programs, other keys, a command of several lines.
	# select-editor: its numbered editors and "Choose 1-2 [1]: ", answered 2.
	d=$(fresh select-editor)
	wanted select-editor-two && person select-editor-two 61 80 24 "$d" \
		--step 'Choose 1-\d+ \[1\]: $' '2<Enter>' -- select-editor
	# mv -i: "overwrite 'b'?" answered n, mistyped as np and fixed.
	d=$(fresh mv) && printf 'a\n' >"$d/a.txt" && printf 'b\n' >"$d/b.txt"
	wanted mv-overwrite-fixed-no && person mv-overwrite-fixed-no 62 80 24 "$d" \
		--step "overwrite 'b.txt'\? $" 'np<BS><Enter>' -- mv -i a.txt b.txt
	# ln -i: "replace 'b'?" left with Ctrl-D (end of input at the prompt).
	d=$(fresh ln) && printf 'a\n' >"$d/a.txt" && printf 'b\n' >"$d/b.txt"
	wanted ln-replace-ctrl-d && person ln-replace-ctrl-d 63 80 24 "$d" \
		--step "replace 'b.txt'\? $" '<C-d>' -- ln -i a.txt b.txt
	# git difftool with a tool that prints the new file: "Launch 'show'
	# [Y/n]? " taken with Enter.
	d=$(fresh git-difftool) && gitrepo "$d" && printf 'one\nthree\n' >"$d/notes.txt"
	wanted git-difftool-enter && person git-difftool-enter 64 80 24 "$d" --env GIT_CONFIG_NOSYSTEM=1 \
		--step "Launch 'show' \[Y/n\]\? $" '<Enter>' -- git -c diff.tool=show -c 'difftool.show.cmd=cat "$REMOTE"' difftool
	# gh copilot suggest: "Execute command" found by typing to filter,
	# then "yes" at "(Y/n)".
	d=$(fresh gh-suggest-2)
	wanted gh-suggest-filter-yes && person gh-suggest-filter-yes 65 80 24 "$d" --env "$demo_path" \
		--step 'Select an option' 'exe<Enter>' \
		--step 'execute the suggested command\? \(Y/n\)' 'yes<Enter>' -- yume-demo suggest -t shell --suggest 'echo fresh-output' 'say something'

	# The AI TUIs: a command of several lines, one of them long.
	for r in new old; do
		mode=manual && [ $r = old ] && mode=default && one='1<wait=0.5><Enter>' || one=1
		wanted claude-$r-fresh-approve && tui claude-$r-fresh-approve claude $r 71 100 "$multi" --step '\?\s*for\s*shortcuts' "$prompt<Enter>" \
			--step 'proceed\?' "$one" --step "$done_" '<wait=1><C-o>' --step 'omega' '<wait=1><C-o>' \
			--step 'for\s*shortcuts' '<wait=0.5>/exit<Enter>' -- claude --permission-mode $mode
		wanted claude-$r-fresh-deny && tui claude-$r-fresh-deny claude $r 72 100 "$multi" --step '\?\s*for\s*shortcuts' "$prompt<Enter>" \
			--step 'proceed\?' '<Down><Down><wait=0.4><Esc>' --step 'for\s*shortcuts' '<wait=1><C-c>' --step 'again' '<C-c>' -- claude --permission-mode $mode
		wanted codex-$r-fresh-approve && tui codex-$r-fresh-approve codex $r 73 100 "$multi" --step 'Use\s*existing\s*model' '<Down><Enter>' --step 'for\s*shortcuts' "$prompt<Enter>" \
			--step '(?i)would\s*you\s*like\s*to\s*run' '<Down><Up><Enter>' --step "$done_" '<wait=1><C-d>' -- codex --ask-for-approval on-request --sandbox read-only
		wanted codex-$r-fresh-deny && tui codex-$r-fresh-deny codex $r 74 100 "$multi" --step 'Use\s*existing\s*model' '<Down><Enter>' --step 'for\s*shortcuts' "$prompt<Enter>" \
			--step '(?i)would\s*you\s*like\s*to\s*run' '3' --step '(?i)interrupted|what\s*to\s*do\s*differently' '<wait=1><C-c>' -- codex --ask-for-approval on-request --sandbox read-only
		wanted copilot-$r-fresh-approve && tui copilot-$r-fresh-approve copilot $r 75 100 "$multi" --step 'open\s*sidebar|for\s*shortcuts' "$prompt<Enter>" \
			--step '(?i)run\s*this\s*command\?' '<Down><Up><Enter>' --step "$done_" '<wait=1><C-o>' --step 'omega' '<wait=1>/quit<Enter>' -- copilot
		wanted copilot-$r-fresh-deny && tui copilot-$r-fresh-deny copilot $r 76 100 "$multi" --step 'open\s*sidebar|for\s*shortcuts' "$prompt<Enter>" \
			--step '(?i)run\s*this\s*command\?' '3' --step '(?i)cancel|differently' '<wait=1><Esc><wait=1><C-c>' --step 'again' '<C-c>' -- copilot
		wanted gemini-$r-fresh-approve && tui gemini-$r-fresh-approve gemini $r 77 100 "$multi" --step 'Type\s*your\s*message' "$prompt<Enter>" \
			--step '(?i)allow\s*execution' '<Down><Up><Enter>' --step "$done_" '<wait=1><C-d>' --step 'again' '<C-d>' -- gemini
		wanted gemini-$r-fresh-deny && tui gemini-$r-fresh-deny gemini $r 78 100 "$multi" --step 'Type\s*your\s*message' "$prompt<Enter>" \
			--step '(?i)allow\s*execution' '3' --step '(?i)cancel' '<wait=1>/quit<Enter>' -- gemini
	done
	;;
esac
