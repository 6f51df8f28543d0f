#!/usr/bin/env bash
# npm.sh installs the web view's npm packages (protoc-gen-es, esbuild, tsc,
# axe-core), pinned by surfaces/rpc/ui/package-lock.json, from the npm
# registry into surfaces/rpc/ui/node_modules, unless they are there.
set -euo pipefail
UI="$(cd "$(dirname "${BASH_SOURCE[0]}")/../ui" && pwd)"
if ! cmp -s "$UI/package-lock.json" "$UI/node_modules/.noggin-installed" 2>/dev/null; then
	echo "installing the web view's npm packages into $UI/node_modules" >&2
	(cd "$UI" && npm ci --no-audit --no-fund --loglevel=error >&2 && cp package-lock.json node_modules/.noggin-installed)
fi
