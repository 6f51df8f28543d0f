package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
)

// nogginStore is one noggin of the database, with this replica's cached
// copy of its document. All of its state is guarded by mu, which also
// serialises this replica's writes to the noggin (other replicas wait on
// the row lock).
type nogginStore struct {
	db   *DB
	name string

	mu     sync.Mutex
	loaded bool
	// qmu guards queue, the writes waiting for a transaction, and leading:
	// a writer is running them (see update).
	qmu     sync.Mutex
	queue   []*queued
	leading bool
	// seen is the cache as of its last commit, for reads that need not
	// wait for a running group (see Load); nil until known.
	seen atomic.Pointer[snapshot]
	// id is the noggins row (0: the noggin does not exist yet, the empty
	// document); version is the last commit the document includes.
	id      int64
	version int64
	digest  string
	doc     *noggin.Document
	// pos is the position of every item of doc.
	pos map[string]string
	hub store.Hub
}

// snapshot is a committed state of the cache.
type snapshot struct {
	id, version int64
	doc         *noggin.Document
}

// settle records the cache as committed (under mu).
func (s *nogginStore) settle() {
	if !s.loaded {
		s.seen.Store(nil)
		return
	}
	s.seen.Store(&snapshot{id: s.id, version: s.version, doc: s.doc})
}

var (
	_ noggin.Store          = (*nogginStore)(nil)
	_ store.SnapshotWatcher = (*nogginStore)(nil)
	_ store.RecentLoader    = (*nogginStore)(nil)
)

// querier is what reads need: the pool, or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func (s *nogginStore) Describe() string { return s.name }

// Load returns the noggin as of the last commit of any replica.
func (s *nogginStore) Load(ctx context.Context) (*noggin.Document, error) {
	if err := noggin.Cancelled(ctx); err != nil {
		return nil, err
	}
	// The noggin's last commit is asked outside the lock, so that reads
	// and the writes that follow them do not wait for a running group.
	var id, version int64
	err := s.db.pool.QueryRow(ctx, `SELECT id, version FROM noggins WHERE name = $1`, s.name).Scan(&id, &version)
	found := !errors.Is(err, pgx.ErrNoRows)
	if err != nil && found {
		return nil, unavailable(ctx, err)
	}
	if c := s.seen.Load(); found && c != nil && c.id == id && c.version >= version {
		return c.doc, nil // committed, and as new as the commit asked about
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.settle()
	switch {
	case !found && s.loaded && s.id != 0: // gone since it was cached: ask again, under the lock
		if err := s.refresh(ctx); err != nil {
			return nil, err
		}
	case !found:
		s.reset()
	case s.loaded && s.id == id && s.version >= version: // as new as that commit, or newer
	default:
		if err := s.catchUp(ctx, nil, id, version); err != nil {
			return nil, err
		}
	}
	return s.doc, nil
}

// LoadRecent implements store.RecentLoader: the last commit this replica
// made or caught up on (Load until it knows one).
func (s *nogginStore) LoadRecent(ctx context.Context) (*noggin.Document, error) {
	if err := noggin.Cancelled(ctx); err != nil {
		return nil, err
	}
	if c := s.seen.Load(); c != nil {
		return c.doc, nil
	}
	return s.Load(ctx)
}

// SnapshotWatch implements store.SnapshotWatcher.
func (s *nogginStore) SnapshotWatch(ctx context.Context) (*noggin.Document, <-chan noggin.Event, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.refresh(ctx); err != nil {
		return nil, nil, err
	}
	return s.doc, s.hub.Watch(ctx), nil
}

// Watch streams the noggin's changes, made through any replica.
func (s *nogginStore) Watch(ctx context.Context) <-chan noggin.Event { return s.hub.Watch(ctx) }

// refresh brings the cached document up to the noggin's last commit.
func (s *nogginStore) refresh(ctx context.Context) error {
	var id, version int64
	err := s.db.pool.QueryRow(ctx, `SELECT id, version FROM noggins WHERE name = $1`, s.name).Scan(&id, &version)
	if errors.Is(err, pgx.ErrNoRows) {
		s.reset()
		return nil
	}
	if err != nil {
		return unavailable(ctx, err)
	}
	return s.catchUp(ctx, nil, id, version)
}

// reset makes the cache the empty document of a noggin without row.
func (s *nogginStore) reset() {
	if s.loaded && s.id == 0 {
		return
	}
	old := s.doc
	s.loaded, s.id, s.version, s.digest = true, 0, 0, initialDigest
	s.doc, s.pos = noggin.NewDocument(), map[string]string{}
	s.doc.SetRevision(func() string { return initialDigest })
	_ = noggin.Validate(s.doc)
	noggin.Index(s.doc) // as load does: the noggin's writes derive their indexes
	s.publish(old, s.doc)
}

// catchUp brings the cache to version of row id: by the history entries
// of the commits it missed, or by reading the whole noggin. tx is the
// connection of the write's transaction (nil: read outside one).
func (s *nogginStore) catchUp(ctx context.Context, tx *pgxpool.Conn, id, version int64) error {
	if s.loaded && s.id == id && s.version == version {
		return nil
	}
	var q querier = s.db.pool
	if tx != nil {
		q = tx
	}
	// A noggin this replica knew as absent (no row) and another replica
	// created by a write is caught up from its first entry too, so its
	// watchers see every commit.
	created := s.loaded && s.id == 0 && s.version == 0
	if s.loaded && (s.id == id || created) && version > s.version && version-s.version <= maxReplay {
		if ok, err := s.replay(ctx, q, id, version); ok || err != nil {
			return err
		}
	}
	if tx != nil {
		return s.reload(ctx, tx, id)
	}
	// A consistent snapshot of row, items and notes.
	rtx, err := s.db.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return unavailable(ctx, err)
	}
	defer func() { _ = rtx.Rollback(context.WithoutCancel(ctx)) }()
	return s.reload(ctx, rtx, id)
}

