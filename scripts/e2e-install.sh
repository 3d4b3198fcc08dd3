#!/usr/bin/env bash
# e2e-install.sh CLI VERSION: install one release of a provider CLI from npm
# into .e2e/pkgs/CLI-VERSION (once) and print the path of its program.
# Claude Code's npm wrapper needs a newer Node than some machines have; its
# native platform package is the same program, so that one is used then.
# opencode and Kilo always come from their native platform package (the
# wrappers lag behind it, or fail in postinstall when it is not published).
# The agents no test taught yume-cli (e2e/unnamed_test.go): cline is its
# native platform package @cline/cli-<os>-<arch> (the Bun-built program the
# npm package cline's bin link points to, 150 MB instead of the 430 MB
# wrapper and its SDK); cn is @continuedev/cli, grok @vibe-kit/grok-cli;
# nanocoder needs Node >= 22.19 (its undici), so node-<os>-<arch>@22 is
# installed beside it and the program is a wrapper that runs dist/cli.js
# with that node.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=$1 version=$2
declare -A pkg=([claude]=@anthropic-ai/claude-code [codex]=@openai/codex [copilot]=@github/copilot [gemini]=@google/gemini-cli
  [opencode]=opencode-ai [kilo]=@kilocode/cli [qwen]=@qwen-code/qwen-code
  [claude-code-acp]=@zed-industries/claude-code-acp [codex-acp]=@zed-industries/codex-acp
  [claude-agent-acp]=@agentclientprotocol/claude-agent-acp [zed-claude-agent-acp]=@zed-industries/claude-agent-acp
  [cline]=cline [cn]=@continuedev/cli [grok]=@vibe-kit/grok-cli [nanocoder]=@nanocollective/nanocoder)
# The ACP adapters' programs, where the name differs from the CLI's.
declare -A prog=([zed-claude-agent-acp]=claude-agent-acp)
[ -n "${pkg[$cli]:-}" ] || { echo "e2e-install: unknown CLI $cli (${!pkg[*]})" >&2; exit 2; }
dir=.e2e/pkgs/$cli-$version
name=${pkg[$cli]}
plat=$(node -p '(process.platform === "win32" ? "windows" : process.platform) + "-" + process.arch')
if [ "$cli" = claude ]; then
  need=$(npm view "$name@$version" engines.node 2>/dev/null | grep -o '[0-9]\+' | head -1 || true)
  have=$(node -p 'process.versions.node.split(".")[0]')
  if [ -n "$need" ] && [ "$have" -lt "$need" ]; then
    name=@anthropic-ai/claude-code-$plat
  fi
fi
case $cli in
  opencode) name=opencode-$plat ;;
  kilo) name=@kilocode/cli-$plat ;;
  cline) name=@cline/cli-$plat ;;
esac
# Installed beside the CLI: nanocoder's Node (E2E_NODE22 picks the release).
extra=()
[ "$cli" = nanocoder ] && extra=("node-$plat@${E2E_NODE22:-22}")
bin=$dir/node_modules/.bin/${prog[$cli]:-$cli}
case $name in
  @anthropic-ai/claude-code-*) bin=$dir/node_modules/$name/claude ;;
  opencode-*|@kilocode/cli-*|@cline/cli-*) bin=$dir/node_modules/$name/bin/$cli ;;
  @nanocollective/nanocoder) bin=$dir/nanocoder ;;
esac
if [ ! -x "$bin" ]; then
  start=$SECONDS
  rm -rf "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "$name@$version" ${extra[@]+"${extra[@]}"} >&2
  if [ "$cli" = nanocoder ]; then
    # PATH too: what nanocoder starts with `node` gets the same Node.
    node22=$PWD/$dir/node_modules/node-$plat/bin
    printf '#!/bin/sh\n# nanocoder %s needs Node >= 22.19: run it with the Node installed beside it.\nPATH=%s:$PATH exec %s %s "$@"\n' \
      "$version" "'$node22'" "'$node22/node'" "'$PWD/$dir/node_modules/@nanocollective/nanocoder/dist/cli.js'" >"$bin"
    chmod +x "$bin"
  fi
  # Qwen Code's package ships its ripgrep without the execute bit.
  if [ "$cli" = qwen ]; then
    find "$dir/node_modules/@qwen-code/qwen-code" -path '*ripgrep*' -type f -name rg -exec chmod +x {} + 2>/dev/null || true
  fi
  [ -x "$bin" ] && echo "e2e-install: $name@$version${extra[*]+ ${extra[*]}}: $(du -sm "$dir" | cut -f1) MB in $((SECONDS - start)) s" >&2
fi
[ -x "$bin" ] || { echo "e2e-install: $name@$version installed no $cli program at $bin" >&2; exit 1; }
echo "$PWD/$bin"
