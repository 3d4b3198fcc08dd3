#!/usr/bin/env bash
# e2e-deps.sh: install the provider CLIs and ACP adapters the live tests
# run and link them into .e2e/bin. By default the newest release of each, resolved now;
# E2E_PINNED=1 takes the known-good set below; E2E_VERSIONS="claude@X
# codex@Y" picks any releases. The agents yume-cli has no profile for
# (cline, cn, grok, nanocoder) are pinned: E2E_UNNAMED below.
set -euo pipefail
cd "$(dirname "$0")/.."
pinned="claude@2.1.197 codex@0.169.0 copilot@1.0.102 gemini@0.61.0 opencode@1.18.34 kilo@7.7.9 qwen@0.24.4"
# The package whose newest release is taken: opencode and Kilo run from
# their native platform package (see e2e-install.sh), so its version counts.
plat=$(node -p '(process.platform === "win32" ? "windows" : process.platform) + "-" + process.arch')
declare -A pkg=([claude]=@anthropic-ai/claude-code [codex]=@openai/codex [copilot]=@github/copilot [gemini]=@google/gemini-cli
  [opencode]=opencode-$plat [kilo]=@kilocode/cli-$plat [qwen]=@qwen-code/qwen-code)
wanted=${E2E_VERSIONS:-}
if [ -z "$wanted" ] && [ "${E2E_PINNED:-}" = 1 ]; then wanted=$pinned; fi
if [ -z "$wanted" ]; then
  for cli in claude codex copilot gemini opencode kilo qwen; do
    v=$(npm view "${pkg[$cli]}" version 2>/dev/null | tail -1)
    [ -n "$v" ] || { echo "e2e-deps: cannot resolve the newest ${pkg[$cli]} from npm" >&2; exit 1; }
    wanted="$wanted $cli@$v"
  done
fi
mkdir -p .e2e/bin
for cv in $wanted; do
  cli=${cv%@*} v=${cv#*@}
  path=$(scripts/e2e-install.sh "$cli" "$v")
  ln -sfn "$path" ".e2e/bin/$cli"
  echo "e2e: $cli $v -> ${path#$PWD/}"
done

# ACP adapters from npm that --provider acp drives as any ACP agent
# (e2e/adapters_test.go), at versions known to run offline against the
# fake model; E2E_ADAPTERS="codex-acp@X …" picks others.
for cv in ${E2E_ADAPTERS:-claude-code-acp@0.16.2 codex-acp@0.16.0 claude-agent-acp@0.101.0 zed-claude-agent-acp@0.23.1}; do
  cli=${cv%@*} v=${cv#*@}
  path=$(scripts/e2e-install.sh "$cli" "$v")
  ln -sfn "$path" ".e2e/bin/$cli"
  echo "e2e: $cli $v -> ${path#$PWD/}"
done

# The agents no test taught yume-cli (e2e/unnamed_test.go runs each as any
# program, --provider generic, and cline also as any ACP agent), at the
# releases scouted; E2E_UNNAMED="cline@X cn@Y grok@Z nanocoder@W" picks
# others, E2E_UNNAMED=none none. Each is installed once a clone (skipped
# when its program is there; e2e-install.sh prints the size and time of an
# install).
for cv in ${E2E_UNNAMED:-cline@3.0.65 cn@1.5.47 grok@0.0.34 nanocoder@1.25.2}; do
  [ "$cv" = none ] && continue
  cli=${cv%@*} v=${cv#*@}
  path=$(scripts/e2e-install.sh "$cli" "$v")
  ln -sfn "$path" ".e2e/bin/$cli"
  echo "e2e: $cli $v -> ${path#$PWD/}"
done

# The oldest release of each of the four TUIs in the drift matrix (see
# drift.sh: Claude Code's last known-good pin, the fifth newest of the
# others), linked into .e2e/oldest/bin: file dialogs are tried on both ends.
[ "${E2E_OLDEST:-1}" = 0 ] && exit 0
mkdir -p .e2e/oldest/bin
for cli in claude codex copilot gemini; do
  if [ "$cli" = claude ]; then
    v=2.1.197
  else
    v=$(npm view "${pkg[$cli]}" versions --json 2>/dev/null | tr -d '[]" ' | tr ',' '\n' | grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' | tail -n 5 | head -1)
  fi
  [ -n "$v" ] || { echo "e2e-deps: cannot resolve the oldest $cli of the drift matrix" >&2; exit 1; }
  path=$(scripts/e2e-install.sh "$cli" "$v")
  ln -sfn "$path" ".e2e/oldest/bin/$cli"
  echo "e2e: oldest $cli $v -> ${path#$PWD/}"
done