// maxReplay bounds the commits a cache catches up on by their history
// entries; further behind, it reads the whole noggin.
const maxReplay = 200

// historySince reads the history entries of noggin $1 after seq $2, up to
// seq $3.
const historySince = `SELECT seq, entry, positions FROM history WHERE noggin = $1 AND seq > $2 AND seq <= $3 ORDER BY seq`

// entryRow is a history entry read for a catch-up.
type entryRow struct {
	seq      int64
	entry    noggin.Entry
	position map[string]string
}

// readSteps reads the rows of historySince; false when one does not parse.
func readSteps(ctx context.Context, rows pgx.Rows) ([]entryRow, bool, error) {
	defer rows.Close()
	var steps []entryRow
	for rows.Next() {
		var st entryRow
		var entry, positions string
		if err := rows.Scan(&st.seq, &entry, &positions); err != nil {
			return nil, false, unavailable(ctx, err)
		}
		var derr error
		if st.entry, derr = codec.DecodeEntry([]byte(entry)); derr != nil || json.Unmarshal([]byte(positions), &st.position) != nil {
			return nil, false, nil
		}
		steps = append(steps, st)
	}
	if err := rows.Err(); err != nil {
		return nil, false, unavailable(ctx, err)
	}
	return steps, true, nil
}

// replay applies the history entries after the cached version up to
// version; false when they are not all there (trimmed).
func (s *nogginStore) replay(ctx context.Context, q querier, id, version int64) (bool, error) {
	rows, err := q.Query(ctx, historySince, id, s.version, version)
	if err != nil {
		return false, unavailable(ctx, err)
	}
	steps, ok, err := readSteps(ctx, rows)
	if !ok || err != nil {
		return false, err
	}
	return s.applySteps(steps, id, version), nil
}

// applySteps moves the cache to version of row id by steps, the history
// entries after its version; false when they are not all there.
func (s *nogginStore) applySteps(steps []entryRow, id, version int64) bool {
	if int64(len(steps)) != version-s.version || (len(steps) > 0 && (steps[0].seq != s.version+1 || steps[0].entry.Before != s.digest)) {
		return false
	}
	if s.id != id { // the row another replica created, from the empty noggin
		s.id = id
		s.db.remember(s, id)
	}
	if !s.hub.Active() && len(steps) > 1 {
		// Unwatched, the steps are one Apply: one copy of the item list.
		var ops []noggin.Op
		for _, st := range steps {
			ops = append(ops, st.entry.Ops...)
		}
		next, err := noggin.Apply(s.doc, ops)
		if err != nil {
			return false
		}
		for _, st := range steps[:len(steps)-1] {
			s.movePositions(st.entry.Ops, st.position)
		}
		steps = steps[len(steps)-1:]
		last := steps[0]
		s.advance(next, last.entry.Ops, last.position, last.seq, last.entry.After)
		return true
	}
	for _, st := range steps {
		next, err := noggin.Apply(s.doc, st.entry.Ops)
		if err != nil {
			return false
		}
		s.advance(next, st.entry.Ops, st.position, st.seq, st.entry.After)
	}
	return true
}

