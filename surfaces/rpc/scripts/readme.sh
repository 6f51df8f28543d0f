#!/usr/bin/env bash
# readme.sh runs every command of the "Calls from the shell" section of
# surfaces/rpc/README.md verbatim (curl, buf curl, grpcurl) against a real
# noggin-rpc started with a token and TLS, as the README's setup block says, and
# fails when one of them fails, is refused for want of the token, or prints
# nothing. Streaming commands ("# streams until Ctrl-C") must print their
# first message; they are then stopped. `make readme-rpc` runs it; CI too.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/tools.sh" # REPO, bin/ on PATH, buf

GRPCURL_VERSION=v1.9.4
if ! { [ -x "$BIN/grpcurl" ] && go version -m "$BIN/grpcurl" | grep -q "mod.*github.com/fullstorydev/grpcurl.*$GRPCURL_VERSION"; }; then
	echo "installing grpcurl $GRPCURL_VERSION into $BIN" >&2
	(cd "$REPO" && GOWORK=off GOBIN="$BIN" go install "github.com/fullstorydev/grpcurl/cmd/grpcurl@$GRPCURL_VERSION")
fi

tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

(cd "$REPO" && go build -o "$tmp/noggin-rpc" ./surfaces/rpc/cmd/noggin-rpc)
mkdir "$tmp/root"
# A token-and-TLS server, as the README's setup block starts one (the
# certificate from a throwaway CA instead of openssl).
(cd "$REPO" && go run ./surfaces/rpc/testcert/cmd/testcert "$tmp")
export NOGGIN_RPC_TOKEN CA="$tmp/ca.pem"
NOGGIN_RPC_TOKEN=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
setsid "$tmp/noggin-rpc" serve --addr 127.0.0.1:0 --root "$tmp/root" \
	--tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem" 2>"$tmp/server.log" &
pids+=($!)
for _ in $(seq 100); do
	grep -q 'on https://' "$tmp/server.log" && break
	sleep 0.1
done
export ADDR
ADDR=$(sed -n 's|.* on https://||p' "$tmp/server.log")
[ -n "$ADDR" ] || { cat "$tmp/server.log"; echo "readme.sh: the server did not start" >&2; exit 1; }

# The commands: the sh blocks of the section, continuation lines joined,
# without the setup block (done above, with a free port).
mapfile -t cmds < <(awk '
	/^## Calls from the shell/ { on = 1; next }
	/^## / { on = 0 }
	on && /^```sh/ { inblock = 1; block++; next }
	on && /^```/ { inblock = 0; next }
	inblock && block > 1 {
		line = $0
		if (line ~ /\\$/) { buf = buf substr(line, 1, length(line) - 1); next }
		line = buf line; buf = ""
		if (line !~ /^[[:space:]]*(#|$)/) print line
	}' "$REPO/surfaces/rpc/README.md")
[ "${#cmds[@]}" -ge 10 ] || { echo "readme.sh: found only ${#cmds[@]} commands in the README" >&2; exit 1; }

cd "$tmp"
n=0 fail=0
for cmd in "${cmds[@]}"; do
	n=$((n + 1))
	if [[ $cmd =~ ^[A-Z_]+= ]]; then # a variable the next commands use
		eval "export $cmd"
		continue
	fi
	out="$tmp/out.$n"
	if [[ $cmd == *"streams until Ctrl-C"* ]]; then
		setsid bash -c "$cmd" >"$out" 2>&1 &
		pid=$!
		for _ in $(seq 600); do
			[ -s "$out" ] && break
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		sleep 0.2
		kill -- "-$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		rc=0
		[ -s "$out" ] || rc=1
	else
		rc=0
		bash -c "$cmd" >"$out" 2>&1 || rc=$?
	fi
	if [ "$rc" -ne 0 ] || [ ! -s "$out" ] || grep -qi 'unauthenticated' "$out"; then
		fail=$((fail + 1))
		echo "FAIL (exit $rc): $cmd" >&2
		sed 's/^/    /' "$out" >&2
	else
		echo "ok: ${cmd:0:110}"
	fi
	case $cmd in
	*" list" | *"--list-services"*) # every service of the port is listed
		for svc in noggin.v1.NogginService grpc.health.v1.Health grpc.reflection.v1.ServerReflection; do
			grep -qx "$svc" "$out" || { fail=$((fail + 1)); echo "FAIL: list does not show $svc" >&2; }
		done ;;
	*'"path": "/9"'*)
		grep -q '"code":"not_found"' "$out" || { fail=$((fail + 1)); echo "FAIL: the error example did not answer not_found" >&2; }
		grep -q "$tmp" "$out" && { fail=$((fail + 1)); echo "FAIL: an error names the server's directory" >&2; } ;;
	esac
done
echo "readme.sh: $n README commands run, $fail failures"
[ "$fail" -eq 0 ]
