#!/usr/bin/env bash
# Runs go test through gotestsum (pinned, built into ./bin through the Go
# module proxy), so that `make test` shows a line per package (unit) or per
# test (e2e) as it goes: scripts/gotestsum.sh FORMAT go-test-args...
set -euo pipefail
cd "$(dirname "$0")/.."
GOTESTSUM_VERSION=v1.13.0
BIN="$PWD/bin"
mkdir -p "$BIN"
if ! { [ -x "$BIN/gotestsum" ] && "$BIN/gotestsum" --version 2>/dev/null | grep -qF "${GOTESTSUM_VERSION#v}"; }; then
	echo "installing gotestsum $GOTESTSUM_VERSION into $BIN" >&2
	GOWORK=off GOBIN="$BIN" go install "gotest.tools/gotestsum@$GOTESTSUM_VERSION"
fi
format=$1
shift
exec "$BIN/gotestsum" --format "$format" --format-hide-empty-pkg -- "$@"
