// Package pgstore keeps noggins in a PostgreSQL database, for a team server:
// several noggin-rpc replicas serving the same noggins.
//
// # Layout
//
// A noggin is a row of noggins (its name is the location clients give,
// cleaned: "team.yaml", "./team.yaml" and "a/../team.yaml" are one noggin),
// its items are rows of items — in the order of the noggin's flat item
// list by pos (see position.go), which also orders siblings — and their
// notes rows of notes. Unknown fields of an imported file are kept as JSON
// (noggins.head, items.extra), so an export gives the imported bytes.
// Every write appends its history entry (the journal line of
// docs/file-format.md, with the positions it gave) to history; the last
// 1,000 are kept, as in a file's journal.
//
// # Writes
//
// Writes run in groups: the writes of a replica that wait while one of its
// transactions on the noggin runs go into the next one (up to 64), each
// planned on the document the one before left, and are answered when the
// commit is known (a failed commit fails them all; a verb that fails
// fails alone). A group's transaction locks the noggin's row (SELECT … FOR
// UPDATE), brings the replica's cached document up to the row's version
// (applying the history entries of the other replicas' commits, or reading
// the whole noggin when it fell too far behind), plans the verb on it,
// and writes only the rows the ops touched, the history entries and the new
// version, in one round trip unless a plan reads the history; it then notifies the other replicas (NOTIFY noggin_changes,
// "id version"). Reads check the row's version first, so a replica never
// answers from a document older than the last commit; a write that reads
// the noggin only in its group's transaction, which plans it on the last
// commit, asks nothing before it (store.RecentLoader).
//
// # Watch
//
// Each replica listens on noggin_changes; a notification brings the
// cached document of a watched noggin up to date, and every version it
// passes is one event, in commit order, exactly once. A replica that
// missed notifications (its connection dropped) catches up on every
// watched noggin when it reconnects.
//
// # Failures
//
// A database that cannot be reached is unavailable (exit 1, data {server,
// detail}); the pool reconnects by itself. So is a write that waited more
// than 5 s for the noggin's row lock. A commit whose outcome is
// unknown (the connection dropped during COMMIT) is unavailable too, and
// the replica re-reads the noggin before it answers again.
package pgstore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/noggin-go/noggin/core/jstext"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
)

// Server is the name an unavailable error gives the database (its
// address is not shown: it may carry credentials).
const Server = "the team database (PostgreSQL)"

// channel is the NOTIFY channel of commits.
const channel = "noggin_changes"

// DB is one PostgreSQL database of noggins. It opens noggins by location
// (request.Opener) and caches each opened noggin for the process.
type DB struct {
	pool *pgxpool.Pool
	// Observe, when set, is told how long a group of writes waited for its
	// noggin's row ("lock-wait") and how long the whole group took
	// ("write"), once per group.
	Observe func(step string, d time.Duration)

	mu     sync.Mutex
	byName map[string]*nogginStore
	byID   map[int64]*nogginStore

	stopListen context.CancelFunc
	listenDone chan struct{}
}

// CheckAddress says whether dsn is a database address Open can use.
func CheckAddress(dsn string) error {
	if _, err := pgxpool.ParseConfig(dsn); err != nil {
		return fmt.Errorf("the database address: %w", err)
	}
	return nil
}

// Open connects to the database at dsn (a postgres:// URL or key=value
// string), brings its schema up to date and starts listening for the
// commits of other replicas. Close releases it.
func Open(ctx context.Context, dsn string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("the database address: %w", err)
	}
	if cfg.MaxConns < 8 {
		cfg.MaxConns = 8
	}
	// A write waits at most this long for a noggin's row lock (another
	// replica's write in progress) before it is unavailable, as a file
	// write waits for the file's lock; the address may set its own
	// (?lock_timeout=…).
	if _, set := cfg.ConnConfig.RuntimeParams["lock_timeout"]; !set {
		cfg.ConnConfig.RuntimeParams["lock_timeout"] = "5s"
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	// The listener outlives the call that opened the database: it stops
	// with Close.
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	db := &DB{pool: pool, byName: map[string]*nogginStore{}, byID: map[int64]*nogginStore{},
		stopListen: cancel, listenDone: make(chan struct{})}
	go db.listen(lctx, cfg.ConnConfig) // lctx: ctx without its cancellation, as the listener lives until Close
	return db, nil
}

// Ping checks that the database answers (a server's readiness).
func (db *DB) Ping(ctx context.Context) error { return db.pool.Ping(ctx) }

// PoolStat is the connection pool's state: connections in use, idle, in
// all, and the most it opens.
func (db *DB) PoolStat() (acquired, idle, total, max int32) {
	st := db.pool.Stat()
	return st.AcquiredConns(), st.IdleConns(), st.TotalConns(), st.MaxConns()
}

