package noggin

import (
	"context"
	"time"
)

// OpType names an atomic op.
type OpType string

// The six atomic ops (docs/file-format.md), and unnote, which only the
// history uses: it takes back a note (the inverse of note).
const (
	OpAdd       OpType = "add"
	OpRemove    OpType = "remove"
	OpSet       OpType = "set"
	OpNote      OpType = "note"
	OpMove      OpType = "move"
	OpSetActive OpType = "setActive"
	OpUnnote    OpType = "unnote"
	// OpCursor moves an agent's cursor (see Through), new in noggin for Go.
	OpCursor OpType = "cursor"
)

// Op is one atomic op. Which fields matter depends on Type:
//   - add: Item (its Key), ParentKey, Position/AtEnd
//   - remove: Keys
//   - set: Key, Title and/or Done (nil = not patched)
//   - note: Key, Note
//   - move: Key, ParentKey, Position/AtEnd
//   - setActive: Key ("" = null)
//   - unnote: Key (drops the item's last note)
//   - cursor: Cursor (the agent), Key ("" = null); Unset drops the cursor
type Op struct {
	Type      OpType
	Key       string
	Keys      []string
	Item      *Item
	ParentKey string
	// Position is the 0-based index among the target parent's children;
	// ignored when AtEnd. A negative Position is invalid-op.
	Position int
	AtEnd    bool
	// Flat makes Position the index in the document's flat item list
	// instead of among the parent's children: the inverse ops of the
	// history put items back exactly where they were.
	Flat  bool
	Title *string
	Done  *bool
	Note  *Note
	// Cursor and Unset are the cursor op's agent and removal.
	Cursor string
	Unset  bool
}

// Store is a live noggin: a document behind a location. Implementations
// live in package store. All methods are safe for concurrent use.
type Store interface {
	// Load returns the current document. Long-lived stores return a cached
	// copy unless the backing file changed. The caller must not mutate it.
	Load(ctx context.Context) (*Document, error)
	// Update runs one atomic read-plan-write cycle. w.Plan computes the ops
	// from a document it must not mutate. Update first calls plan on the
	// current (cached) document: an error is returned at once, and no ops
	// means nothing is written (the planned document is returned). Otherwise
	// it takes the write lock, re-reads the freshest document, calls plan
	// again on it (so concurrent writers never compute from stale state),
	// applies the ops with Apply (which validates), persists the result and
	// returns it. Nothing is written on any failure.
	//
	// Both stop when ctx is done before they finish (a caller that went
	// away: Ctrl-C, a cancelled MCP request, a disconnected RPC client),
	// with the cancelled error and nothing written; waiting for the write
	// lock is where that matters. Once the write has begun it completes.
	//
	// A store that keeps a history appends one entry for the write (see
	// Write and Entry) under the same lock; a history that cannot be read
	// or written never stops the write.
	Update(ctx context.Context, w Write) (*Document, error)
	// History reads the noggin's journal.
	History(ctx context.Context) (Journal, error)
	// Describe returns the location exactly as the caller supplied it.
	Describe() string
	// Watch streams change events (own writes and external changes) until
	// ctx is done; the channel is then closed.
	Watch(ctx context.Context) <-chan Event
}

// Event is one observable change of a store: a non-empty change list and
// the document after it.
type Event struct {
	Changes []Change
	Doc     *Document
	// Err is set instead (Changes empty) when a reload outside a write failed.
	Err error
}

// KeySource generates item keys.
type KeySource interface {
	// NewKeys returns n fresh keys for items to be added to doc at time now.
	NewKeys(doc *Document, now time.Time, n int) []string
}

// Engine runs the verbs. Its clock and key source are the determinism seam.
type Engine struct {
	Now  func() time.Time
	Keys KeySource
}

// Placement is where add/move put an item: Kind is before, after or into;
// Anchor is a path.
type Placement struct {
	Kind   string
	Anchor string
}

// Goto is the optional cursor move of add, move, edit, show and note.
// Absent: Present false. `true`: Present and Self. A path: Present and Path.
// Present with neither Self nor a non-empty Path is the falsy goto
// ("", false, null), which fails with goto-path-required.
type Goto struct {
	Present bool
	Self    bool
	Path    string
}

