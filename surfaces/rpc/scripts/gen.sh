#!/usr/bin/env bash
# gen.sh regenerates surfaces/rpc/gen from proto/ with buf and the pinned
# local plugins (buf.gen.yaml at the repository root).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/tools.sh"
cd "$REPO"
buf generate
