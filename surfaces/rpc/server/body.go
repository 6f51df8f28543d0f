package server

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	"connectrpc.com/connect"
)

// UnknownLengthBytes is how much of the unary bodies that come without a
// Content-Length (chunked HTTP/1.1, HTTP/2 without the header) all calls
// in flight may hold together: such a body cannot be refused before it
// is read, so many of them must not each fill a buffer of MaxBytes.
// noggin's clients, connect-go, browsers and curl -d send a Content-Length.
const UnknownLengthBytes = 256 << 10

// errUnknownLength refuses an unknown-length body once the budget is spent.
var errUnknownLength = connect.NewError(connect.CodeResourceExhausted,
	fmt.Errorf("requests without a Content-Length may hold %d bytes in all at a time: send the request's Content-Length", UnknownLengthBytes))

// budget is the bytes of unknown-length bodies held by calls in flight.
type budget struct{ held atomic.Int64 }

// budgeted is a request body that draws every byte read from a budget
// until release.
type budgeted struct {
	io.ReadCloser
	b     *budget
	taken int64
}

func (r *budgeted) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	r.taken += int64(n)
	if r.b.held.Add(int64(n)) > UnknownLengthBytes {
		return n, errUnknownLength
	}
	return n, err
}

// release returns what the body took (when its call has ended).
func (r *budgeted) release() { r.b.held.Add(-r.taken) }

// enveloped reports whether the request's messages carry their length
// (gRPC, gRPC-Web and Connect streams), which Connect checks against the
// limit before it reads a message.
func enveloped(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	return strings.HasPrefix(ct, "application/grpc") || strings.HasPrefix(ct, "application/connect+")
}

// tooLarge is the refusal of a body whose declared length is over max.
func tooLarge(length, max int64) error {
	return fmt.Errorf("the request's %d bytes are over the server's limit of %d bytes (--max-bytes)", length, max)
}
