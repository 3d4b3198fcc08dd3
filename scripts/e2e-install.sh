#!/usr/bin/env bash
# e2e-install.sh CLI VERSION: install one release of a provider CLI from npm
# into .e2e/pkgs/CLI-VERSION (once) and print the path of its program.
# Claude Code's npm wrapper needs a newer Node than some machines have; its
# native platform package is the same program, so that one is used then.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=$1 version=$2
declare -A pkg=([claude]=@anthropic-ai/claude-code [codex]=@openai/codex [copilot]=@github/copilot [gemini]=@google/gemini-cli)
[ -n "${pkg[$cli]:-}" ] || { echo "e2e-install: unknown CLI $cli (claude, codex, copilot, gemini)" >&2; exit 2; }
dir=.e2e/pkgs/$cli-$version
name=${pkg[$cli]}
if [ "$cli" = claude ]; then
  need=$(npm view "$name@$version" engines.node 2>/dev/null | grep -o '[0-9]\+' | head -1 || true)
  have=$(node -p 'process.versions.node.split(".")[0]')
  if [ -n "$need" ] && [ "$have" -lt "$need" ]; then
    plat=$(node -p 'process.platform + "-" + process.arch')
    name=@anthropic-ai/claude-code-$plat
  fi
fi
bin=$dir/node_modules/.bin/$cli
[[ $name == *-linux-* || $name == *-darwin-* ]] && bin=$dir/node_modules/$name/claude
if [ ! -x "$bin" ]; then
  rm -rf "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "$name@$version" >&2
fi
[ -x "$bin" ] || { echo "e2e-install: $name@$version installed no $cli program at $bin" >&2; exit 1; }
echo "$PWD/$bin"
