#!/usr/bin/env bash
# e2e-run.sh: the live tests (make e2e), once. Nothing is retried: a live
# failure is a finding (a twin's session taken, a dialog drawn twice, an
# Enter dropped under a spinner: what a person meets on a busy laptop), and
# a retry that passes would hide the next one. scripts/testreport prints
# each failed test whole, the packages' summary lines, and the 20 slowest
# tests at the end, where the suite's time goes.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
mkdir -p .scratch && "$GO" build -o .scratch/testreport ./scripts/testreport || exit 2
PATH="$PWD/.e2e/bin:$PATH" YUME_E2E=1 "$GO" test -json -count=1 -timeout 60m -run 'E2E|Live' "$@" ./... 2>&1 |
  .scratch/testreport -slowest "${E2E_SLOWEST:-20}"
status=("${PIPESTATUS[@]}")
# go test's status first: a run that stopped short (a panic, its timeout)
# fails even where the report saw no failed test.
[ "${status[0]}" = 0 ] || exit "${status[0]}"
exit "${status[1]}"