// movePositions moves the cache's positions by a commit's ops and the
// positions it gave.
func (s *nogginStore) movePositions(ops []noggin.Op, positions map[string]string) {
	for _, op := range ops {
		if op.Type == noggin.OpRemove {
			for _, k := range op.Keys {
				delete(s.pos, k)
			}
		}
	}
	for k, p := range positions {
		s.pos[k] = p
	}
}

// advance moves the cache to next, the document after a commit.
func (s *nogginStore) advance(next *noggin.Document, ops []noggin.Op, positions map[string]string, seq int64, digest string) {
	s.movePositions(ops, positions)
	old := s.doc
	s.doc, s.version, s.digest = next, seq, digest
	next.SetRevision(func() string { return digest })
	s.publish(old, next)
}

// publish tells the watchers what changed from old to next.
func (s *nogginStore) publish(old, next *noggin.Document) {
	if old == nil || !s.hub.Active() {
		return
	}
	if ev, ok := noggin.WatchEvent(old, next); ok {
		s.hub.Publish(ev)
	}
}

// reload reads the whole noggin id.
func (s *nogginStore) reload(ctx context.Context, q querier, id int64) error {
	var version int64
	var active []byte
	var head *string
	var digest string
	err := q.QueryRow(ctx, `SELECT version, active, digest, head FROM noggins WHERE id = $1`, id).Scan(&version, &active, &digest, &head)
	if errors.Is(err, pgx.ErrNoRows) {
		s.reset()
		return nil
	}
	if err != nil {
		return unavailable(ctx, err)
	}
	doc, pos, err := readItems(ctx, q, id)
	if err != nil {
		return err
	}
	if head != nil {
		h, err := codec.DecodeJSON([]byte(*head))
		if err != nil {
			return noggin.Errorf(noggin.CodeInvalidDocument, "the noggin's stored head does not parse: %v", err)
		}
		doc.Order, doc.Extra = h.Order, h.Extra
	}
	doc.Active = string(active)
	_ = noggin.Validate(doc) // remembered when valid: later writes check only what they touch
	noggin.Index(doc)        // and index only what they change
	old := s.doc
	if !s.loaded {
		old = nil
	}
	s.loaded, s.id, s.version, s.digest, s.doc, s.pos = true, id, version, digest, doc, pos
	doc.SetRevision(func() string { return digest })
	s.db.remember(s, id)
	s.publish(old, doc)
	return nil
}

