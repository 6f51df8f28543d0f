//go:build race

package store

// sweepSteps is the number of free-space steps of the full-disk sweep: fewer
// under the race detector, whose writes are ten times slower.
const sweepSteps = 12

// stalledRuns is the runs of each case of TestStalledOriginalCostsNoWrite:
// one under the race detector (make test), three without.
const stalledRuns = 1
