package noggin

import (
	"context"
	"errors"
)

// A Receipt makes one write exactly-once: a client that lost the answer
// retries with the same request id, and gets the first answer instead of a
// second write. The store records the id and the answer (the reply) with
// the write itself — in the same journal entry or history row — so that a
// retry finds them whichever process receives it, after a restart too.
//
// The answer is known only once the verb has turned the written document
// into its result, after Update returns. So a store runs such a write on a
// goroutine of its own (Run): the write stops just before it commits
// (Await), Update returns the document, the caller renders the answer and
// hands it over (Commit), and the write records it and commits.
type Receipt struct {
	// ID is the request id; Digest the fingerprint of its request: the
	// id of another request is refused (request-id-reused).
	ID, Digest string

	used    bool
	ready   chan *Document // the write awaits its reply
	done    chan error     // the write ended
	replies chan []byte    // the reply; nil: abort
	waiting bool
	ended   bool
	err     error
}

// NewReceipt returns the receipt of a write with request id id, made for
// the request whose fingerprint is digest.
func NewReceipt(id, digest string) *Receipt { return &Receipt{ID: id, Digest: digest} }

type receiptKey struct{}

// WithReceipt returns ctx carrying r.
func WithReceipt(ctx context.Context, r *Receipt) context.Context {
	return context.WithValue(ctx, receiptKey{}, r)
}

// ReceiptOf returns the receipt ctx carries, or nil.
func ReceiptOf(ctx context.Context) *Receipt {
	r, _ := ctx.Value(receiptKey{}).(*Receipt)
	return r
}

// Replied is the error of a write whose request id the noggin has already
// recorded: Reply is the answer of that first write (nil: the write was
// made but its answer was not recorded).
type Replied struct {
	Reply []byte
}

func (e *Replied) Error() string { return "request already applied" }

// errReceiptUsed: a receipt covers one write.
var errReceiptUsed = errors.New("internal error: a request id covers one write")

// Run runs write on a goroutine and returns the document it writes as soon
// as it awaits its reply, or its result if it ends first (an error, or a
// write with nothing to write). write gets r, to Await with.
func (r *Receipt) Run(write func(r *Receipt) (*Document, error)) (*Document, error) {
	if r.used {
		return nil, errReceiptUsed
	}
	r.used = true
	r.ready, r.done, r.replies = make(chan *Document), make(chan error, 1), make(chan []byte)
	result := make(chan *Document, 1)
	go func() {
		defer func() {
			// A panic belongs to the caller, as if the write ran there (the
			// request layer turns it into an internal error envelope).
			if v := recover(); v != nil {
				r.done <- panicked{v}
			}
		}()
		doc, err := write(r)
		result <- doc
		r.done <- err
	}()
	select {
	case doc := <-r.ready:
		r.waiting = true
		return doc, nil
	case err := <-r.done:
		r.ended, r.err = true, err
		var p panicked
		if errors.As(err, &p) {
			panic(p.value) //nolint:forbidigo // the write's own panic, raised again in its caller's goroutine
		}
		return <-result, err
	}
}

// panicked carries a panic of the write's goroutine to the caller's.
type panicked struct{ value any }

func (p panicked) Error() string { return "panic in a write" }

// Await is called by the write, just before it commits next: it returns
// the reply to record with it, or ok false when the caller gave up (the
// write then writes nothing).
func (r *Receipt) Await(next *Document) (reply []byte, ok bool) {
	r.ready <- next
	reply = <-r.replies
	return reply, reply != nil
}

// Commit hands the reply to a write awaiting it and returns how the write
// ended. Without such a write it does nothing.
func (r *Receipt) Commit(reply []byte) error {
	if !r.waiting || r.ended {
		return nil
	}
	if reply == nil {
		reply = []byte{}
	}
	r.replies <- reply
	r.ended, r.err = true, <-r.done
	var p panicked
	if errors.As(r.err, &p) {
		panic(p.value) //nolint:forbidigo // the write's own panic, raised again in its caller's goroutine
	}
	return r.err
}

// Abort makes a write awaiting its reply write nothing.
func (r *Receipt) Abort() {
	if !r.waiting || r.ended {
		return
	}
	r.replies <- nil
	r.ended, r.err = true, <-r.done
}

// Recorded returns the Replied error of the entry of entries (a journal,
// oldest first) made for r's request id, request-id-reused when that entry
// was made for another request, or nil when there is none. digest gives
// the noggin's digest in the scheme of its argument. A last entry whose
// write never happened (the journal is appended to just before the noggin
// is replaced, and a process can die in between) does not count: see
// Phantom.
func Recorded(entries []Entry, r *Receipt, digest func(like string) string) error {
	if r == nil || r.ID == "" {
		return nil
	}
	for i := len(entries) - 1; i >= 0; i-- {
		e := &entries[i]
		if e.Request != r.ID {
			continue
		}
		if i == len(entries)-1 && Phantom(e, digest) {
			return nil
		}
		return e.Replied(r)
	}
	return nil
}

// Replied is the answer to r of e, the entry recorded for r's request id:
// its reply, or request-id-reused when e was made for another request (an
// entry written before fingerprints were recorded matches any).
func (e *Entry) Replied(r *Receipt) error {
	if e.RequestDigest != "" && r.Digest != "" && e.RequestDigest != r.Digest {
		return NewError(CodeRequestIDReused, F("requestId", r.ID))
	}
	if e.Reply == "" {
		return &Replied{}
	}
	return &Replied{Reply: []byte(e.Reply)}
}

// Phantom reports whether e, a journal's last entry, describes a write that
// never happened: the noggin is still as it was before it, not as after.
func Phantom(e *Entry, digest func(like string) string) bool {
	return e.Before != "" && e.After != e.Before && digest(e.After) != e.After && digest(e.Before) == e.Before
}
