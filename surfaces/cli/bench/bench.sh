#!/usr/bin/env bash
# make bench-cli: times whole noggin invocations (show --json, push, note,
# done) on generated 10-, 1k- and 10k-item noggins and prints the medians.
# Usage: surfaces/cli/bench/bench.sh [-runs N]
set -euo pipefail
cd "$(dirname "$0")/../../../bench"
exec go run . "$@"
