#!/usr/bin/env bash
# tools.sh installs the pinned protobuf tools into <repo>/bin (gitignored)
# through the Go module proxy, unless the right versions are already there.
# Source it (it exports REPO and puts <repo>/bin first on PATH) or run it.
set -euo pipefail

BUF_VERSION=v1.75.0
PROTOC_GEN_GO_VERSION=v1.36.12
PROTOC_GEN_CONNECT_GO_VERSION=v1.21.1

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
BIN="$REPO/bin"
mkdir -p "$BIN"
UI="$REPO/surfaces/rpc/ui"
export REPO UI PATH="$BIN:$UI/node_modules/.bin:$PATH"

install_tool() { # name version-output-substring module@version
	local name=$1 want=$2 pkg=$3
	if [ -x "$BIN/$name" ] && "$BIN/$name" --version 2>/dev/null | grep -qF -- "$want"; then
		return 0
	fi
	echo "installing $pkg into $BIN" >&2
	(cd "$REPO" && GOWORK=off GOBIN="$BIN" go install "$pkg")
}

install_tool protoc-gen-go "$PROTOC_GEN_GO_VERSION" \
	"google.golang.org/protobuf/cmd/protoc-gen-go@$PROTOC_GEN_GO_VERSION"
install_tool protoc-gen-connect-go "${PROTOC_GEN_CONNECT_GO_VERSION#v}" \
	"connectrpc.com/connect/cmd/protoc-gen-connect-go@$PROTOC_GEN_CONNECT_GO_VERSION"
install_tool buf "${BUF_VERSION#v}" \
	"github.com/bufbuild/buf/cmd/buf@$BUF_VERSION"

# The web view's tools (protoc-gen-es, esbuild, tsc), from the npm registry.
bash "$REPO/surfaces/rpc/scripts/npm.sh"
