package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// migrations are the schema's versions, applied in order at start-up; the
// database remembers the last one applied (noggin_schema). Append, never
// edit: a replica of an older build refuses a newer schema.
var migrations = []string{
	// 1: noggins, their items (flat order kept by pos), notes and history.
	// Text from users (keys, titles, notes, timestamps) is bytea: PostgreSQL
	// text cannot hold U+0000, which a title may contain.
	`CREATE TABLE noggins (
		id      bigserial PRIMARY KEY,
		name    text NOT NULL UNIQUE,
		version bigint NOT NULL DEFAULT 0,
		active  bytea,
		digest  text NOT NULL,
		head    text
	);
	CREATE TABLE items (
		noggin     bigint NOT NULL REFERENCES noggins (id) ON DELETE CASCADE,
		key        bytea NOT NULL,
		pos        text COLLATE "C" NOT NULL,
		parent_key bytea,
		title      bytea NOT NULL,
		done       boolean NOT NULL,
		created_at bytea,
		extra      text,
		PRIMARY KEY (noggin, key),
		CONSTRAINT items_pos UNIQUE (noggin, pos) DEFERRABLE INITIALLY DEFERRED
	);
	CREATE TABLE notes (
		noggin bigint NOT NULL,
		key    bytea NOT NULL,
		seq    integer NOT NULL,
		ts     bytea,
		body   bytea NOT NULL,
		PRIMARY KEY (noggin, key, seq),
		FOREIGN KEY (noggin, key) REFERENCES items (noggin, key) ON DELETE CASCADE
	);
	CREATE TABLE history (
		noggin    bigint NOT NULL REFERENCES noggins (id) ON DELETE CASCADE,
		seq       bigint NOT NULL,
		entry     text NOT NULL,
		positions text NOT NULL,
		PRIMARY KEY (noggin, seq)
	);`,
	// 2: the request id of a write made for a remote client, once per
	// noggin (its answer is in the entry): a retry finds it.
	`ALTER TABLE history ADD COLUMN request text;
	CREATE UNIQUE INDEX history_request ON history (noggin, request) WHERE request IS NOT NULL;`,
}

// SchemaVersion is the schema version this build creates and reads.
var SchemaVersion = len(migrations)

// migrate brings the database's schema to SchemaVersion. Replicas starting
// together take turns on an advisory lock.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	const lockKey = 0x6e6f6767696e // "noggin"
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, lockKey); err != nil {
		return err
	}
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, lockKey) }()
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS noggin_schema (version integer NOT NULL)`); err != nil {
		return err
	}
	var have int
	err = conn.QueryRow(ctx, `SELECT version FROM noggin_schema`).Scan(&have)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		if _, err := conn.Exec(ctx, `INSERT INTO noggin_schema VALUES (0)`); err != nil {
			return err
		}
	case err != nil:
		return err
	}
	if have > SchemaVersion {
		return fmt.Errorf("the database's noggin schema is version %d, newer than this build's %d: upgrade noggin-rpc", have, SchemaVersion)
	}
	for v := have; v < SchemaVersion; v++ {
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, migrations[v]); err != nil {
				return fmt.Errorf("schema migration %d: %w", v+1, err)
			}
			_, err := tx.Exec(ctx, `UPDATE noggin_schema SET version = $1`, v+1)
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}
