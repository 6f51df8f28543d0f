package noggin

import "errors"

// The results read back from an envelope's data, as parsed by
// envelope.Decode: objects as []Field in their order, arrays as []any,
// integral numbers as int. Each Decode… function turns it into the result
// type whose AppendJSON writes the same bytes again; null is the type's
// nil.

// DecodeView reads a view (push, add, move, goto, done, pop, edit, show,
// note).
func DecodeView(d any) (Result, error) {
	if d == nil {
		return (*View)(nil), nil
	}
	return toView(d)
}

// DecodeDelete reads delete's result.
func DecodeDelete(d any) (Result, error) {
	if d == nil {
		return (*DeleteResult)(nil), nil
	}
	fs, ok := d.([]Field)
	if !ok {
		return nil, errors.New("envelope: delete data is not an object")
	}
	r := &DeleteResult{}
	for _, f := range fs {
		switch f.Name {
		case "deleted":
			for _, g := range asFields(f.Value) {
				s, _ := g.Value.(string)
				switch g.Name {
				case "key":
					r.Deleted.Key = s
				case "path":
					r.Deleted.Path = s
				case "title":
					r.Deleted.Title = s
				}
			}
		case "descendantCount":
			r.DescendantCount, _ = f.Value.(int)
		case "view":
			v, err := toView(f.Value)
			if err != nil {
				return nil, err
			}
			r.View = v
		}
	}
	return r, nil
}

// DecodeCopy reads copy's result.
func DecodeCopy(d any) (Result, error) {
	if d == nil {
		return (*CopyResult)(nil), nil
	}
	r := &CopyResult{}
	for _, f := range asFields(d) {
		switch f.Name {
		case "copied":
			r.Copied, _ = f.Value.(int)
		case "mapping":
			for _, g := range asFields(f.Value) {
				s, _ := g.Value.(string)
				r.Mapping = append(r.Mapping, KeyPair{Old: g.Name, New: s})
			}
		case "narrowed":
			r.Narrowed, _ = f.Value.(string)
		}
	}
	return r, nil
}

// DecodeLocation reads where's result.
func DecodeLocation(d any) (Result, error) {
	s, ok := d.(string)
	if fs, isObj := d.([]Field); isObj { // an agent's where
		var l AgentLocation
		for _, f := range fs {
			v, _ := f.Value.(string)
			switch f.Name {
			case "location":
				l.Location = v
			case "agent":
				l.Agent = v
			}
		}
		return l, nil
	}
	if !ok {
		return nil, errors.New("envelope: where data is not a string")
	}
	return Location(s), nil
}

// DecodeProviders reads providers' result.
func DecodeProviders(d any) (Result, error) {
	ps := Providers{}
	for _, e := range asSlice(d) {
		for _, g := range asFields(e) {
			if g.Name == "scheme" {
				s, _ := g.Value.(string)
				ps = append(ps, Provider{Scheme: s})
			}
		}
	}
	return ps, nil
}

// DecodeFind reads find's result.
func DecodeFind(d any) (Result, error) {
	if d == nil {
		return (*FindResult)(nil), nil
	}
	r := &FindResult{Matches: []FindMatch{}}
	for _, f := range asFields(d) {
		switch f.Name {
		case "total":
			r.Total, _ = f.Value.(int)
		case "matches":
			for _, e := range asSlice(f.Value) {
				var m FindMatch
				for _, g := range asFields(e) {
					switch g.Name {
					case "key":
						m.Key, _ = g.Value.(string)
					case "path":
						m.Path, _ = g.Value.(string)
					case "title":
						m.Title, _ = g.Value.(string)
					case "done":
						m.Done, _ = g.Value.(bool)
					case "notes":
						for _, ts := range asSlice(g.Value) {
							s, _ := ts.(string)
							m.Notes = append(m.Notes, s)
						}
					}
				}
				r.Matches = append(r.Matches, m)
			}
		}
	}
	return r, nil
}

// DecodeLog reads log's result.
func DecodeLog(d any) (Result, error) {
	if d == nil {
		return (*LogResult)(nil), nil
	}
	r := &LogResult{Entries: []*Entry{}}
	for _, f := range asFields(d) {
		switch f.Name {
		case "entries":
			for _, e := range asSlice(f.Value) {
				r.Entries = append(r.Entries, toEntry(e))
			}
		case "unreadable":
			r.Unreadable, _ = f.Value.(int)
		case "missing":
			r.Missing, _ = f.Value.(bool)
		}
	}
	return r, nil
}

