#!/usr/bin/env bash
# Release builds (`make dist`): yume-cli for each platform Yume ships on,
# static (CGO_ENABLED=0), -trimpath, stamped with the version and commit
# that `yume-cli version` prints, into dist/ with a SHA256SUMS file that
# `cd dist && sha256sum -c SHA256SUMS` verifies. Needs only Go (and git for
# the stamp); no network beyond the Go module proxy.
set -euo pipefail
cd "$(dirname "$0")/.."

GO="${GO:-go}"
DIST="${DIST:-dist}"

version=$(git describe --tags --always --dirty 2>/dev/null || true)
version=${version:-dev}
commit=$(git rev-parse --short HEAD 2>/dev/null || true)
ldflags="-s -w -X main.version=$version -X main.commit=$commit"

# GOOS/GOARCH and the name each binary is published under.
targets=(
  "darwin  arm64 yume-cli-darwin-arm64"
  "darwin  amd64 yume-cli-darwin-x64"
  "linux   amd64 yume-cli-linux-x64"
  "linux   arm64 yume-cli-linux-arm64"
  "windows amd64 yume-cli-windows-x64.exe"
)

echo "dist: yume-cli $version (commit ${commit:-unknown}) into $DIST/"
rm -rf "$DIST"
mkdir -p "$DIST"
names=()
for t in "${targets[@]}"; do
  read -r goos goarch name <<<"$t"
  echo "  $goos/$goarch -> $DIST/$name"
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch \
    "$GO" build -trimpath -ldflags "$ldflags" -o "$DIST/$name" ./cmd/yume-cli
  names+=("$name")
done

# sha256sum's format ("HASH  NAME"), names relative to dist/; shasum on
# macOS writes the same.
if command -v sha256sum >/dev/null; then
  sum=(sha256sum)
else
  sum=(shasum -a 256)
fi
(cd "$DIST" && "${sum[@]}" "${names[@]}" >SHA256SUMS)
cat "$DIST/SHA256SUMS"
