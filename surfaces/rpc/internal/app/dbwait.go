package app

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore"
)

// Backoff of a replica waiting for its database.
const (
	firstRetry = 250 * time.Millisecond
	lastRetry  = 10 * time.Second
)

// teamDB is the team database of a replica, which may start before the
// database answers: until waitForDB has opened it, calls are unavailable
// and /readyz says 503.
type teamDB struct{ db atomic.Pointer[pgstore.DB] }

// errNotYet is a call's answer while the database has not answered yet.
func errNotYet() error {
	return noggin.NewError(noggin.CodeUnavailable, noggin.F("server", pgstore.Server), noggin.F("detail", "the team database does not answer yet"))
}

func (t *teamDB) Open(ctx context.Context, location string) (noggin.Store, error) {
	db := t.db.Load()
	if db == nil {
		return nil, errNotYet()
	}
	return db.Open(ctx, location)
}

func (t *teamDB) Providers() []noggin.Provider { return []noggin.Provider{{Scheme: "postgres"}} }

func (t *teamDB) List(ctx context.Context, max int) ([]string, bool, error) {
	db := t.db.Load()
	if db == nil {
		return nil, false, errNotYet()
	}
	return db.List(ctx, max)
}

// errWaiting is /readyz's answer while waitForDB waits (and logs why).
var errWaiting = errors.New("the database does not answer yet")

// ready is /readyz: the database was opened and answers now.
func (t *teamDB) ready(ctx context.Context) error {
	db := t.db.Load()
	if db == nil {
		return errWaiting
	}
	return db.Ping(ctx)
}

// poolStat is the pool's connection counts (zeros before the database).
func (t *teamDB) poolStat() (acquired, idle, total, max int32) {
	if db := t.db.Load(); db != nil {
		return db.PoolStat()
	}
	return 0, 0, 0, 0
}

// close closes the database once opened.
func (t *teamDB) close() {
	if db := t.db.Load(); db != nil {
		db.Close()
	}
}

// waitForDB opens the database at dsn, retrying with backoff until it
// answers or ctx ends; each failure is logged by its cause only (never the
// address's user, host or socket path). setup runs on the opened database
// before calls see it (the caller has checked the address).
func (t *teamDB) waitForDB(ctx context.Context, dsn string, log *slog.Logger, setup func(*pgstore.DB)) {
	wait := firstRetry
	for {
		actx, cancel := context.WithTimeout(ctx, lastRetry)
		db, err := pgstore.Open(actx, dsn)
		cancel()
		if err == nil {
			setup(db)
			t.db.Store(db)
			log.Info("the team database answers")
			return
		}
		log.Warn("waiting for the team database", "cause", dbCause(err), "retry_in", wait.String())
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, lastRetry)
	}
}

// dbCause says why the database did not answer in words that hold no user
// name, database name, host or path (pgx's messages hold them all).
func dbCause(err error) string {
	var pe *pgconn.PgError
	var de *net.DNSError
	switch {
	case errors.As(err, &pe):
		return "the database refused: SQLSTATE " + pe.Code
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ENOENT):
		return "no database socket there"
	case errors.Is(err, syscall.EACCES):
		return "permission denied"
	case errors.As(err, &de):
		return "the host name does not resolve"
	case errors.Is(err, context.DeadlineExceeded), pgconn.Timeout(err):
		return "timed out"
	}
	return "cannot connect"
}
