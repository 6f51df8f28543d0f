// Package servergc holds the garbage-collector setting of noggin's
// long-lived servers (noggin-mcp, noggin-rpc).
package servergc

import "runtime/debug"

// Percent is the collector's target unless $GOGC sets one. A server keeps
// whole noggins in memory and every write makes a new version of one, so
// collecting at 5x the live heap instead of 2x trades memory (cheap on a
// server) for a quarter of the collection work:
//   - noggin-rpc on PostgreSQL (pgstore's BenchmarkClients, 8 clients on
//     two replicas): 499 -> 635 writes/s;
//   - noggin-mcp's warm noggin_note on 10k items over stdio
//     (BenchmarkStdio): mean 19-21 -> 13-17 ms, p99 62-76 -> 23-32 ms.
const Percent = 400

// Set applies Percent unless getenv("GOGC") is set.
func Set(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
}
