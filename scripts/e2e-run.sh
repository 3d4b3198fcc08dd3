#!/usr/bin/env bash
# e2e-run.sh: the live tests (make e2e), then once more each subtest that
# failed, alone: on a busy machine a live CLI misses a deadline now and
# then, and rerunning a whole test (TestLiveModelErrors is 60 runs of up to
# a minute each) would double CI's longest step. More than a few failures
# are no flake: they are not retried.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
maxRetries=${E2E_MAX_RETRIES:-8}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
run() {
  PATH="$PWD/.e2e/bin:$PATH" YUME_E2E=1 "$GO" test -count=1 -timeout 60m "$@" ./... 2>&1 | tee "$log"
  return "${PIPESTATUS[0]}"
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
