package pgstore

// Hold keeps the replica's cache of the noggin name from moving (as a slow
// listener would) until the returned function is called.
func Hold(db *DB, name string) (release func()) {
	s := db.store(name)
	s.mu.Lock()
	return s.mu.Unlock
}

// SetBeforeCommit sets the hook every group of writes runs just before it
// sends its commit, with its connection's backend pid (nil: none).
func SetBeforeCommit(f func(pid uint32)) { beforeCommit = f }

// Queued is how many writes wait for a transaction on the noggin name.
func Queued(db *DB, name string) int {
	s := db.store(name)
	s.qmu.Lock()
	defer s.qmu.Unlock()
	return len(s.queue)
}
