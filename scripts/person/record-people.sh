#!/bin/sh
# Re-records recordings/testdata/people: real programs answered by
# scripts/person/person.py, a "person" typing into `yume-cli record`'s own
# terminal with human pauses. Run from the repository root:
#
#   scripts/person/record-people.sh [SCRATCH]
#
# Every program runs in SCRATCH (default .wt/people, gitignored) with HOME
# pointing there; nothing else is touched. Needs ssh-keygen, gdb, npm, node,
# git, and testdata/inquirer/node_modules (npm ci --prefix testdata/inquirer).
# The recordings differ from run to run (times, a process id, a key's
# fingerprint): see recordings/testdata/people/README.md.
set -eu

root=$(pwd)
scratch=${1:-.wt/people}
out=$root/recordings/testdata/people
yc=$root/.wt/yc
go build -o "$yc" ./cmd/yume-cli

rm -rf "$scratch"
mkdir -p "$scratch/home"
scratch=$(cd "$scratch" && pwd)
person() {
	python3 "$root/scripts/person/person.py" --yc "$yc" --home "$scratch/home" "$@"
}

# 1. ssh-keygen asks before it replaces a key: "demo_key already exists." on
# one row, "Overwrite (y/n)? " on the next.
mkdir -p "$scratch/ssh"
(cd "$scratch/ssh" && HOME=$scratch/home ssh-keygen -q -f demo_key -N '' -C demo)
person --cast "$out/ssh-keygen-overwrite-yes.cast" --cwd "$scratch/ssh" --seed 1 \
	--step 'Overwrite \(y/n\)\? ?$' 'y<Enter>' -- ssh-keygen -f demo_key -N ''
person --cast "$out/ssh-keygen-overwrite-no.cast" --cwd "$scratch/ssh" --seed 2 \
	--step 'Overwrite \(y/n\)\? ?$' 'n<Enter>' -- ssh-keygen -f demo_key -N ''

# 2. gdb stopped at the first instruction of /bin/true (no debug symbols
# needed); the person types quit, and gdb asks "Quit anyway? (y or n) ".
mkdir -p "$scratch/gdb"
person --cast "$out/gdb-quit-yes.cast" --cwd "$scratch/gdb" --seed 3 \
	--step '^\(gdb\) $' 'quit<Enter>' \
	--step 'Quit anyway\? \(y or n\) ?$' 'y<Enter>' -- gdb -q -nx -ex starti /bin/true

# 3. npm init in an empty directory: Enter at every field, then Enter (the
# default, yes) or "no" at "Is this OK? (yes) ". npm init makes no network
# calls; its cache and config stay in the scratch HOME.
npm_init() { # CAST SEED ANSWER
	rm -rf "$scratch/npm-$2" && mkdir -p "$scratch/npm-$2/demo"
	person --cast "$out/$1" --cwd "$scratch/npm-$2/demo" --seed "$2" \
		--env "npm_config_cache=$scratch/npmcache" --env npm_config_update_notifier=false --env npm_config_fund=false \
		--step 'package name: \(demo\) $' '<Enter>' --step '^version: \(1\.0\.0\) $' '<Enter>' \
		--step '^description: $' '<Enter>' --step '^entry point: \(index\.js\) $' '<Enter>' \
		--step '^test command: $' '<Enter>' --step '^git repository: $' '<Enter>' \
		--step '^keywords: $' '<Enter>' --step '^author: $' '<Enter>' \
		--step '^license: \(ISC\) $' '<Enter>' --step '^type: \(commonjs\) $' '<Enter>' \
		--step '^Is this OK\? \(yes\) $' "$3" -- npm init
}
npm_init npm-init-ok-enter.cast 4 '<Enter>'
npm_init npm-init-ok-no.cast 5 'no<Enter>'

