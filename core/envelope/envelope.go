// Package envelope builds response envelopes and is the one encoder that
// turns them into canonical bytes (docs/envelope.md). Nothing else in the
// repository marshals an envelope.
package envelope

import (
	"bytes"
	"encoding/json"

	"github.com/noggin-go/noggin/core/noggin"
)

// Version is the envelopeVersion of every envelope.
const Version = 3

// Envelope is a success or error response. Verb "" encodes as null.
type Envelope struct {
	Verb string
	// Data is the success payload: the verb's result, which writes itself
	// (a nil pointer of its type is null; a nil Data too).
	Data noggin.Result
	// Err is set for an error envelope.
	Err *noggin.Error
	// Revision is the noggin's revision after the verb (noggin.Revision;
	// success envelopes of verbs on one noggin; "": left out).
	Revision string
}

// Success returns the success envelope of verb with data.
func Success(verb string, data noggin.Result) Envelope { return Envelope{Verb: verb, Data: data} }

// Failure returns the error envelope of verb for err (non-noggin errors are
// wrapped as noggin-error, exit 1).
func Failure(verb string, err error) Envelope { return Envelope{Verb: verb, Err: noggin.Wrap(err)} }

// Result returns Success(verb, data) when err is nil, else Failure(verb, err).
func Result(verb string, data noggin.Result, err error) Envelope {
	if err != nil {
		return Failure(verb, err)
	}
	return Success(verb, data)
}

// OK reports whether e is a success envelope.
func (e Envelope) OK() bool { return e.Err == nil }

// ExitCode is 0 for success, else the error's exit code.
func (e Envelope) ExitCode() int {
	if e.Err == nil {
		return 0
	}
	return e.Err.ExitCode
}

// Message is the rendered error message ("" for success), as the CLI prints
// it after "noggin: " and as error.message holds it.
func (e Envelope) Message() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.MessageFor(e.Verb)
}

// Text is Encode without the trailing newline (the MCP text content).
func (e Envelope) Text() []byte {
	b := e.Encode()
	return b[:len(b)-1]
}

// Compact is Encode without whitespace between tokens and without the
// trailing newline: the form MCP carries (docs/mcp.md).
func (e Envelope) Compact() []byte {
	b := e.Encode()
	var c bytes.Buffer
	c.Grow(len(b))
	_ = json.Compact(&c, b) // Encode writes valid JSON
	return c.Bytes()
}

// Line is Encode on one line (no indentation) ending in "\n": the form of
// a stream of envelopes, one per line (JSON lines).
func (e Envelope) Line() []byte { return append(e.Compact(), '\n') }
