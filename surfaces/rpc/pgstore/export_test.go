package pgstore

// Hold keeps the replica's cache of the noggin name from moving (as a slow
// listener would) until the returned function is called.
func Hold(db *DB, name string) (release func()) {
	s := db.store(name)
	s.mu.Lock()
	return s.mu.Unlock
}
