#!/usr/bin/env bash
# lint.sh runs buf lint (STANDARD, buf.yaml at the repository root) and
# buf format --diff --exit-code on proto/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/tools.sh"
cd "$REPO"
buf lint
buf format --diff --exit-code
