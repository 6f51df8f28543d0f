#!/usr/bin/env bash
# make dist: cross-builds noggin, noggin-mcp and noggin-rpc for linux, macOS
# and Windows on amd64 and arm64 into dist/, one archive per platform
# (.tar.gz; .zip for Windows, tar.gz where zip is missing), with the
# version, commit and build date stamped in (core/buildinfo), and writes
# dist/SHA256SUMS. Usage: scripts/dist.sh [VERSION] (default: git describe).
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:-$(git describe --tags --always --dirty 2>/dev/null || echo devel)}
commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
pkg=github.com/noggin-go/noggin/core/buildinfo
ldflags="-s -w -X $pkg.version=$version -X $pkg.commit=${commit:0:12} -X $pkg.date=$date"
tags=urfave_cli_no_docs,urfave_cli_no_suggest
rm -rf dist && mkdir -p dist
for os in linux darwin windows; do
	for arch in amd64 arm64; do
		name="noggin_${version}_${os}_${arch}"
		dir="dist/$name"
		mkdir -p "$dir"
		exe=""
		[ "$os" = windows ] && exe=.exe
		for b in cli/cmd/noggin mcp/cmd/noggin-mcp rpc/cmd/noggin-rpc; do
			CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -tags "$tags" -ldflags "$ldflags" \
				-o "$dir/$(basename "$b")$exe" "./surfaces/$b"
		done
		cp LICENSE README.md "$dir/"
		if [ "$os" = windows ] && command -v zip >/dev/null; then
			(cd dist && zip -qr "$name.zip" "$name")
		else
			tar -C dist -czf "dist/$name.tar.gz" "$name"
		fi
		rm -rf "$dir"
		echo "built $name"
	done
done
(cd dist && sha256sum -- *.tar.gz *.zip 2>/dev/null > SHA256SUMS)
cat dist/SHA256SUMS
