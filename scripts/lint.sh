#!/usr/bin/env bash
# make lint: golangci-lint (pinned, built into ./bin through the Go module
# proxy) with .golangci.yml over every module of the workspace, then
# `go mod tidy -diff` in every module (fails when a go.mod or go.sum is not
# tidy). buf lint of proto/ is surfaces/rpc/scripts/lint.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
GOLANGCI_LINT_VERSION=v2.15.0
BIN="$PWD/bin"
mkdir -p "$BIN"
if ! { [ -x "$BIN/golangci-lint" ] && "$BIN/golangci-lint" version 2>/dev/null | grep -qF "version ${GOLANGCI_LINT_VERSION#v} "; }; then
	echo "installing golangci-lint $GOLANGCI_LINT_VERSION into $BIN" >&2
	GOWORK=off GOBIN="$BIN" go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$GOLANGCI_LINT_VERSION"
fi
"$BIN/golangci-lint" run ./core/... ./bench/... ./surfaces/cli/... ./surfaces/mcp/... ./surfaces/rpc/... ./e2e/...
# A module nested in another's directory is linted from its own root (from
# the workspace's, golangci-lint doubles its path).
(cd surfaces/rpc/remote && "$BIN/golangci-lint" run ./...)
status=0
for m in core bench surfaces/cli surfaces/mcp surfaces/rpc surfaces/rpc/remote e2e; do
	if ! (cd "$m" && go mod tidy -diff); then
		echo "lint: $m/go.mod is not tidy (run make tidy)" >&2
		status=1
	fi
done
exit $status
