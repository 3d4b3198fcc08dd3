#!/usr/bin/env bash
# e2e-run.sh: the live tests (make e2e), then once more only the tests
# that failed: on a busy machine a live CLI misses a deadline now and then,
# and rerunning the whole suite would double CI's longest step.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
run() {
  PATH="$PWD/.e2e/bin:$PATH" YUME_E2E=1 "$GO" test -count=1 -timeout 60m "$@" ./... 2>&1 | tee "$log"
  return "${PIPESTATUS[0]}"
}
run -run 'E2E|Live' && exit 0
failed=$(grep -oE '^--- FAIL: [A-Za-z0-9_]+' "$log" | awk '{print $3}' | sort -u | paste -sd'|' -)
if [ -z "$failed" ]; then
  echo "e2e: the live run failed outside any test (see above)" >&2
  exit 1
fi
echo "e2e: live run failed in $failed; retrying those once" >&2
run -run "^($failed)\$"