// readItems reads the items and notes of noggin id, in list order.
func readItems(ctx context.Context, q querier, id int64) (*noggin.Document, map[string]string, error) {
	rows, err := q.Query(ctx, `SELECT key, pos, parent_key, title, done, created_at, extra FROM items WHERE noggin = $1 ORDER BY pos`, id)
	if err != nil {
		return nil, nil, unavailable(ctx, err)
	}
	doc := noggin.NewDocument()
	pos := map[string]string{}
	byKey := map[string]*noggin.Item{}
	for rows.Next() {
		var p string
		var rawKey, parent, title, created []byte
		var extra *string
		var done bool
		if err := rows.Scan(&rawKey, &p, &parent, &title, &done, &created, &extra); err != nil {
			rows.Close()
			return nil, nil, unavailable(ctx, err)
		}
		key := string(rawKey)
		it := &noggin.Item{Notes: []noggin.Note{}}
		if extra != nil {
			if it, err = codec.DecodeItem([]byte(*extra)); err != nil {
				rows.Close()
				return nil, nil, noggin.Errorf(noggin.CodeInvalidDocument, "item %q: stored fields do not parse: %v", key, err)
			}
			if it.Notes != nil {
				it.Notes = []noggin.Note{}
			}
		}
		it.Key, it.Title, it.Done, it.ParentKey, it.CreatedAt = key, string(title), done, string(parent), nil
		if created != nil {
			c := string(created)
			it.CreatedAt = &c
		}
		doc.Items = append(doc.Items, it)
		pos[key] = p
		byKey[key] = it
	}
	if err := rows.Err(); err != nil {
		return nil, nil, unavailable(ctx, err)
	}
	rows, err = q.Query(ctx, `SELECT key, ts, body FROM notes WHERE noggin = $1 ORDER BY key, seq`, id)
	if err != nil {
		return nil, nil, unavailable(ctx, err)
	}
	for rows.Next() {
		var key, ts, body []byte
		if err := rows.Scan(&key, &ts, &body); err != nil {
			rows.Close()
			return nil, nil, unavailable(ctx, err)
		}
		if it := byKey[string(key)]; it != nil {
			it.Notes = append(it.Notes, noggin.Note{Text: string(body), Timestamp: string(ts)})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, unavailable(ctx, err)
	}
	return doc, pos, nil
}

// History reads the noggin's journal.
func (s *nogginStore) History(ctx context.Context) (noggin.Journal, error) {
	var id, version int64
	err := s.db.pool.QueryRow(ctx, `SELECT id, version FROM noggins WHERE name = $1`, s.name).Scan(&id, &version)
	if errors.Is(err, pgx.ErrNoRows) {
		return noggin.Journal{Missing: true}, nil
	}
	if err != nil {
		return noggin.Journal{}, unavailable(ctx, err)
	}
	return journal(ctx, s.db.pool, id, version)
}

func journal(ctx context.Context, q querier, id, version int64) (noggin.Journal, error) {
	rows, err := q.Query(ctx, `SELECT entry FROM history WHERE noggin = $1 ORDER BY seq`, id)
	if err != nil {
		return noggin.Journal{}, unavailable(ctx, err)
	}
	defer rows.Close()
	var j noggin.Journal
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return noggin.Journal{}, unavailable(ctx, err)
		}
		e, err := codec.DecodeEntry([]byte(line))
		if err != nil {
			j.Unreadable++
			continue
		}
		j.Entries = append(j.Entries, e)
	}
	if err := rows.Err(); err != nil {
		return noggin.Journal{}, unavailable(ctx, err)
	}
	j.Missing = len(j.Entries) == 0 && j.Unreadable == 0 && version == 0
	return j, nil
}

// Update runs one write as one transaction (see the package comment). A
// write with a receipt (noggin.Receipt) runs on a goroutine of its own and
// records its request id and answer in its history row.
func (s *nogginStore) Update(ctx context.Context, w noggin.Write) (*noggin.Document, error) {
	if err := noggin.Cancelled(ctx); err != nil {
		return nil, err
	}
	if r := noggin.ReceiptOf(ctx); r != nil {
		return r.Run(func(r *noggin.Receipt) (*noggin.Document, error) { return s.update(ctx, w, r) })
	}
	return s.update(ctx, w, nil)
}

// A write waits in its noggin's queue; the first writer to find no
// transaction running leads: it takes every write queued, runs them one
// after the other in one transaction (each planned on the document the
// one before left) and commits once, so that concurrent writers share one
// durable commit (group commit) instead of queueing on the row lock one
// fsync each. A write's answer is given once the commit is known.
type queued struct {
	// cancelled reports the caller gone (noggin.Cancelled of its context).
	cancelled func() error
	w         noggin.Write
	hold      *noggin.Receipt
	done      chan written
}

type written struct {
	doc *noggin.Document
	err error
}

// maxGroup bounds the writes of one transaction.
const maxGroup = 64

// update is Update; hold is the write's receipt (nil: none).
func (s *nogginStore) update(ctx context.Context, w noggin.Write, hold *noggin.Receipt) (*noggin.Document, error) {
	q := &queued{cancelled: func() error { return noggin.Cancelled(ctx) }, w: w, hold: hold, done: make(chan written, 1)}
	s.qmu.Lock()
	s.queue = append(s.queue, q)
	lead := !s.leading
	s.leading = true
	s.qmu.Unlock()
	if lead {
		s.lead(context.WithoutCancel(ctx)) // the groups complete even if their callers go away
	}
	r := <-q.done
	return r.doc, r.err
}

