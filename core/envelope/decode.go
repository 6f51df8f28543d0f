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
