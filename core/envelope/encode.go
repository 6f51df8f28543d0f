package envelope

import (
	"github.com/noggin-go/noggin/core/jsonw"
	"github.com/noggin-go/noggin/core/noggin"
)

// This file is the one canonical encoder of the envelope. It writes JSON by
// hand (core/jsonw), byte for byte as JavaScript's JSON.stringify(v, null,
// 2) would write the pruned envelope of the reference implementation:
//
//   - two-space indentation, `": "` after keys, one element per line,
//     empty arrays `[]` and empty objects `{}`;
//   - strings as raw UTF-8; only `"`, `\` and control characters are
//     escaped (\b \f \n \r \t, others \u00xx); `/`, `<`, `>`, `&`, U+2028
//     and U+2029 are written raw; invalid UTF-8 bytes become U+FFFD;
//   - integers without decimals;
//   - default-valued fields pruned inside success data only
//     (docs/cli.md): the verb's noggin.Result writes itself so.

// Encode returns the canonical bytes: two-space indented JSON in the
// documented key order, data pruned, raw UTF-8, one trailing newline.
func (e Envelope) Encode() []byte { return e.encode(e.sizeHint()) }

// encode is Encode into a buffer of the given initial capacity.
func (e Envelope) encode(capacity int) []byte {
	w := &jsonw.Writer{B: make([]byte, 0, capacity)}
	o := w.OpenObject(0)
	o.Lit(`"status": `)
	if e.Err != nil {
		w.Str("error")
	} else {
		w.Str("ok")
	}
	o.Lit(`"envelopeVersion": `)
	w.Int(Version)
	o.Lit(`"verb": `)
	w.OptStr(e.Verb)
	if e.Revision != "" && e.Err == nil {
		o.Lit(`"revision": `)
		w.Str(e.Revision)
	}
	if e.Err != nil {
		o.Lit(`"error": `)
		errorObject(w, e.Err, e.Verb, 1)
	} else {
		o.Lit(`"data": `)
		noggin.AppendValue(w, e.Data, 1)
	}
	o.Close()
	return append(w.B, '\n')
}

// sizeHint estimates the encoded size (slightly over) so that a large
// result is written into one allocation (BenchmarkSizeHint).
func (e Envelope) sizeHint() int {
	n := 256
	if s, ok := e.Data.(interface{ SizeHint() int }); ok {
		n += s.SizeHint()
	}
	return n
}

// errorObject writes the error member: code, message, exitCode, data.
func errorObject(w *jsonw.Writer, err *noggin.Error, verb string, depth int) {
	o := w.OpenObject(depth)
	o.Lit(`"code": `)
	w.Str(err.Code)
	o.Lit(`"message": `)
	w.Str(err.MessageFor(verb))
	o.Lit(`"exitCode": `)
	w.Int(err.ExitCode)
	if len(err.Data) > 0 {
		o.Lit(`"data": `)
		noggin.AppendFields(w, err.Data, depth+1)
	}
	o.Close()
}
