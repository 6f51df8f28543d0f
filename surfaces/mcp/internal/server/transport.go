package server

// The transports the tools are served on: stdio (guarded, drained) and
// streamable HTTP (guarded).

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/noggin-go/noggin/core/request"
)

// ServeStdio serves h over a stdio pair until ctx is done or in ends; at
// end of input, calls in flight still answer (see drainTransport). A line
// that is not a valid JSON-RPC message gets its JSON-RPC error and the
// session goes on (see guardStdio). A clean end is a nil error.
func ServeStdio(ctx context.Context, h *Handler, in io.Reader, out io.Writer) error {
	// A stop (ctx done: SIGTERM, SIGINT) ends the input, as end of input
	// does: calls in flight answer first, and the session ends cleanly
	// rather than as a cancelled run.
	pr, pw := io.Pipe()
	go func() {
		_, err := io.Copy(pw, in)
		_ = pw.CloseWithError(err)
	}()
	stop := context.AfterFunc(ctx, func() { _ = pw.Close() })
	defer stop()
	ctx = context.WithoutCancel(ctx)
	r, w := guardStdio(pr, out)
	t := &drainTransport{Transport: &mcp.IOTransport{Reader: r, Writer: w}, grace: 30 * time.Second}
	if err := h.Server().Run(ctx, t); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// timeouts bound what a client may hold: a request's headers, its whole
// body, the answer's writing (the event stream of a GET is exempt), an
// idle connection. A variable for the tests.
var timeouts = struct{ header, read, write, idle time.Duration }{10 * time.Second, time.Minute, time.Minute, 2 * time.Minute}

// NewHTTPServer is noggin-mcp's HTTP server: HTTPHandler with the timeouts,
// every request but /healthz sending token as a bearer token when token
// is not "".
func NewHTTPServer(h *Handler, log *slog.Logger, token string) *http.Server {
	handler := HTTPHandler(h, log)
	if token != "" {
		handler = bearer(token, handler)
	}
	return &http.Server{Handler: handler, ReadHeaderTimeout: timeouts.header,
		ReadTimeout: timeouts.read, WriteTimeout: timeouts.write, IdleTimeout: timeouts.idle}
}

// HTTPHandler serves the tools over streamable HTTP with the SDK's DNS
// rebinding (localhost) protection and Go's cross-origin protection on.
func HTTPHandler(h *Handler, log *slog.Logger) http.Handler {
	srv := h.Server()
	sh := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Logger: log, SessionTimeout: time.Hour})
	mux := http.NewServeMux()
	// A liveness probe for service managers and load balancers, as noggin-rpc's.
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok\n") })
	mux.Handle("/", guardHTTP(http.NewCrossOriginProtection().Handler(sh)))
	return mux
}

// bearer lets through the requests that send "Authorization: Bearer
// <token>" (the scheme in any case, the token exactly) and /healthz; the
// others get 401 with WWW-Authenticate, as RFC 6750 says.
func bearer(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if r.URL.Path != "/healthz" && (!strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="noggin-mcp"`)
			http.Error(w, "missing or invalid bearer token: send the header 'Authorization: Bearer <token>' (the server's --token-file or $NOGGIN_MCP_TOKEN)", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// maxBodyBytes bounds an HTTP request body: every call whose texts core
// takes (request.MaxText) fits.
const maxBodyBytes = request.MaxRequest

// guardHTTP applies the MCP specification's transport rules that the layers
// below leave out: a request whose Origin is another site is 403 on every
// method (Go's cross-origin protection lets GET through), a request other
// than initialize without an Mcp-Session-Id is 400, and a body is at most
// maxBodyBytes (413).
func guardHTTP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" {
			if u, err := url.Parse(o); err != nil || u.Host != r.Host {
				http.Error(w, "forbidden: cross-origin request", http.StatusForbidden)
				return
			}
		}
		if (r.Method == http.MethodGet || r.Method == http.MethodDelete) && r.Header.Get("Mcp-Session-Id") == "" {
			http.Error(w, "bad request: missing Mcp-Session-Id header", http.StatusBadRequest)
			return
		}
		if r.Method == http.MethodGet { // the event stream lasts as long as its session
			rc := http.NewResponseController(w)
			_ = rc.SetReadDeadline(time.Time{})
			_ = rc.SetWriteDeadline(time.Time{})
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
			// Only initialize opens a session; anything else needs its id.
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
				return
			}
			var msg struct {
				Method string `json:"method"`
			}
			if json.Unmarshal(body, &msg) == nil && msg.Method != "initialize" {
				http.Error(w, "bad request: missing Mcp-Session-Id header", http.StatusBadRequest)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		next.ServeHTTP(w, r)
	})
}