// The options of each verb. Zero values are the defaults.
type (
	// PushOpts are push's options.
	PushOpts struct{ Title string }
	// AddOpts are add's options.
	AddOpts struct {
		Title     string
		Placement *Placement
		Goto      Goto
	}
	// MoveOpts are move's options.
	MoveOpts struct {
		Path      string
		Placement *Placement
		Goto      Goto
	}
	// GotoOpts are goto's options.
	GotoOpts struct{ Path string }
	// DoneOpts are done's options.
	DoneOpts struct {
		Path            string
		Force, CloseAll bool
		Goto            Goto
	}
	// PopOpts are pop's options.
	PopOpts struct {
		// HasPath is true when any path was passed (pop-no-path).
		HasPath         bool
		Force, CloseAll bool
		Goto            Goto
	}
	// EditOpts are edit's options.
	EditOpts struct {
		Path string
		// Done: nil = no state change, true = close, false = reopen.
		Done *bool
		// Title: nil = absent. A blank title counts as absent.
		Title           *string
		Force, CloseAll bool
		Goto            Goto
	}
	// ShowOpts are show's options.
	ShowOpts struct {
		Path                          string
		NoChildren                    bool
		WithSiblings, WithDescendants bool
		Goto                          Goto
	}
	// NoteOpts are note's options.
	NoteOpts struct {
		Path string
		Text string
		Goto Goto
	}
	// DeleteOpts are delete's options.
	DeleteOpts struct {
		Path      string
		Recursive bool
		Goto      Goto
	}
)

// View is the CurrentTreeView (docs/cli.md). "" stands for null in
// ActivePath and ActiveKey. A view shares its nodes' notes and createdAt
// with the document it was built from: treat it as read-only, like the
// document (see Document).
type View struct {
	ActivePath string
	ActiveKey  string
	// Cursor is the agent whose cursor the active item is ("" for the
	// shared active item).
	Cursor    string
	TargetKey string
	// Window is the cap on every row (0: none); Narrowed names the last
	// step a byte budget took ("": none). OmittedBefore and OmittedAfter
	// count the root row's nodes left out before and after the ones kept.
	Window                      int
	Narrowed                    string
	OmittedBefore, OmittedAfter int
	Items                       []*Node
}

// Node is one rendered item of a View.
type Node struct {
	Key       string
	ParentKey string
	Path      string
	Position  int
	Title     string
	Done      bool
	CreatedAt *string
	Notes     []Note
	// NoteCount counts notes left out of the view (a budget's "notes"
	// step); OmittedBefore and OmittedAfter count the children left out
	// before and after the ones kept (a window).
	NoteCount                   int
	OmittedBefore, OmittedAfter int
	// Expanded is true when the node's child row is rendered (JSON
	// "children" present, possibly empty).
	Expanded bool
	Children []*Node
}

// DeletedItem identifies the item a delete removed.
type DeletedItem struct {
	Key, Path, Title string
}

// DeleteResult is the result of delete. View is nil when no item is active.
type DeleteResult struct {
	Deleted         DeletedItem
	DescendantCount int
	View            *View
}

// KeyPair maps a source key to the key of its copy.
type KeyPair struct{ Old, New string }

// CopyResult is the result of copy; Mapping is in copy order. Narrowed is
// NarrowMapping when a byte budget left the mapping out.
type CopyResult struct {
	Copied   int
	Mapping  []KeyPair
	Narrowed string
}

// Provider is one registered location scheme.
type Provider struct{ Scheme string }

// ChangeKind is the kind of an ItemChange.
type ChangeKind string

// The change vocabulary (docs/rpc.md).
const (
	ChangeAdded         ChangeKind = "added"
	ChangeRemoved       ChangeKind = "removed"
	ChangeMoved         ChangeKind = "moved"
	ChangeUpdated       ChangeKind = "updated"
	ChangeActiveChanged ChangeKind = "activeChanged"
)

// Slot is a place in the tree: a parent ("" = root level) and a 0-based position.
type Slot struct {
	ParentKey string
	Position  int
}

// Change is one ItemChange. Fields used per kind:
//   - added: Key, At
//   - removed: Key
//   - moved: Key, From, To
//   - updated: Key, Fields ("title", "done", "notes" in that order)
//   - activeChanged: FromKey, ToKey ("" = null)
type Change struct {
	Kind     ChangeKind
	Key      string
	At       Slot
	From, To Slot
	Fields   []string
	FromKey  string
	ToKey    string
}