// lead runs the queued writes as one group, then hands the lead to a
// goroutine of its own while writes are left (its caller has its answer).
func (s *nogginStore) lead(ctx context.Context) {
	s.mu.Lock()
	s.group(ctx)
	s.mu.Unlock()
	s.qmu.Lock()
	defer s.qmu.Unlock()
	if len(s.queue) == 0 {
		s.leading = false
		return
	}
	go s.lead(ctx)
}

// take removes the writes of the next group from the queue.
func (s *nogginStore) take() []*queued {
	s.qmu.Lock()
	defer s.qmu.Unlock()
	group := s.queue[:min(len(s.queue), maxGroup)]
	s.queue = s.queue[len(group):]
	return group
}

// group runs the queued writes in one transaction and answers each of
// them. The transaction takes two round trips: one begins it, locks the
// noggin's row and reads the history the cache lacks; one sends the
// group's rows and commits.
func (s *nogginStore) group(ctx context.Context) {
	start := time.Now()
	conn, id, version, err := s.begin(ctx)
	writes := s.take()
	results := make([]written, len(writes))
	defer func() {
		for i, q := range writes {
			q.done <- results[i]
		}
	}()
	fail := func(err error) {
		for i := range results {
			results[i] = written{err: err}
		}
	}
	if conn != nil {
		defer conn.Release() // closed when left in a transaction
	}
	if err != nil {
		fail(err)
		return
	}
	if obs := s.db.Observe; obs != nil {
		obs("lock-wait", time.Since(start))
		defer func() { obs("write", time.Since(start)) }()
	}
	// The cache moves with each write of the group; published (and
	// answered) only once the commit is known.
	type step struct{ old, next *noggin.Document }
	var steps []step
	cursors := false
	first := version
	pending := &pgx.Batch{} // the group's statements, sent with its last ones
	for i, q := range writes {
		doc, moved, err := s.one(ctx, q, conn, pending, id, version)
		results[i] = written{doc: doc, err: err}
		if err != nil || doc == s.doc {
			continue
		}
		steps = append(steps, step{s.doc, doc})
		version++
		cursors = cursors || moved
		s.doc, s.version = doc, version
	}
	if version == first { // nothing to write: every plan failed or had no ops
		_, _ = conn.Exec(ctx, `ROLLBACK`) // on failure the connection is closed on release
		s.settle()                        // the catch-up's commits
		return
	}
	batch := pending
	batch.Queue(`UPDATE noggins SET version = $2, digest = $3, active = $4 WHERE id = $1`, id, version, s.digest, nullable(s.doc.Active))
	if cursors { // the cursors live in the head, with the other top-level fields
		batch.Queue(`UPDATE noggins SET head = $2 WHERE id = $1`, id, head(s.doc))
	}
	if version/100 != first/100 {
		batch.Queue(`DELETE FROM history WHERE noggin = $1 AND seq <= $2`, id, version-noggin.MaxHistory)
	}
	batch.Queue(`SELECT pg_notify($1, $2)`, channel, fmt.Sprintf("%d %d", id, version))
	batch.Queue(`COMMIT`)
	if beforeCommit != nil {
		beforeCommit(conn.Conn().PgConn().PID())
	}
	// Committed or not, a failure's outcome is unknown.
	if err := conn.SendBatch(ctx, batch).Close(); err != nil {
		s.loaded = false // read the noggin again before answering from it
		s.settle()
		fail(unavailable(ctx, err))
		return
	}
	s.settle()
	for _, st := range steps {
		s.publish(st.old, st.next)
	}
}

