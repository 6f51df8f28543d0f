#!/usr/bin/env bash
# ui.sh type-checks the web view (surfaces/rpc/ui/src) and bundles it into
# OUT (default: surfaces/rpc/ui/static/app.js) with the pinned esbuild.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/tools.sh"
out="${1:-$UI/static/app.js}"
cd "$UI"
tsc --noEmit -p tsconfig.json
esbuild src/main.ts --bundle --minify --format=esm --target=es2022 \
	--legal-comments=none --charset=utf8 --log-level=warning --outfile="$out"
