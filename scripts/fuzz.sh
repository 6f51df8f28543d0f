#!/usr/bin/env bash
# Runs every fuzz target of the workspace for a bounded time each.
set -euo pipefail
t=${1:-20s}
cd "$(dirname "$0")/.."
for pkg in $(go list ./core/... ./surfaces/cli/... ./surfaces/mcp/... ./surfaces/rpc/... ./e2e/...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for f in $(grep -hoE '^func (Fuzz[A-Za-z0-9_]+)' "$dir"/*_test.go 2>/dev/null | awk '{print $2}' | sort -u); do
    echo "== $pkg $f ($t)"
    go test -run '^$' -fuzz "^${f}\$" -fuzztime "$t" "$pkg"
  done
done