// begin begins a group's transaction on a connection of its own, locks
// the noggin's row (creating it for the first write) and brings the cache
// to the row's last commit, reading the history entries it lacks in the
// same round trip. The connection is returned even with an error.
func (s *nogginStore) begin(ctx context.Context) (conn *pgxpool.Conn, id, version int64, err error) {
	conn, err = s.db.pool.Acquire(ctx)
	if err != nil {
		return nil, 0, 0, unavailable(ctx, err)
	}
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	b.Queue(lockQuery, s.name)
	known := s.loaded && s.id != 0
	if known {
		b.Queue(historySince, s.id, s.version, s.version+maxReplay)
	}
	br := conn.SendBatch(ctx, b)
	var digest string
	_, err = br.Exec()
	if err == nil {
		err = br.QueryRow().Scan(&id, &version, &digest)
	}
	var steps []entryRow
	replayable := false
	if err == nil && known {
		var rows pgx.Rows
		if rows, err = br.Query(); err == nil {
			steps, replayable, err = readSteps(ctx, rows)
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, pgx.ErrNoRows) { // no row yet: created now
		id, version, digest, err = s.lockRow(ctx, conn)
	}
	if err != nil {
		return conn, 0, 0, unavailable(ctx, err)
	}
	s.locked(id, version, digest)
	if replayable && s.id == id && s.version < version && s.applySteps(steps, id, version) {
		return conn, id, version, nil
	}
	return conn, id, version, s.catchUp(ctx, conn, id, version)
}

// one plans and queues one write of a group on the cached document (the
// noggin at version, with the group's earlier writes), and sends its rows
// and history entry in tx, so that the next write's plan sees them. It
// returns the document after it (the cached one itself when the write
// writes nothing) and whether it moved a cursor, and moves the cache's
// positions and digest on.
func (s *nogginStore) one(ctx context.Context, q *queued, tx *pgxpool.Conn, pending *pgx.Batch, id, version int64) (*noggin.Document, bool, error) {
	if err := q.cancelled(); err != nil {
		return nil, false, err
	}
	// The group's statements run with ctx, the group's, never a caller's
	// (a cancelled statement would abort the others' transaction).
	// What reads the history sends the group's statements queued so far
	// first, so that it sees the group's earlier writes.
	flush := func() error {
		if len(pending.QueuedQueries) == 0 {
			return nil
		}
		err := tx.SendBatch(ctx, pending).Close()
		pending.QueuedQueries = nil
		if err != nil {
			return unavailable(ctx, err)
		}
		return nil
	}
	if q.hold != nil {
		if err := flush(); err != nil {
			return nil, false, err
		}
		if err := recorded(ctx, tx, id, q.hold); err != nil {
			return nil, false, err
		}
	}
	before := s.doc
	h := noggin.NewHistory(func() (noggin.Journal, error) {
		if err := flush(); err != nil {
			return noggin.Journal{}, err
		}
		return journal(ctx, tx, id, version)
	},
		func(string) string { return s.digest }) // one scheme: state tokens
	ops, err := q.w.Plan(before, h)
	if err != nil || len(ops) == 0 {
		return before, false, err
	}
	out, err := noggin.Apply(before, ops)
	if err != nil {
		return nil, false, err
	}
	entry, err := noggin.NewEntry(q.w, h, before, ops)
	if err != nil {
		return nil, false, err
	}
	entry.Seq, entry.Before, entry.After = int(version+1), s.digest, afterDigest(h, id, version+1)
	after := entry.After
	out.SetRevision(func() string { return after }) // the answer, made now, names the state to be committed
	var request *string
	if q.hold != nil {
		reply, ok := q.hold.Await(out)
		if !ok {
			return nil, false, noggin.NewError(noggin.CodeCancelled, noggin.F("reason", "canceled"))
		}
		entry.Request, entry.RequestDigest, entry.Reply, request = q.hold.ID, q.hold.Digest, string(reply), &q.hold.ID
	}
	// From here on the write completes even if the caller goes away.
	batch := &pgx.Batch{}
	positions := s.rowWrites(batch, id, before, out, ops)
	posJSON, _ := json.Marshal(positions)
	batch.Queue(`INSERT INTO history (noggin, seq, entry, positions, request) VALUES ($1, $2, $3, $4, $5)`,
		id, version+1, string(codec.EncodeEntry(entry)), string(posJSON), request)
	pending.QueuedQueries = append(pending.QueuedQueries, batch.QueuedQueries...)
	s.movePositions(ops, positions)
	s.digest = after
	return out, cursorsMoved(ops), nil
}

// recorded is the answer of the history row of r's request id of noggin
// id (nil: none; see noggin.Entry.Replied).
func recorded(ctx context.Context, tx *pgxpool.Conn, id int64, r *noggin.Receipt) error {
	var text string
	err := tx.QueryRow(ctx, `SELECT entry FROM history WHERE noggin = $1 AND request = $2`, id, r.ID).Scan(&text)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return unavailable(ctx, err)
	}
	e, err := codec.DecodeEntry([]byte(text))
	if err != nil {
		return &noggin.Replied{}
	}
	return e.Replied(r)
}

