#!/bin/sh
# Counts the differences `yume-cli replay` reports over the recordings of
# people (recordings/testdata/people/*.cast, or the casts named), each
# answered as recorded with the profile its recorded command names: one
# per "keys differ" and one per "after the last output the recording
# typed". Prints each cast's count, then the total. Run from the
# repository root:
#
#   scripts/person/count-differences.sh [YUME_CLI [CAST|NAME…]]
#
# YUME_CLI defaults to a fresh build in .wt/yc ("" builds it too); a NAME
# is a cast's name in recordings/testdata/people.
set -eu
yc=${1:-}
[ $# -gt 0 ] && shift
if [ -z "$yc" ]; then
	yc=.wt/yc
	go build -o "$yc" ./cmd/yume-cli
fi
[ $# -eq 0 ] && set -- recordings/testdata/people/*.cast
total=0
for cast in "$@"; do
	case $cast in *.cast) ;; *) cast=recordings/testdata/people/$cast.cast ;; esac
	n=$("$yc" replay "$cast" 2>&1 >/dev/null | grep -c -e '^yume-cli replay: keys differ' -e '^yume-cli replay: after the last output' || true)
	printf '%4d  %s\n' "$n" "$(basename "$cast" .cast)"
	total=$((total + n))
done
printf '%4d  total\n' "$total"
