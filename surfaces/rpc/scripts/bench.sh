#!/usr/bin/env bash
# bench.sh (make bench-rpc): the noggin-rpc load test (8 clients × 250 mixed
# verbs on one noggin, every write present afterwards) and the Show/Note
# latency benchmarks on generated 1k- and 10k-item noggins over loopback
# (Connect protocol, 8 concurrent clients), printed as a table.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SHOW_N=${SHOW_N:-4000}
NOTE_N=${NOTE_N:-400}
go test -count=1 -run '^TestLoad$' -v ./server/ | grep -E 'load:|^(--- |ok|FAIL)'
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
go test -count=1 -run '^$' -bench 'BenchmarkRPC/show' -benchtime "${SHOW_N}x" ./server/ | tee "$out"
go test -count=1 -run '^$' -bench 'BenchmarkRPC/note' -benchtime "${NOTE_N}x" ./server/ | tee -a "$out"
echo
echo "| RPC (8 clients, loopback) | items | requests | req/s | p50 ms | p99 ms |"
echo "|---|---|---|---|---|---|"
awk '/^BenchmarkRPC\// {
	split($1, a, "/"); verb = a[2]; size = a[3]; sub(/-[0-9]+$/, "", size)
	rps = p50 = p99 = ""
	for (i = 3; i < NF; i++) {
		if ($(i+1) == "req/s") rps = $i
		if ($(i+1) == "p50-ms") p50 = $i
		if ($(i+1) == "p99-ms") p99 = $i
	}
	name = verb == "show" ? "Show (same view, cached)" : verb == "showcold" ? "Show (view built per call)" : "Note"
	printf "| %s | %s | %s | %s | %s | %s |\n", name, size, $2, rps, p50, p99
}' "$out"