// Close stops listening and closes the connections.
func (db *DB) Close() {
	db.stopListen()
	<-db.listenDone
	db.pool.Close()
}

// Providers lists the location kind the database serves.
func (db *DB) Providers() []noggin.Provider { return []noggin.Provider{{Scheme: "postgres"}} }

// Name is the noggin name of a location: core's store.RelativeName (a
// cleaned relative path; URIs, absolute paths, "~" and names that climb
// out are refused with the codes of a rooted file store).
func Name(location string) (string, error) { return store.RelativeName(location) }

// Open returns the noggin at location without reading it: its first
// Load (every request's) asks the database.
func (db *DB) Open(_ context.Context, location string) (noggin.Store, error) {
	name, err := Name(location)
	if err != nil {
		return nil, err
	}
	s := db.store(name)
	desc := jstext.TrimSpace(location)
	if desc == name {
		return s, nil
	}
	return described{s, desc}, nil
}

// described is a noggin reached by another spelling of its name: Describe
// answers the location as the caller gave it.
type described struct {
	*nogginStore
	location string
}

func (d described) Describe() string { return d.location }

func (db *DB) store(name string) *nogginStore {
	db.mu.Lock()
	defer db.mu.Unlock()
	s := db.byName[name]
	if s == nil {
		s = &nogginStore{db: db, name: name}
		db.byName[name] = s
	}
	return s
}

func (db *DB) remember(s *nogginStore, id int64) {
	db.mu.Lock()
	db.byID[id] = s
	db.mu.Unlock()
}

// listen follows the commits of every replica (LISTEN noggin_changes) and
// brings watched noggins up to date, reconnecting after failures.
func (db *DB) listen(ctx context.Context, cfg *pgx.ConnConfig) {
	defer close(db.listenDone)
	for delay := 50 * time.Millisecond; ctx.Err() == nil; {
		conn, err := pgx.ConnectConfig(ctx, cfg)
		if err == nil {
			_, err = conn.Exec(ctx, "LISTEN "+channel)
		}
		if err == nil {
			delay = 50 * time.Millisecond
			// Notifications may have been missed while not listening.
			db.refreshWatched(ctx, 0)
			for err == nil {
				var n *pgconn.Notification
				if n, err = conn.WaitForNotification(ctx); err == nil {
					var id, version int64
					if _, serr := fmt.Sscanf(n.Payload, "%d %d", &id, &version); serr == nil {
						db.refreshWatched(ctx, id)
					}
				}
			}
		}
		if conn != nil {
			_ = conn.Close(context.WithoutCancel(ctx)) // ctx may be done: close anyway
		}
		select {
		case <-ctx.Done():
		case <-time.After(delay):
		}
		delay = min(2*delay, 2*time.Second)
	}
}

// refreshWatched brings the watched noggin id up to date (0, or an id this
// replica has not seen: every watched noggin), publishing its events.
func (db *DB) refreshWatched(ctx context.Context, id int64) {
	var list []*nogginStore
	db.mu.Lock()
	if s := db.byID[id]; s != nil {
		list = append(list, s)
	} else { // every noggin, or one this replica knows only by name (created elsewhere)
		for _, s := range db.byName {
			list = append(list, s)
		}
	}
	db.mu.Unlock()
	for _, s := range list {
		if s.hub.Active() {
			_, _ = s.Load(ctx)
		}
	}
}

// unavailable turns a database failure into the noggin error a client
// sees: cancelled when ctx is done, else unavailable.
func unavailable(ctx context.Context, err error) error {
	var ne *noggin.Error
	if errors.As(err, &ne) {
		return err
	}
	if c := noggin.Cancelled(ctx); c != nil {
		return c
	}
	detail := err.Error()
	var pe *pgconn.PgError
	var oe *net.OpError
	switch {
	case errors.As(err, &pe):
		detail = pe.Message + " (SQLSTATE " + pe.Code + ")"
	case errors.As(err, &oe):
		detail = oe.Err.Error()
	}
	return noggin.NewError(noggin.CodeUnavailable, noggin.F("server", Server), noggin.F("detail", detail))
}

// List names the database's noggins, sorted bytewise, at most max of them.
func (db *DB) List(ctx context.Context, max int) ([]string, bool, error) {
	rows, err := db.pool.Query(ctx, `SELECT name FROM noggins ORDER BY name COLLATE "C" LIMIT $1`, max+1)
	if err != nil {
		return nil, false, err
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, false, err
	}
	if len(names) > max {
		return names[:max], true, nil
	}
	return names, false, nil
}
