//go:build !race

package store

// sweepSteps is the number of free-space steps of the full-disk sweep.
const sweepSteps = 50

// stalledRuns is the runs of each case of TestStalledOriginalCostsNoWrite.
const stalledRuns = 3
