// Package jsonw writes JSON by hand, byte for byte as JavaScript's
// JSON.stringify(v, null, 2) writes it: two-space indentation, `": "`
// after keys, one element per line, empty arrays `[]` and objects `{}`,
// strings as jstext.AppendString escapes them. The envelope and the verbs'
// results (core/noggin) write themselves with it.
package jsonw

import (
	"math"
	"strconv"

	"github.com/noggin-go/noggin/core/jstext"
)

// Writer appends JSON to B.
type Writer struct{ B []byte }

// spaces is sliced for indentation; deeper levels fall back to a loop.
const spaces = "                                                                                                                                "

// NL starts a new line indented for depth.
func (w *Writer) NL(depth int) { w.B = AppendNL(w.B, depth) }

// AppendNL appends a newline and the indentation of depth.
func AppendNL(b []byte, depth int) []byte {
	b = append(b, '\n')
	n := 2 * depth
	for n > len(spaces) {
		b = append(b, spaces...)
		n -= len(spaces)
	}
	return append(b, spaces[:n]...)
}

// AppendField appends the separator (unless first), a new line at depth
// and quoted, a field name with its quotes, colon and space (`"key": `).
func AppendField(b []byte, first bool, depth int, quoted string) []byte {
	if !first {
		b = append(b, ',')
	}
	return append(AppendNL(b, depth), quoted...)
}

// Null writes null.
func (w *Writer) Null() { w.B = append(w.B, "null"...) }

// Bool writes true or false.
func (w *Writer) Bool(v bool) {
	if v {
		w.B = append(w.B, "true"...)
	} else {
		w.B = append(w.B, "false"...)
	}
}

// Int writes an integer.
func (w *Writer) Int(v int) { w.B = strconv.AppendInt(w.B, int64(v), 10) }

// Float writes a number as JSON.stringify does: Number#toString, with NaN
// and ±Inf as null.
func (w *Writer) Float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.Null()
		return
	}
	w.B = append(w.B, jstext.FormatNumber(f)...)
}

// Str writes s as a JSON string literal.
func (w *Writer) Str(s string) { w.B = jstext.AppendString(w.B, s) }

// OptStr writes s, or null when it is "".
func (w *Writer) OptStr(s string) {
	if s == "" {
		w.Null()
	} else {
		w.Str(s)
	}
}

// Object tracks one open JSON object.
type Object struct {
	w     *Writer
	depth int // depth of the object's fields
	n     int
}

// OpenObject starts an object whose braces are at depth.
func (w *Writer) OpenObject(depth int) Object {
	w.B = append(w.B, '{')
	return Object{w: w, depth: depth + 1}
}

// Key starts the next field.
func (o *Object) Key(name string) {
	o.sep()
	o.w.Str(name)
	o.w.B = append(o.w.B, ':', ' ')
}

// Lit starts the next field whose name needs no escaping; quoted is the
// name with its quotes, colon and space (`"key": `).
func (o *Object) Lit(quoted string) {
	o.sep()
	o.w.B = append(o.w.B, quoted...)
}

func (o *Object) sep() {
	if o.n > 0 {
		o.w.B = append(o.w.B, ',')
	}
	o.n++
	o.w.NL(o.depth)
}

// Close ends the object.
func (o *Object) Close() {
	if o.n > 0 {
		o.w.NL(o.depth - 1)
	}
	o.w.B = append(o.w.B, '}')
}

// Array tracks one open JSON array.
type Array struct {
	w     *Writer
	depth int
	n     int
}

// OpenArray starts an array whose brackets are at depth.
func (w *Writer) OpenArray(depth int) Array {
	w.B = append(w.B, '[')
	return Array{w: w, depth: depth + 1}
}

// Elem starts the next element.
func (a *Array) Elem() {
	if a.n > 0 {
		a.w.B = append(a.w.B, ',')
	}
	a.n++
	a.w.NL(a.depth)
}

// Close ends the array.
func (a *Array) Close() {
	if a.n > 0 {
		a.w.NL(a.depth - 1)
	}
	a.w.B = append(a.w.B, ']')
}
