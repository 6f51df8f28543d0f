package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/noggin-go/noggin/core/noggin"
)

// A noggin's journal (its history, docs/file-format.md) is JSON lines: one
// object per write. Items inside ops are written as the noggin file's JSON
// form of an item, so unknown fields survive an undo.

// journalVersion is the "v" of every journal line this build writes.
const journalVersion = 1

type jsonEntry struct {
	V       int          `json:"v"`
	Seq     int          `json:"seq"`
	Time    string       `json:"time"`
	Verb    string       `json:"verb"`
	Undoes  int          `json:"undoes,omitempty"`
	Redoes  int          `json:"redoes,omitempty"`
	Before  string       `json:"before"`
	After   string       `json:"after"`
	Changes []jsonChange `json:"changes"`
	Ops     []jsonOp     `json:"ops"`
	Inverse []jsonOp     `json:"inverse"`
	Request string       `json:"request,omitempty"`
	// RequestDigest is the fingerprint of the request (request.Fingerprint).
	RequestDigest string `json:"requestDigest,omitempty"`
	Reply         string `json:"reply,omitempty"`
	// Agent is the agent the write was made for; Principal who a server
	// authenticated its caller as.
	Agent     string `json:"agent,omitempty"`
	Principal string `json:"principal,omitempty"`
}

type jsonChange struct {
	Kind   string `json:"kind"`
	Key    string `json:"key"`
	Title  string `json:"title"`
	Cursor string `json:"cursor,omitempty"`
}

type jsonNote struct {
	Timestamp *string `json:"timestamp"`
	Text      string  `json:"text"`
}

type jsonOp struct {
	Op        string          `json:"op"`
	Key       string          `json:"key,omitempty"`
	Keys      []string        `json:"keys,omitempty"`
	Item      json.RawMessage `json:"item,omitempty"`
	ParentKey *string         `json:"parentKey,omitempty"`
	Position  *int            `json:"position,omitempty"`
	AtEnd     bool            `json:"atEnd,omitempty"`
	Flat      bool            `json:"flat,omitempty"`
	Title     *string         `json:"title,omitempty"`
	Done      *bool           `json:"done,omitempty"`
	Note      *jsonNote       `json:"note,omitempty"`
	Cursor    string          `json:"cursor,omitempty"`
	Unset     bool            `json:"unset,omitempty"`
}

// EncodeEntry writes one journal entry as a line of JSON, ending in "\n".
func EncodeEntry(e noggin.Entry) []byte {
	j := jsonEntry{V: journalVersion, Seq: e.Seq, Time: e.Time, Verb: e.Verb, Undoes: e.Undoes, Redoes: e.Redoes,
		Before: e.Before, After: e.After, Changes: []jsonChange{}, Ops: encodeOps(e.Ops), Inverse: encodeOps(e.Inverse),
		Request: e.Request, RequestDigest: e.RequestDigest, Reply: e.Reply, Agent: e.Agent, Principal: e.Principal}
	for _, c := range e.Changes {
		j.Changes = append(j.Changes, jsonChange(c))
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(j); err != nil { // only plain strings, ints and raw JSON: cannot fail
		panic(err) //nolint:forbidigo // a broken invariant: nothing here can fail to encode
	}
	return b.Bytes()
}

func encodeOps(ops []noggin.Op) []jsonOp {
	out := make([]jsonOp, 0, len(ops))
	for _, op := range ops {
		j := jsonOp{Op: string(op.Type), Key: op.Key, Keys: op.Keys, AtEnd: op.AtEnd, Flat: op.Flat, Title: op.Title, Done: op.Done,
			Cursor: op.Cursor, Unset: op.Unset}
		switch op.Type {
		case noggin.OpAdd, noggin.OpMove:
			parent, pos := op.ParentKey, op.Position
			j.ParentKey, j.Position = &parent, &pos
		default: // the other ops have no place in the tree
		}
		if op.Item != nil {
			j.Item = EncodeItem(op.Item)
		}
		if op.Note != nil {
			n := &jsonNote{Text: op.Note.Text}
			if op.Note.Timestamp != "" {
				ts := op.Note.Timestamp
				n.Timestamp = &ts
			}
			j.Note = n
		}
		out = append(out, j)
	}
	return out
}

// DecodeEntry reads one journal line (without its newline).
func DecodeEntry(line []byte) (noggin.Entry, error) {
	var j jsonEntry
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&j); err != nil {
		return noggin.Entry{}, err
	}
	if dec.More() {
		return noggin.Entry{}, errors.New("journal: trailing data")
	}
	if j.V != journalVersion || j.Seq <= 0 {
		return noggin.Entry{}, fmt.Errorf("journal: version %d, seq %d", j.V, j.Seq)
	}
	e := noggin.Entry{Seq: j.Seq, Time: j.Time, Verb: j.Verb, Undoes: j.Undoes, Redoes: j.Redoes,
		Before: j.Before, After: j.After, Request: j.Request, RequestDigest: j.RequestDigest, Reply: j.Reply, Agent: j.Agent, Principal: j.Principal}
	for _, c := range j.Changes {
		e.Changes = append(e.Changes, noggin.EntryChange(c))
	}
	var err error
	if e.Ops, err = decodeOps(j.Ops); err != nil {
		return noggin.Entry{}, err
	}
	if e.Inverse, err = decodeOps(j.Inverse); err != nil {
		return noggin.Entry{}, err
	}
	return e, nil
}

func decodeOps(in []jsonOp) ([]noggin.Op, error) {
	out := make([]noggin.Op, 0, len(in))
	for _, j := range in {
		op := noggin.Op{Type: noggin.OpType(j.Op), Key: j.Key, Keys: j.Keys, AtEnd: j.AtEnd, Flat: j.Flat, Title: j.Title, Done: j.Done,
			Cursor: j.Cursor, Unset: j.Unset}
		if j.ParentKey != nil {
			op.ParentKey = *j.ParentKey
		}
		if j.Position != nil {
			op.Position = *j.Position
		}
		if len(j.Item) > 0 {
			it, err := DecodeItem(j.Item)
			if err != nil {
				return nil, err
			}
			op.Item = it
		}
		if j.Note != nil {
			op.Note = &noggin.Note{Text: j.Note.Text}
			if j.Note.Timestamp != nil {
				op.Note.Timestamp = *j.Note.Timestamp
			}
		}
		out = append(out, op)
	}
	return out, nil
}

// EncodeItem writes one item as compact JSON, exactly as the noggin file's
// JSON form writes it (its key order and unknown fields included).
func EncodeItem(it *noggin.Item) []byte {
	var c bytes.Buffer
	_ = json.Compact(&c, appendJSONItem(nil, it)) // our own valid JSON
	return c.Bytes()
}

// DecodeItem reads an item written by EncodeItem.
func DecodeItem(b []byte) (*noggin.Item, error) {
	doc, err := DecodeJSON(append(append([]byte(`{"schemaVersion":1,"active":null,"items":[`), b...), "]}"...))
	if err != nil {
		return nil, err
	}
	if len(doc.Items) != 1 {
		return nil, errors.New("codec: not one item")
	}
	return doc.Items[0], nil
}