# 4. git clean -i with two untracked files: the numbered "What now> " menu,
# answered 1 (clean) or c (its first letter).
for v in one:1 c:c; do
	name=${v%%:*} key=${v##*:}
	repo=$scratch/git-$name/repo
	mkdir -p "$repo"
	(cd "$repo" && HOME=$scratch/home GIT_CONFIG_NOSYSTEM=1 git init -q && echo a >notes.txt && echo b >scratch.log)
	person --cast "$out/git-clean-i-$name.cast" --cwd "$repo" --seed 6 --env GIT_CONFIG_NOSYSTEM=1 \
		--step '^What now> $' "$key<Enter>" -- git clean -i
done

# 5. @inquirer/prompts: "Run this command?" (default yes) answered with
# Enter or y, then a select filtered by typing the start of an option.
person --cast "$out/inquirer-run-enter.cast" --cwd "$root/testdata/inquirer" --seed 7 \
	--step 'Run this command\? \(Y/n\) ?$' '<Enter>' --step 'How should it run\?' 'dr<Enter>' -- node run-command.mjs
person --cast "$out/inquirer-run-y.cast" --cwd "$root/testdata/inquirer" --seed 8 \
	--step 'Run this command\? \(Y/n\) ?$' 'y<Enter>' --step 'How should it run\?' 'in the b<Enter>' -- node run-command.mjs

# 5b. The select walked one arrow key at a time ("In the background"), then Enter.
person --cast "$out/inquirer-run-arrows.cast" --cwd "$root/testdata/inquirer" --seed 12 \
	--step 'Run this command\? \(Y/n\) ?$' 'y<Enter>' --step 'How should it run\?' '<Down><Enter>' -- node run-command.mjs

# 5c. git add -p on a changed file, left with q (quit) where a rule denies with n.
repo=$scratch/git-add-p/repo
mkdir -p "$repo"
(cd "$repo" && HOME=$scratch/home GIT_CONFIG_NOSYSTEM=1 git init -q && printf 'one\ntwo\n' >notes.txt &&
	HOME=$scratch/home git add notes.txt && HOME=$scratch/home git -c user.name=p -c user.email=p@x commit -qm one && printf 'one\nthree\n' >notes.txt)
person --cast "$out/git-add-p-quit.cast" --cwd "$repo" --seed 13 --env GIT_CONFIG_NOSYSTEM=1 \
	--step 'Stage this hunk \[[^]]*\]\? $' 'q<Enter>' -- git add -p

# 5d. git add -p with three hunks, answered y, n, y: three questions in a
# row, each a new one although the rule and the row are the same.
repo=$scratch/git-add-p-three/repo
mkdir -p "$repo"
(cd "$repo" && HOME=$scratch/home GIT_CONFIG_NOSYSTEM=1 git init -q && seq 1 30 >numbers.txt &&
	HOME=$scratch/home git add numbers.txt && HOME=$scratch/home git -c user.name=p -c user.email=p@x commit -qm one &&
	seq 1 30 | sed -e 's/^2$/two/' -e 's/^15$/fifteen/' -e 's/^28$/twenty-eight/' >numbers.txt)
person --cast "$out/git-add-p-three.cast" --cwd "$repo" --seed 14 --env GIT_CONFIG_NOSYSTEM=1 \
	--step '\(1/3\) Stage this hunk \[[^]]*\]\? $' 'y<Enter>' \
	--step '\(2/3\) Stage this hunk \[[^]]*\]\? $' 'n<Enter>' \
	--step '\(3/3\) Stage this hunk \[[^]]*\]\? $' 'y<Enter>' -- git add -p

# 6. Shell scripts: apt's "Do you want to continue? [Y/n] " (Enter, or n)
# and "Press Enter to continue...".
person --cast "$out/apt-continue-enter.cast" --cwd "$out" --seed 9 \
	--step 'Do you want to continue\? \[Y/n\] $' '<Enter>' -- sh scripts/apt-install.sh
person --cast "$out/apt-continue-no.cast" --cwd "$out" --seed 10 \
	--step 'Do you want to continue\? \[Y/n\] $' 'n<Enter>' -- sh scripts/apt-install.sh
person --cast "$out/press-enter.cast" --cwd "$out" --seed 11 \
	--step 'Press Enter to continue\.\.\.$' '<Enter>' -- sh scripts/press-enter.sh

chmod 644 "$out"/*.cast
