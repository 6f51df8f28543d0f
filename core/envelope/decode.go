package envelope

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/noggin"
)

// DataDecoder turns the data of a verb's success envelope, as parsed
// (objects as []noggin.Field, arrays as []any, integral numbers as int),
// into the verb's noggin.Result (request.DecodeData knows each verb's).
type DataDecoder func(verb string, data any) (noggin.Result, error)

// Decode parses the bytes Encode writes back into an Envelope whose Data
// is what data makes of the verb's data — its typed result — so that a
// client of a remote noggin renders and re-encodes it as if the verb had
// run locally: Encode of the result gives the same bytes. Error messages
// come back complete (Literal) and data fields in their order. Bytes that
// are not an envelope are an error.
func Decode(b []byte, data DataDecoder) (Envelope, error) {
	// JSON.parse's reading (a lone surrogate escape is kept), not
	// encoding/json's (which makes it U+FFFD).
	v, err := codec.ReadJSON(b)
	if err != nil {
		return Envelope{}, fmt.Errorf("envelope: %w", err)
	}
	top, ok := ordered(v).([]noggin.Field)
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
		rev, _ := get(top, "revision")
		env.Revision, _ = rev.(string)
		d, _ := get(top, "data")
		env.Data, err = data(env.Verb, d)
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

// ordered is a value of codec.ReadJSON in the form the decoders take:
// objects as []noggin.Field, integral numbers (of 32 bits) as int.
func ordered(v any) any {
	switch x := v.(type) {
	case noggin.Map:
		fs := make([]noggin.Field, len(x))
		for i, f := range x {
			fs[i] = noggin.Field{Name: f.Name, Value: ordered(f.Value)}
		}
		return fs
	case []any:
		for i, e := range x {
			x[i] = ordered(e)
		}
		return x
	case noggin.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil && i >= math.MinInt32 && i <= math.MaxInt32 {
			return int(i)
		}
	}
	return v
}
