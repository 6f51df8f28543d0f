#!/usr/bin/env bash
# gen.sh regenerates surfaces/rpc/gen and the web view's client from proto/
# with buf and the pinned local plugins (buf.gen.yaml at the repository
# root), then builds the web view's bundle.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/tools.sh"
cd "$REPO"
buf generate
bash "$REPO/surfaces/rpc/scripts/ui.sh" "$UI/static/app.js"
