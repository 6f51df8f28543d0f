package noggin

import "context"

// reads tracks the documents one engine call reads through its stores, so
// that the call returns the error of an item of theirs that could not be
// decoded (see Undecoded) instead of what it read, and writes nothing
// planned from such an item.
type reads struct{ docs []*Document }

// track returns s reading through r.
func (r *reads) track(s Store) Store {
	if s == nil {
		return nil
	}
	return trackedStore{Store: s, r: r}
}

// err is the first undecodable item's error among the documents read.
func (r *reads) err() error {
	for _, d := range r.docs {
		if err := d.Undecodable(); err != nil {
			return err
		}
	}
	return nil
}

// check, deferred by an engine call, replaces its result by that error.
func (r *reads) check(err *error) {
	if *err == nil {
		*err = r.err()
	}
}

type trackedStore struct {
	Store
	r *reads
}

func (t trackedStore) Load(ctx context.Context) (*Document, error) {
	d, err := t.Store.Load(ctx)
	if d != nil {
		t.r.docs = append(t.r.docs, d)
	}
	return d, err
}

// Update plans on documents the call may have read from others (copy):
// a plan that met an undecodable item writes nothing.
func (t trackedStore) Update(ctx context.Context, w Write) (*Document, error) {
	plan := w.Plan
	w.Plan = func(d *Document, h *History) ([]Op, error) {
		ops, err := plan(d, h)
		if err == nil {
			err = d.Undecodable()
		}
		if err == nil {
			err = t.r.err()
		}
		return ops, err
	}
	d, err := t.Store.Update(ctx, w)
	if d != nil {
		t.r.docs = append(t.r.docs, d)
	}
	return d, err
}
