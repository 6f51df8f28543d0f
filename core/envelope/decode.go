package envelope

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/noggin-go/noggin/core/noggin"
)

// Decode parses the bytes Encode writes back into an Envelope whose Data
// has its verb's typed form — *noggin.View (nil for null), a
// *noggin.DeleteResult, a *noggin.CopyResult, a string (where), a
// []noggin.Provider — so that a client of a remote noggin renders and
// re-encodes it as if the verb had run locally: Encode of the result gives
// the same bytes. Error messages come back complete (Literal) and data
// fields in their order. Bytes that are not an envelope are an error.
func Decode(b []byte) (Envelope, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := readValue(dec)
	if err != nil {
		return Envelope{}, fmt.Errorf("envelope: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Envelope{}, errors.New("envelope: trailing data")
	}
	top, ok := v.([]noggin.Field)
	if !ok {
		return Envelope{}, errors.New("envelope: not an object")
	}
	get := func(fs []noggin.Field, name string) (any, bool) {
		for _, f := range fs {
			if f.Name == name {
				return f.Value, true
			}
		}
		return nil, false
	}
	if ver, _ := get(top, "envelopeVersion"); ver != Version {
		return Envelope{}, fmt.Errorf("envelope: envelopeVersion %v, want %d", ver, Version)
	}
	var env Envelope
	verb, _ := get(top, "verb")
	env.Verb, _ = verb.(string)
	status, _ := get(top, "status")
	switch status {
	case "ok":
		data, _ := get(top, "data")
		env.Data, err = typedData(env.Verb, data)
		return env, err
	case "error":
		e, _ := get(top, "error")
		fs, ok := e.([]noggin.Field)
		if !ok {
			return Envelope{}, errors.New("envelope: error is not an object")
		}
		ne := &noggin.Error{Literal: true}
		code, _ := get(fs, "code")
		msg, _ := get(fs, "message")
		exit, _ := get(fs, "exitCode")
		ne.Code, _ = code.(string)
		ne.Message, _ = msg.(string)
		ne.ExitCode, _ = exit.(int)
		if d, ok := get(fs, "data"); ok {
			ne.Data, _ = d.([]noggin.Field)
		}
		if ne.Code == "" {
			return Envelope{}, errors.New("envelope: error without code")
		}
		env.Err = ne
		return env, nil
	}
	return Envelope{}, fmt.Errorf("envelope: status %v", status)
}

// readValue reads one JSON value: objects as ordered []noggin.Field,
// arrays as []any, integral numbers as int, other numbers as
// noggin.Number.
func readValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			fs := []noggin.Field{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				fs = append(fs, noggin.Field{Name: k.(string), Value: v})
			}
			_, err := dec.Token()
			return fs, err
		case '[':
			a := []any{}
			for dec.More() {
				v, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token()
			return a, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil && i >= math.MinInt32 && i <= math.MaxInt32 {
			return int(i), nil
		}
		return noggin.Number(t), nil
	default: // string, bool, nil
		return t, nil
	}
}

// typedData turns a success payload into the form the verb's data has.
func typedData(verb string, d any) (any, error) {
	switch verb {
	case "push", "add", "move", "goto", "done", "pop", "edit", "show", "note":
		if d == nil {
			return (*noggin.View)(nil), nil
		}
		return toView(d)
	case "delete":
		fs, ok := d.([]noggin.Field)
		if !ok {
			return nil, errors.New("envelope: delete data is not an object")
		}
		r := &noggin.DeleteResult{}
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
	case "copy":
		r := &noggin.CopyResult{}
		for _, f := range asFields(d) {
			switch f.Name {
			case "copied":
				r.Copied, _ = f.Value.(int)
			case "mapping":
				for _, g := range asFields(f.Value) {
					s, _ := g.Value.(string)
					r.Mapping = append(r.Mapping, noggin.KeyPair{Old: g.Name, New: s})
				}
			}
		}
		return r, nil
	case "where":
		s, ok := d.(string)
		if !ok {
			return nil, errors.New("envelope: where data is not a string")
		}
		return s, nil
	case "find":
		return toFind(d), nil
	case "log":
		r := &noggin.LogResult{Entries: []*noggin.Entry{}}
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
	case "undo", "redo":
		r := &noggin.UndoResult{}
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
	case "providers":
		ps := []noggin.Provider{}
		for _, e := range asSlice(d) {
			for _, g := range asFields(e) {
				if g.Name == "scheme" {
					s, _ := g.Value.(string)
					ps = append(ps, noggin.Provider{Scheme: s})
				}
			}
		}
		return ps, nil
	}
	return d, nil
}

func asFields(v any) []noggin.Field { fs, _ := v.([]noggin.Field); return fs }
func asSlice(v any) []any           { a, _ := v.([]any); return a }

func toView(d any) (*noggin.View, error) {
	fs, ok := d.([]noggin.Field)
	if !ok {
		return nil, errors.New("envelope: view is not an object")
	}
	v := &noggin.View{}
	for _, f := range fs {
		switch f.Name {
		case "activePath":
			v.ActivePath, _ = f.Value.(string)
		case "activeKey":
			v.ActiveKey, _ = f.Value.(string)
		case "targetKey":
			v.TargetKey, _ = f.Value.(string)
		case "items":
			v.Items = toNodes(f.Value)
		}
	}
	return v, nil
}

func toNodes(v any) []*noggin.Node {
	a := asSlice(v)
	ns := make([]*noggin.Node, 0, len(a))
	for _, e := range a {
		n := &noggin.Node{}
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
					var note noggin.Note
					for _, g := range asFields(ne) {
						s, _ := g.Value.(string)
						switch g.Name {
						case "timestamp":
							note.Timestamp = s
						case "text":
							note.Text = s
						}
					}
					n.Notes = append(n.Notes, note)
				}
			case "children":
				n.Expanded = true
				n.Children = toNodes(f.Value)
			}
		}
		ns = append(ns, n)
	}
	return ns
}

func toFind(d any) *noggin.FindResult {
	r := &noggin.FindResult{Matches: []noggin.FindMatch{}}
	for _, f := range asFields(d) {
		switch f.Name {
		case "total":
			r.Total, _ = f.Value.(int)
		case "matches":
			for _, e := range asSlice(f.Value) {
				var m noggin.FindMatch
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
	return r
}

// toEntry reads a history entry as log, undo and redo write it.
func toEntry(v any) *noggin.Entry {
	if v == nil {
		return nil
	}
	e := &noggin.Entry{}
	for _, f := range asFields(v) {
		switch f.Name {
		case "seq":
			e.Seq, _ = f.Value.(int)
		case "time":
			e.Time, _ = f.Value.(string)
		case "verb":
			e.Verb, _ = f.Value.(string)
		case "undoes":
			e.Undoes, _ = f.Value.(int)
		case "redoes":
			e.Redoes, _ = f.Value.(int)
		case "changes":
			for _, c := range asSlice(f.Value) {
				var ch noggin.EntryChange
				for _, g := range asFields(c) {
					s, _ := g.Value.(string)
					switch g.Name {
					case "kind":
						ch.Kind = s
					case "key":
						ch.Key = s
					case "title":
						ch.Title = s
					}
				}
				e.Changes = append(e.Changes, ch)
			}
		}
	}
	return e
}
