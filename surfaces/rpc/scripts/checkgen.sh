#!/usr/bin/env bash
# checkgen.sh fails when the committed generated code in surfaces/rpc/gen
# differs from a fresh generation (run from anywhere; touches nothing in the
# work tree: it generates into a temporary copy of the repository's inputs).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/tools.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp -R "$REPO/proto" "$REPO/buf.yaml" "$REPO/buf.gen.yaml" "$tmp/"
(cd "$tmp" && buf generate)
if ! diff -r "$tmp/surfaces/rpc/gen" "$REPO/surfaces/rpc/gen"; then
	echo "checkgen: surfaces/rpc/gen is out of date; run surfaces/rpc/scripts/gen.sh" >&2
	exit 1
fi
echo "checkgen: surfaces/rpc/gen is up to date"
