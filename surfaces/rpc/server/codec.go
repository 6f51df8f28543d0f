package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// strictJSON is Connect's JSON codec, except that a request field the
// message does not have is an error (invalid_argument naming the field)
// instead of being dropped: a misspelt "tittle" must not create an
// untitled item.
type strictJSON struct{ name string }

// strictJSONCodecs replace both names Connect registers for JSON.
var strictJSONCodecs = []connect.HandlerOption{
	connect.WithCodec(strictJSON{"json"}),
	connect.WithCodec(strictJSON{"json; charset=utf-8"}),
}

func (c strictJSON) Name() string { return c.name }

func (strictJSON) Marshal(m any) ([]byte, error) {
	pm, ok := m.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("%T is not a proto.Message", m)
	}
	return protojson.Marshal(pm)
}

func (strictJSON) Unmarshal(b []byte, m any) error {
	pm, ok := m.(proto.Message)
	if !ok {
		return fmt.Errorf("%T is not a proto.Message", m)
	}
	if len(b) == 0 {
		return errors.New("zero-length payload is not a valid JSON object")
	}
	if err := protojson.Unmarshal(b, pm); err != nil {
		return fmt.Errorf("unmarshal into %T: %w", m, err)
	}
	return nil
}

// MarshalStable is Marshal, compacted (for GET requests of Show).
func (c strictJSON) MarshalStable(m any) ([]byte, error) {
	b, err := c.Marshal(m)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// IsBinary is false: JSON is text.
func (strictJSON) IsBinary() bool { return false }
