#!/usr/bin/env bash
# e2e-run.sh: the live tests (make e2e), through scripts/testreport (each
# failed test whole, the packages' summary lines, and the 20 slowest tests
# at the end, where the suite's time goes). A failure fails: nothing is
# retried (E2E_MAX_RETRIES=N, for a person chasing a flake, runs each
# subtest that failed once more, alone, when no more than N failed; a
# retry that passes is still a failure to find).
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
maxRetries=${E2E_MAX_RETRIES:-0}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
mkdir -p .scratch && "$GO" build -o .scratch/testreport ./scripts/testreport || exit 2
# The short suite unless E2E_FULL=1 (make e2e-full): each case of a
# table of CLIs x cases on one CLI, the CLIs in turn (e2e/short_test.go).
short=-short
[ "${E2E_FULL:-}" = 1 ] && short=
# The packages with live tests (those that read YUME_E2E), not ./...:
# building every package's tests again without -race (make test built
# them with it) took CI a minute of CPU beside the live runs, and their
# other tests had run already.
mapfile -t pkgs < <(grep -rl --include='*_test.go' --exclude-dir=.e2e --exclude-dir=.scratch \
  --exclude-dir=node_modules --exclude-dir=testdata 'YUME_E2E' . | xargs -n1 dirname | sort -u)
[ ${#pkgs[@]} -gt 0 ] || { echo "e2e: no package's tests read YUME_E2E" >&2; exit 2; }
run() {
  PATH="$PWD/.e2e/bin:$PATH" YUME_E2E=1 "$GO" test -json -count=1 $short -timeout 60m "$@" "${pkgs[@]}" 2>&1 |
    .scratch/testreport -slowest "${E2E_SLOWEST:-20}" | tee "$log"
  local st=("${PIPESTATUS[@]}")
  [ "${st[0]}" = 0 ] || return "${st[0]}"
  return "${st[1]}"
}
run -run 'E2E|Live' && exit 0

# A run that stopped short (a panic, its timeout) left tests unrun: a
# retry of the leaves that failed before it would pass without them.
if grep -qE '^panic: |^SIGQUIT: quit' "$log"; then
  echo "e2e: the live run stopped short (a panic or its timeout; see above): not retried" >&2
  exit 1
fi

# The failed tests' leaves: a failed name that no other failed name extends.
mapfile -t failed < <(grep -oE -- '--- FAIL: [^ ]+' "$log" | awk '{print $3}' | sort -u)
leaves=()
for name in "${failed[@]}"; do
  leaf=1
  for other in "${failed[@]}"; do
    [[ $other == "$name"/* ]] && { leaf=0; break; }
  done
  [ $leaf = 1 ] && leaves+=("$name")
done
if [ ${#leaves[@]} -eq 0 ]; then
  echo "e2e: the live run failed outside any test (see above)" >&2
  exit 1
fi
if [ "$maxRetries" = 0 ]; then
  seed=$(grep -oE 'E2E_SEED=[0-9]+' "$log" | head -1)
  echo "e2e: ${#leaves[@]} live subtest(s) failed${seed:+ ($seed reproduces the generated ones)}:" >&2
  printf '  %s\n' "${leaves[@]}" >&2
  exit 1
fi
if [ ${#leaves[@]} -gt "$maxRetries" ]; then
  echo "e2e: ${#leaves[@]} live subtests failed (more than $maxRetries): not a flake, not retried" >&2
  printf '  %s\n' "${leaves[@]}" >&2
  exit 1
fi
# Generated tests draw a fresh seed each run: the retry runs the same
# scenarios, with the seed the failed run logged.
if [ -z "${E2E_SEED:-}" ]; then
  seed=$(grep -oE 'E2E_SEED=[0-9]+' "$log" | head -1 | cut -d= -f2)
  [ -n "$seed" ] && export E2E_SEED=$seed
fi
echo "e2e: ${#leaves[@]} live subtest(s) failed; retrying each once, alone (E2E_SEED=${E2E_SEED:-none}):" >&2
printf '  %s\n' "${leaves[@]}" >&2
status=0
for leaf in "${leaves[@]}"; do
  # -run takes one anchored, escaped pattern a level: TestX/a.b -> ^TestX$/^a\.b$
  pattern=$(printf '%s' "$leaf" | awk -F/ '{
    out = ""
    for (i = 1; i <= NF; i++) {
      p = $i
      gsub(/[][\\.^$*+?(){}|]/, "\\\\&", p)
      out = out (i > 1 ? "/" : "") "^" p "$"
    }
    print out
  }')
  echo "e2e: retrying $leaf (-run '$pattern')" >&2
  run -run "$pattern" || status=1
done
exit $status
