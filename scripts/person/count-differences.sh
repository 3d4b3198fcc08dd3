#!/bin/sh
# Counts the differences `yume-cli replay` reports over the recordings of
# people (recordings/testdata/people/*.cast), each answered as recorded
# with the profile its recorded command names: one per "keys differ" and
# one per "after the last output the recording typed". Prints each cast's
# count, then the total. Run from the repository root:
#
#   scripts/person/count-differences.sh [YUME_CLI]
#
# YUME_CLI defaults to a fresh build in .wt/yc.
set -eu
yc=${1:-}
if [ -z "$yc" ]; then
	yc=.wt/yc
	go build -o "$yc" ./cmd/yume-cli
fi
total=0
for cast in recordings/testdata/people/*.cast; do
	n=$("$yc" replay "$cast" 2>&1 >/dev/null | grep -c -e '^yume-cli replay: keys differ' -e '^yume-cli replay: after the last output' || true)
	printf '%4d  %s\n' "$n" "$(basename "$cast" .cast)"
	total=$((total + n))
done
printf '%4d  total\n' "$total"
