#!/usr/bin/env bash
# checkgen.sh fails when the committed generated code (surfaces/rpc/gen, the
# web view's client and bundle) differs from a fresh generation (run from
# anywhere; touches nothing in the work tree: it generates into a temporary
# copy of the repository's inputs).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/tools.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp -R "$REPO/proto" "$REPO/buf.yaml" "$REPO/buf.gen.yaml" "$tmp/"
(cd "$tmp" && buf generate)
for d in surfaces/rpc/gen surfaces/rpc/ui/src/gen; do
	if ! diff -r "$tmp/$d" "$REPO/$d"; then
		echo "checkgen: $d is out of date; run make gen" >&2
		exit 1
	fi
done
bash "$REPO/surfaces/rpc/scripts/ui.sh" "$tmp/app.js"
if ! cmp "$tmp/app.js" "$UI/static/app.js"; then
	echo "checkgen: surfaces/rpc/ui/static/app.js is out of date; run make gen" >&2
	exit 1
fi
echo "checkgen: surfaces/rpc/gen, the web view's client and its bundle are up to date"
