#!/usr/bin/env bash
# drift.sh: run the live drift cases (e2e TestDrift) over the newest and
# earlier releases of each provider CLI and print a matrix of CLI x
# version x case. DRIFT_N releases per CLI (default 5): the newest ones,
# except Claude Code, whose many patch releases are sampled back to the
# oldest tested one. DRIFT_CLIS picks CLIs. Needs node/npm; offline
# otherwise (a fake model server on 127.0.0.1).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${DRIFT_N:-5}
clis=${DRIFT_CLIS:-"claude codex copilot gemini opencode kilo qwen"}
# opencode's and Kilo's releases are listed from their native package,
# which e2e-install.sh installs (their wrappers lag or fail to install).
plat=$(node -p '(process.platform === "win32" ? "windows" : process.platform) + "-" + process.arch')
declare -A pkg=([claude]=@anthropic-ai/claude-code [codex]=@openai/codex [copilot]=@github/copilot [gemini]=@google/gemini-cli
  [opencode]=opencode-$plat [kilo]=@kilocode/cli-$plat [qwen]=@qwen-code/qwen-code)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
results=$out/results.jsonl
for cli in $clis; do
  # Releases only (no -alpha, -beta, -preview), oldest first.
  all=$(npm view "${pkg[$cli]}" versions --json 2>/dev/null | tr -d '[]" ' | tr ',' '\n' | grep -E '^[0-9]+\.[0-9]+\.[0-9]+$')
  if [ "$cli" = claude ]; then
    # The newest, then back by 1, 10, 40 and to 2.1.197 (the last known-good pin).
    count=$(echo "$all" | wc -l)
    picks=""
    for back in 0 1 10 40; do picks="$picks $(echo "$all" | sed -n "$((count - back))p")"; done
    picks="$picks 2.1.197"
    versions=$(echo $picks | tr ' ' '\n' | awk '!seen[$0]++' | head -n "$n")
  else
    versions=$(echo "$all" | tail -n "$n" | tac)
  fi
  for v in $versions; do
    bin=$out/bin-$cli-$v
    mkdir -p "$bin"
    if ! path=$(scripts/e2e-install.sh "$cli" "$v"); then
      echo "{\"cli\":\"$cli\",\"version\":\"$v\",\"case\":\"install\",\"pass\":false}" >> "$results"
      continue
    fi
    ln -sfn "$path" "$bin/$cli"
    echo "drift: $cli $v" >&2
    E2E_BIN=$bin E2E_DRIFT_OUT=$results E2E_DRIFT_VERSION=$v YUME_E2E=1 go test -count=1 -timeout 30m -run "TestDrift/$cli/" ./e2e >/dev/null 2>&1 || true
  done
done
python3 - "$results" <<'PY'
import json, sys, collections, datetime
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
cases = ["approve", "deny", "long command", "file edit", "turn end"]
by = collections.OrderedDict()
for r in rows:
    v = r["version"].split()[0] if r["version"] else "?"
    for tok in r["version"].split():
        if tok[:1].isdigit(): v = tok.strip("(),"); break
    by.setdefault((r["cli"], v), {})[r["case"]] = "pass" if r["pass"] else "FAIL"
print(f"drift matrix, {datetime.date.today()} (make drift)\n")
print("| CLI | version | " + " | ".join(cases) + " |")
print("|---|---|" + "---|" * len(cases))
for (cli, v), res in by.items():
    print(f"| {cli} | {v} | " + " | ".join(res.get(c, "–") for c in cases) + " |")
PY
