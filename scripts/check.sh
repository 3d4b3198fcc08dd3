#!/usr/bin/env bash
# check.sh (make check): the edit-test loop. go vet over everything (fast,
# cached), then the tests of the packages touched since CHECK_BASE (HEAD by
# default: what is not committed yet) and of the packages that import them
# directly, -short and without the race detector. make test is the gate;
# this is what to run after each edit.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
base=${CHECK_BASE:-HEAD}
mod=$("$GO" list -m)
mapfile -t files < <({ git diff --name-only "$base" -- '*.go' 'go.mod' '*.yaml' '*.txtar' '*.cast' '*.jsonl'; git ls-files --others --exclude-standard -- '*.go'; } | sort -u)
declare -A touched=()
for f in "${files[@]}"; do
  [ -e "$f" ] || continue
  dir=$(dirname "$f")
  # The nearest folder up that is a package (testdata belongs to its parent).
  while [ "$dir" != . ] && ! ls "$dir"/*.go >/dev/null 2>&1; do dir=$(dirname "$dir"); done
  [ "$dir" = . ] || touched["$mod/$dir"]=1
done
"$GO" vet ./...
if [ ${#touched[@]} -eq 0 ]; then
  echo "check: nothing touched since $base; vet passed"
  exit 0
fi
# Their direct importers too: a changed signature breaks them first.
pkgs=$("$GO" list -f '{{.ImportPath}} {{join .Imports " "}} {{join .TestImports " "}}' ./... |
  awk -v want="$(printf '%s\n' "${!touched[@]}")" 'BEGIN { n = split(want, w, "\n"); for (i = 1; i <= n; i++) t[w[i]] = 1 }
    { for (i = 1; i <= NF; i++) if ($i in t) { print $1; next } }' | sort -u)
echo "check: testing" $(printf '%s\n' $pkgs | sed "s|^$mod/||")
# shellcheck disable=SC2086
"$GO" test -short -count=1 $pkgs