// beforeCommit, when set (by tests), runs just before a group sends its
// commit, with its connection's backend pid.
var beforeCommit func(pid uint32)

// lockQuery locks the noggin's row $1.
const lockQuery = `SELECT id, version, digest FROM noggins WHERE name = $1 FOR UPDATE`

// lockRow creates the noggin's row and locks it, in the transaction of tx.
func (s *nogginStore) lockRow(ctx context.Context, tx *pgxpool.Conn) (id, version int64, digest string, err error) {
	for range 2 {
		err = tx.QueryRow(ctx, lockQuery, s.name).Scan(&id, &version, &digest)
		if !errors.Is(err, pgx.ErrNoRows) {
			break
		}
		_, err = tx.Exec(ctx, `INSERT INTO noggins (name, digest) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, s.name, initialDigest)
		if err != nil {
			break
		}
	}
	return id, version, digest, err
}

// locked notes the locked row's state in the cache.
func (s *nogginStore) locked(id, version int64, digest string) {
	if s.loaded && s.id == 0 && version == 0 && digest == initialDigest {
		// The empty document the cache holds is the new row's (an
		// imported noggin's first state has a token of its own).
		s.id, s.digest = id, initialDigest
		s.db.remember(s, id)
	}
}

// initialDigest names the state of a noggin before its first write.
const initialDigest = "pg:0"

// importedDigest names the state an import leaves in row id.
func importedDigest(id int64) string { return fmt.Sprintf("pg:%d:0", id) }

// afterDigest names the state a write leaves: undo and redo restore the
// state before the write they take back (its Before), every other write
// makes a new one.
func afterDigest(h *noggin.History, id, seq int64) string {
	target := h.Undoes
	if h.Redoes != 0 {
		target = h.Redoes
	}
	if target != 0 {
		if j, err := h.Journal(); err == nil {
			for _, e := range j.Entries {
				if e.Seq == target {
					return e.Before
				}
			}
		}
	}
	return fmt.Sprintf("pg:%d:%d", id, seq)
}

// rowWrites queues the row changes that turn before into out: only the
// items the ops name. It returns the positions it gave to added and moved
// items.
func (s *nogginStore) rowWrites(b *pgx.Batch, id int64, before, out *noggin.Document, ops []noggin.Op) map[string]string {
	keys, moved := touched(ops)
	bi, ai := locate(before, keys), locate(out, keys)
	positions := s.newPositions(out, keys, bi, ai, moved)
	var removed []string
	for _, k := range keys {
		a, inOut := ai[k]
		bIdx, inBefore := bi[k]
		switch {
		case !inOut && inBefore:
			removed = append(removed, k)
		case inOut && !inBefore:
			queueInsert(b, id, out.Items[a], positions[k])
		case inOut:
			p, newPos := positions[k]
			if !newPos {
				p = s.pos[k]
			}
			queueChanged(b, id, k, out.Items[a], before.Items[bIdx], p, newPos)
		}
	}
	if len(removed) > 0 {
		// First: a position given now may be one a removed item held.
		rm := &pgx.Batch{}
		keys := make([][]byte, len(removed))
		for i, k := range removed {
			keys[i] = []byte(k)
		}
		rm.Queue(`DELETE FROM items WHERE noggin = $1 AND key = ANY($2)`, id, keys)
		b.QueuedQueries = append(rm.QueuedQueries, b.QueuedQueries...)
	}
	return positions
}

// cursorsMoved reports whether ops move an agent's cursor.
func cursorsMoved(ops []noggin.Op) bool {
	for _, op := range ops {
		if op.Type == noggin.OpCursor {
			return true
		}
	}
	return false
}

// touched lists the keys of the items ops add, remove or change (sorted,
// once each), and the moved ones.
func touched(ops []noggin.Op) (keys []string, moved map[string]bool) {
	moved = map[string]bool{}
	for _, op := range ops {
		switch op.Type {
		case noggin.OpAdd:
			keys = append(keys, op.Item.Key)
		case noggin.OpRemove:
			keys = append(keys, op.Keys...)
		case noggin.OpMove:
			moved[op.Key] = true
			keys = append(keys, op.Key)
		case noggin.OpSet, noggin.OpNote, noggin.OpUnnote:
			keys = append(keys, op.Key)
		case noggin.OpSetActive, noggin.OpCursor: // the document's row, not an item's
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys), moved
}

// newPositions gives the added and moved items their positions, run by run
// of neighbours in out.
func (s *nogginStore) newPositions(out *noggin.Document, keys []string, bi, ai map[string]int, moved map[string]bool) map[string]string {
	var need []int
	for _, k := range keys {
		if a, ok := ai[k]; ok {
			if _, had := bi[k]; !had || moved[k] {
				need = append(need, a)
			}
		}
	}
	sort.Ints(need)
	positions := make(map[string]string, len(need))
	for i := 0; i < len(need); {
		j := i
		for j+1 < len(need) && need[j+1] == need[j]+1 {
			j++
		}
		lo, hi := "", ""
		if need[i] > 0 {
			lo = s.pos[out.Items[need[i]-1].Key]
		}
		if need[j]+1 < len(out.Items) {
			hi = s.pos[out.Items[need[j]+1].Key]
		}
		for n, p := range spread(lo, hi, j-i+1) {
			positions[out.Items[need[i]+n].Key] = p
		}
		i = j + 1
	}
	return positions
}

// queueChanged queues the update of an item that is in both documents (na
// now, nb before) at position p (newPos: a new one).
func queueChanged(b *pgx.Batch, id int64, k string, na, nb *noggin.Item, p string, newPos bool) {
	if newPos || na.Title != nb.Title || na.Done != nb.Done || na.ParentKey != nb.ParentKey {
		b.Queue(`UPDATE items SET pos = $3, parent_key = $4, title = $5, done = $6 WHERE noggin = $1 AND key = $2`,
			id, []byte(k), p, nullable(na.ParentKey), []byte(na.Title), na.Done)
	}
	// Notes change at the end (note, unnote); from the first one that
	// differs, the rows are replaced.
	same := 0
	for same < len(na.Notes) && same < len(nb.Notes) && na.Notes[same] == nb.Notes[same] {
		same++
	}
	if same < len(nb.Notes) {
		b.Queue(`DELETE FROM notes WHERE noggin = $1 AND key = $2 AND seq >= $3`, id, []byte(k), same)
	}
	for i := same; i < len(na.Notes); i++ {
		queueNote(b, id, k, i, na.Notes[i])
	}
}

func queueInsert(b *pgx.Batch, id int64, it *noggin.Item, pos string) {
	b.Queue(`INSERT INTO items (noggin, key, pos, parent_key, title, done, created_at, extra) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		id, []byte(it.Key), pos, nullable(it.ParentKey), []byte(it.Title), it.Done, nullablePtr(it.CreatedAt), extraColumn(it))
	for i, n := range it.Notes {
		queueNote(b, id, it.Key, i, n)
	}
}

func queueNote(b *pgx.Batch, id int64, key string, seq int, n noggin.Note) {
	b.Queue(`INSERT INTO notes (noggin, key, seq, ts, body) VALUES ($1, $2, $3, $4, $5)`, id, []byte(key), seq, nullable(n.Timestamp), []byte(n.Text))
}

// nullable maps "" (the model's null) to SQL NULL, and text to bytea.
func nullable(s string) []byte {
	if s == "" {
		return nil
	}
	return []byte(s)
}

// extraColumn is an item's extra column: the item encoded whole (as JSON,
// codec.EncodeItem) when it has foreign fields to keep, else NULL.
func extraColumn(it *noggin.Item) *string {
	if !it.HasForeignFields() {
		return nil
	}
	e := string(codec.EncodeItem(it))
	return &e
}

// nullablePtr maps nil to SQL NULL, and text (even "") to bytea.
func nullablePtr(s *string) []byte {
	if s == nil {
		return nil
	}
	return append(make([]byte, 0, len(*s)), *s...) // non-nil: "" is not NULL
}

// locate finds the index in doc.Items of each key's item.
func locate(doc *noggin.Document, keys []string) map[string]int {
	at := make(map[string]int, len(keys))
	for _, k := range keys {
		if i := noggin.IndexOf(doc, k); i >= 0 {
			at[k] = i
		}
	}
	return at
}
