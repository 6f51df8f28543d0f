package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/noggin"
)

// ErrExists is Import's answer for a name that is taken (without replace).
var ErrExists = errors.New("a noggin of that name exists (pass --replace to overwrite it)")

// ErrNotFound is Export's answer for a name that holds no noggin.
var ErrNotFound = errors.New("no noggin of that name")

// head is what the noggins row keeps of doc beside its items and active
// item: its top-level order and unknown fields (the cursors among them),
// as a JSON document without items; nil when it has none of them.
func head(doc *noggin.Document) *string {
	if doc.Order == nil && len(doc.Extra) == 0 {
		return nil
	}
	h := string(codec.EncodeJSON(&noggin.Document{Order: doc.Order, Extra: doc.Extra, Items: []*noggin.Item{}}))
	return &h
}

// Import stores doc as the noggin name, with an empty history. A noggin of
// that name is replaced when replace is set (its history goes with it),
// else Import fails with ErrExists. Replicas that cached the old noggin
// read the new one on their next call.
func (db *DB) Import(ctx context.Context, name string, doc *noggin.Document, replace bool) error {
	name, err := Name(name)
	if err != nil {
		return err
	}
	head := head(doc)
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var old int64
		err := tx.QueryRow(ctx, `SELECT id FROM noggins WHERE name = $1 FOR UPDATE`, name).Scan(&old)
		switch {
		case err == nil && !replace:
			return ErrExists
		case err == nil:
			if _, err := tx.Exec(ctx, `DELETE FROM noggins WHERE id = $1`, old); err != nil {
				return err
			}
		case !errors.Is(err, pgx.ErrNoRows):
			return err
		}
		var id int64
		if err := tx.QueryRow(ctx, `INSERT INTO noggins (name, active, digest, head) VALUES ($1, $2, $3, $4) RETURNING id`,
			name, nullable(doc.Active), initialDigest, head).Scan(&id); err != nil {
			return err
		}
		// The imported state is not the empty noggin: a token of its own.
		if _, err := tx.Exec(ctx, `UPDATE noggins SET digest = $2 WHERE id = $1`, id, importedDigest(id)); err != nil {
			return err
		}
		pos := spread("", "", len(doc.Items))
		var notes [][]any
		_, err = tx.CopyFrom(ctx, pgx.Identifier{"items"},
			[]string{"noggin", "key", "pos", "parent_key", "title", "done", "created_at", "extra"},
			pgx.CopyFromSlice(len(doc.Items), func(i int) ([]any, error) {
				it := doc.Items[i]
				for n, note := range it.Notes {
					notes = append(notes, []any{id, []byte(it.Key), n, nullable(note.Timestamp), []byte(note.Text)})
				}
				return []any{id, []byte(it.Key), pos[i], nullable(it.ParentKey), []byte(it.Title), it.Done, nullablePtr(it.CreatedAt), extraColumn(it)}, nil
			}))
		if err != nil {
			return err
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"notes"}, []string{"noggin", "key", "seq", "ts", "body"},
			pgx.CopyFromRows(notes)); err != nil {
			return err
		}
		if old != 0 {
			_, err = tx.Exec(ctx, `SELECT pg_notify($1, $2)`, channel, fmt.Sprintf("%d 0", old))
		}
		return err
	})
}

// Export reads the noggin name as of its last commit.
func (db *DB) Export(ctx context.Context, name string) (*noggin.Document, error) {
	name, err := Name(name)
	if err != nil {
		return nil, err
	}
	var id int64
	if err := db.pool.QueryRow(ctx, `SELECT id FROM noggins WHERE name = $1`, name).Scan(&id); errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNotFound
	} else if err != nil {
		return nil, unavailable(ctx, err)
	}
	return db.store(name).Load(ctx)
}
