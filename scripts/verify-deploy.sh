#!/usr/bin/env bash
# make verify-deploy: systemd's own check of deploy/noggin-rpc.service, with
# its ExecStart pointing at a freshly built noggin-rpc (verify wants the
# binary to exist), and the unit's flags accepted by that binary's serve.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v systemd-analyze >/dev/null || { echo "verify-deploy: systemd-analyze is missing (apt-get install systemd)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/noggin-rpc" ./surfaces/rpc/cmd/noggin-rpc
sed "s|/usr/local/bin/noggin-rpc|$tmp/noggin-rpc|" deploy/noggin-rpc.service >"$tmp/noggin-rpc.service"
out=$(systemd-analyze verify --man=no "$tmp/noggin-rpc.service" 2>&1 | grep -v 'Failed to .* bus\|dbus' || true)
if [ -n "$out" ]; then
	echo "$out" >&2
	echo "verify-deploy: systemd-analyze found problems" >&2
	exit 1
fi
# Every flag the unit and the environment file give is one serve takes.
flags=$(sed -n 's/^NOGGIN_RPC_FLAGS=//p' deploy/noggin-rpc.env)
exec=$(awk '/^ExecStart=/ { on = 1 } on { print } on && !/\\$/ { on = 0 }' deploy/noggin-rpc.service)
for f in $(grep -o -- '--[a-z-]*' <<<"$exec") $(grep -o -- '--[a-z-]*' <<<"$flags"); do
	"$tmp/noggin-rpc" help | grep -q -- "^  $f " || { echo "verify-deploy: noggin-rpc serve has no flag $f" >&2; exit 1; }
done
echo "verify-deploy: deploy/noggin-rpc.service verified"
