#!/usr/bin/env bash
# The bundled demo: yume-cli runs bin/yume-demo (an offline stand-in for the
# legacy `gh copilot suggest`) in a pseudo-terminal. This script plays the GUI:
# it prints each event yume-cli emits and approves the tool_use it asks about.
set -euo pipefail
cd "$(dirname "$0")/.."
# The demo's session is stored under bin/, not in your ~/.yume.
export YUME_HOME="${YUME_HOME:-$PWD/bin/demo-home}"

coproc YUME {
  exec ./bin/yume-cli --provider gh-copilot --output-format stream-json \
    --trace-file bin/demo-trace.jsonl \
    -- ./bin/yume-demo suggest -t shell --suggest 'echo "Hello from a command Yume approved"; ls -1 | head -3' \
      'say hello and list a few files'
}
yume_pid=$YUME_PID
exec {to_yume}>&"${YUME[1]}"
while IFS= read -r line <&"${YUME[0]}"; do
  printf '%s\n' "$line"
  case $line in
  *'"subtype":"can_use_tool"'*)
    id=$(printf '%s' "$line" | sed -n 's/.*"tool_use_id":"\([^"]*\)".*/\1/p')
    printf '\n>>> GUI approves %s\n\n' "$id" >&2
    printf '{"type":"tool_approval","id":"%s","approved":true}\n' "$id" >&"$to_yume"
    ;;
  esac
done
exec {to_yume}>&-
wait "$yume_pid" 2>/dev/null || true
echo >&2
echo ">>> The keys yume-cli typed and why are in bin/demo-trace.jsonl (--trace-file)." >&2
