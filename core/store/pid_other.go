//go:build !unix

package store

import "time"

// pidAlive cannot probe processes here: every holder counts as alive, so
// only the 30 s age rule reclaims locks.
func pidAlive(pid float64) bool { return true }

// holderLives applies the original's age rule: a holder lives for 30 s.
func holderLives(_, ts float64) bool {
	return float64(time.Now().UnixMilli())-ts < float64(staleAfter.Milliseconds())
}
