package noggin

// This file declares the engine's entry points. Bodies marked TODO are
// being implemented; the signatures are the contract every surface uses.

// Push creates a child of the active item (a new last root when none is
// active) and makes it active.
func (e *Engine) Push(s Store, o PushOpts) (*View, error) { panic("TODO") }

// Add creates an item without moving the cursor (unless o.Goto).
func (e *Engine) Add(s Store, o AddOpts) (*View, error) { panic("TODO") }

// Move relocates an item and its subtree.
func (e *Engine) Move(s Store, o MoveOpts) (*View, error) { panic("TODO") }

// Goto makes an item active.
func (e *Engine) Goto(s Store, o GotoOpts) (*View, error) { panic("TODO") }

// Done closes an item and makes its parent active.
func (e *Engine) Done(s Store, o DoneOpts) (*View, error) { panic("TODO") }

// Pop is done on the active item.
func (e *Engine) Pop(s Store, o PopOpts) (*View, error) { panic("TODO") }

// Edit changes an item's done state and/or title.
func (e *Engine) Edit(s Store, o EditOpts) (*View, error) { panic("TODO") }

// Show returns the view of an item; nil (no error) when there is no target.
func (e *Engine) Show(s Store, o ShowOpts) (*View, error) { panic("TODO") }

// Note appends a timestamped note to an item.
func (e *Engine) Note(s Store, o NoteOpts) (*View, error) { panic("TODO") }

// Delete removes an item (and with o.Recursive its subtree).
func (e *Engine) Delete(s Store, o DeleteOpts) (*DeleteResult, error) { panic("TODO") }

// Copy appends every item of src to dst with fresh keys. A nil src is
// source-required, a nil dst dest-required.
func (e *Engine) Copy(src, dst Store) (*CopyResult, error) { panic("TODO") }
