package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// strictJSON is Connect's JSON codec, except that a request field the
// message does not have is an error (invalid_argument naming the field)
// instead of being dropped: a misspelt "tittle" must not create an
// untitled item.
type strictJSON struct{ name string }

// strictJSONCodecs replace both names Connect registers for JSON, and the
// protobuf codec (see validUTF8).
var strictJSONCodecs = []connect.HandlerOption{
	connect.WithCodec(strictJSON{"json"}),
	connect.WithCodec(strictJSON{"json; charset=utf-8"}),
	connect.WithCodec(utf8Proto{}),
}

// utf8Proto is Connect's protobuf codec, except that a response that is not
// valid UTF-8 is made so (see validUTF8) instead of failing.
type utf8Proto struct{}

func (utf8Proto) Name() string { return "proto" }

func (utf8Proto) Marshal(m any) ([]byte, error) { return marshalValid(m, proto.Marshal) }

// marshalValid marshals m with marshal; a message that is not valid UTF-8
// (rare) is made so (validUTF8) and marshalled again: the walk is paid
// only then.
func marshalValid(m any, marshal func(proto.Message) ([]byte, error)) ([]byte, error) {
	pm, ok := m.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("%T is not a proto.Message", m)
	}
	b, err := marshal(pm)
	if err != nil {
		validUTF8(pm.ProtoReflect())
		b, err = marshal(pm)
	}
	return b, err
}

func (utf8Proto) Unmarshal(b []byte, m any) error {
	pm, ok := m.(proto.Message)
	if !ok {
		return fmt.Errorf("%T is not a proto.Message", m)
	}
	return proto.Unmarshal(b, pm)
}

// validUTF8 replaces, in every string field of m, each byte that is not
// valid UTF-8 with U+FFFD. A noggin's text can hold lone surrogates (the
// original's files spell them "\uD800"; core keeps them as WTF-8), which
// protobuf strings cannot: typed messages show U+FFFD, and the envelopes
// (Call, Run, error details) carry them exactly as "\ud800".
func validUTF8(m protoreflect.Message) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList():
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				if fd.Kind() == protoreflect.StringKind {
					if s := l.Get(i).String(); !utf8.ValidString(s) {
						l.Set(i, protoreflect.ValueOfString(strings.ToValidUTF8(s, "\uFFFD")))
					}
				} else if fd.Message() != nil {
					validUTF8(l.Get(i).Message())
				}
			}
		case fd.IsMap():
			mp := v.Map()
			var keys []protoreflect.MapKey
			mp.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool { keys = append(keys, k); return true })
			for _, k := range keys {
				mv := mp.Get(k)
				if fd.MapValue().Message() != nil {
					validUTF8(mv.Message())
				} else if fd.MapValue().Kind() == protoreflect.StringKind && !utf8.ValidString(mv.String()) {
					mv = protoreflect.ValueOfString(strings.ToValidUTF8(mv.String(), "\uFFFD"))
					mp.Set(k, mv)
				}
				if fd.MapKey().Kind() == protoreflect.StringKind && !utf8.ValidString(k.String()) {
					mp.Clear(k)
					mp.Set(protoreflect.ValueOfString(strings.ToValidUTF8(k.String(), "\uFFFD")).MapKey(), mv)
				}
			}
		case fd.Kind() == protoreflect.StringKind:
			if s := v.String(); !utf8.ValidString(s) {
				m.Set(fd, protoreflect.ValueOfString(strings.ToValidUTF8(s, "\uFFFD")))
			}
		case fd.Message() != nil:
			validUTF8(v.Message())
		}
		return true
	})
}

// validJSONText is b with the text protobuf strings cannot hold made
// U+FFFD, as validUTF8 does for answers: each lone surrogate escape
// ("\ud800" without its pair) and each byte that is not UTF-8. JSON
// allows both; protojson refuses them.
func validJSONText(b []byte) []byte {
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	if !bytes.Contains(b, []byte(`\u`)) {
		return b
	}
	var out []byte // nil while nothing is replaced
	last := 0      // b[last:] is not in out yet
	in := false    // inside a string
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			in = !in
		case c == '\\' && in && i+1 < len(b):
			if b[i+1] != 'u' || i+6 > len(b) {
				i++ // the escaped character
				continue
			}
			switch r := hex4(b[i+2 : i+6]); {
			case r < 0xD800 || r > 0xDFFF: // not a surrogate (or no hex: protojson says so)
			case r <= 0xDBFF && i+12 <= len(b) && b[i+6] == '\\' && b[i+7] == 'u' && isLowSurrogate(hex4(b[i+8:i+12])):
				i += 6 // a pair: the low half is skipped below
			default:
				out = append(append(out, b[last:i]...), `\ufffd`...)
				last = i + 6
			}
			i += 5
		}
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// hex4 is the value of four hex digits (-1: not hex).
func hex4(h []byte) int {
	n := 0
	for _, c := range h {
		switch {
		case '0' <= c && c <= '9':
			n = n<<4 | int(c-'0')
		case 'a' <= c && c <= 'f':
			n = n<<4 | int(c-'a'+10)
		case 'A' <= c && c <= 'F':
			n = n<<4 | int(c-'A'+10)
		default:
			return -1
		}
	}
	return n
}

func isLowSurrogate(r int) bool { return r >= 0xDC00 && r <= 0xDFFF }

func (c strictJSON) Name() string { return c.name }

func (strictJSON) Marshal(m any) ([]byte, error) { return marshalValid(m, protojson.Marshal) }

func (strictJSON) Unmarshal(b []byte, m any) error {
	pm, ok := m.(proto.Message)
	if !ok {
		return fmt.Errorf("%T is not a proto.Message", m)
	}
	if len(b) == 0 {
		return errors.New("zero-length payload is not a valid JSON object")
	}
	if err := protojson.Unmarshal(validJSONText(b), pm); err != nil {
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