// DecodeUndo reads undo's and redo's result.
func DecodeUndo(d any) (Result, error) {
	if d == nil {
		return (*UndoResult)(nil), nil
	}
	r := &UndoResult{}
	for _, f := range asFields(d) {
		switch f.Name {
		case "entry":
			r.Entry = toEntry(f.Value)
		case "view":
			v, err := toView(f.Value)
			if err != nil {
				return nil, err
			}
			r.View = v
		}
	}
	return r, nil
}

func asFields(v any) []Field { fs, _ := v.([]Field); return fs }
func asSlice(v any) []any    { a, _ := v.([]any); return a }

func toView(d any) (*View, error) {
	if d == nil {
		return nil, nil
	}
	fs, ok := d.([]Field)
	if !ok {
		return nil, errors.New("envelope: view is not an object")
	}
	v := &View{}
	for _, f := range fs {
		switch f.Name {
		case "activePath":
			v.ActivePath, _ = f.Value.(string)
		case "activeKey":
			v.ActiveKey, _ = f.Value.(string)
		case "cursor":
			v.Cursor, _ = f.Value.(string)
		case "targetKey":
			v.TargetKey, _ = f.Value.(string)
		case "window":
			v.Window, _ = f.Value.(int)
		case "narrowed":
			v.Narrowed, _ = f.Value.(string)
		case "omittedBefore":
			v.OmittedBefore, _ = f.Value.(int)
		case "omittedAfter":
			v.OmittedAfter, _ = f.Value.(int)
		case "items":
			v.Items = toNodes(f.Value)
		}
	}
	return v, nil
}

func toNodes(v any) []*Node {
	a := asSlice(v)
	ns := make([]*Node, 0, len(a))
	for _, e := range a {
		n := &Node{}
		for _, f := range asFields(e) {
			switch f.Name {
			case "key":
				n.Key, _ = f.Value.(string)
			case "parentKey":
				n.ParentKey, _ = f.Value.(string)
			case "path":
				n.Path, _ = f.Value.(string)
			case "position":
				n.Position, _ = f.Value.(int)
			case "title":
				n.Title, _ = f.Value.(string)
			case "done":
				n.Done, _ = f.Value.(bool)
			case "createdAt":
				if s, ok := f.Value.(string); ok {
					n.CreatedAt = &s
				}
			case "notes":
				for _, ne := range asSlice(f.Value) {
					n.Notes = append(n.Notes, toNote(ne))
				}
			case "noteCount":
				n.NoteCount, _ = f.Value.(int)
			case "omittedBefore":
				n.OmittedBefore, _ = f.Value.(int)
			case "omittedAfter":
				n.OmittedAfter, _ = f.Value.(int)
			case "children":
				n.Expanded = true
				n.Children = toNodes(f.Value)
			}
		}
		ns = append(ns, n)
	}
	return ns
}

// toEntry reads a history entry as log, undo and redo write it.
func toEntry(v any) *Entry {
	if v == nil {
		return nil
	}
	e := &Entry{}
	for _, f := range asFields(v) {
		switch f.Name {
		case "seq":
			e.Seq, _ = f.Value.(int)
		case "time":
			e.Time, _ = f.Value.(string)
		case "verb":
			e.Verb, _ = f.Value.(string)
		case "agent":
			e.Agent, _ = f.Value.(string)
		case "principal":
			e.Principal, _ = f.Value.(string)
		case "undoes":
			e.Undoes, _ = f.Value.(int)
		case "redoes":
			e.Redoes, _ = f.Value.(int)
		case "changes":
			for _, c := range asSlice(f.Value) {
				var ch EntryChange
				for _, g := range asFields(c) {
					s, _ := g.Value.(string)
					switch g.Name {
					case "kind":
						ch.Kind = s
					case "key":
						ch.Key = s
					case "title":
						ch.Title = s
					case "cursor":
						ch.Cursor = s
					}
				}
				e.Changes = append(e.Changes, ch)
			}
		}
	}
	return e
}

func toNote(v any) Note {
	var note Note
	for _, g := range asFields(v) {
		s, _ := g.Value.(string)
		switch g.Name {
		case "timestamp":
			note.Timestamp = s
		case "text":
			note.Text = s
		}
	}
	return note
}
