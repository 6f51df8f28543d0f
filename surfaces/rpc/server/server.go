// Package server implements noggin.v1.NogginService on the core engine and
// assembles the HTTP handler of noggin-rpc: the Connect service (Connect,
// gRPC and gRPC-Web protocols), gRPC reflection, gRPC health, bearer-token
// authentication and request size limits.
package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"connectrpc.com/connect"
	"connectrpc.com/grpchealth"
	"connectrpc.com/grpcreflect"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1/nogginv1connect"
	"github.com/noggin-go/noggin/surfaces/rpc/ui"
)

// DefaultMaxBytes is the default request size limit: every request whose
// texts core takes (request.MaxText) fits (request.MaxRequest, 32 MiB).
const DefaultMaxBytes = request.MaxRequest

// compressMinBytes is the smallest response that is compressed.
const compressMinBytes = 64 << 10

// Config configures a Server.
type Config struct {
	// Engine runs the verbs (noggin.EngineFromEnv in the binary).
	Engine *noggin.Engine
	// Store are the options every location is opened with. Store.Root is
	// the only directory whose noggins are served.
	Store store.Options
	// Opener, when set, opens the noggins instead of files under
	// Store.Root (a team database, package pgstore).
	Opener request.Opener
	// Token, when non-empty, is the bearer token every call of the noggin
	// service and of reflection must carry (health stays open). Without a
	// token, only requests whose Host names the loopback interface are
	// served (a guard against DNS rebinding).
	Token string
	// MaxBytes limits the size of a request body (DefaultMaxBytes if 0).
	MaxBytes int64
	// Logger, when set, gets a line per call (method, noggin name, code,
	// duration, request id, replica), never a token, title or note.
	Logger *slog.Logger
	// Replica names this process in the log (e.g. host/pid).
	Replica string
	// Metrics, when set, count the calls; they are served at /metrics
	// unless MetricsElsewhere (served on another address by the caller).
	Metrics          *Metrics
	MetricsElsewhere bool
	// Ready reports whether the store answers (/readyz); nil: the root
	// directory is readable.
	Ready func(ctx context.Context) error
}

// Server is a noggin-rpc server: an http.Handler plus the resources it owns.
type Server struct {
	svc     *service
	handler http.Handler
}

// New builds a Server.
func New(cfg Config) (*Server, error) {
	if cfg.Engine == nil {
		return nil, errors.New("server: Config.Engine is required")
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	opener := cfg.Opener
	if opener == nil {
		opener = store.NewCache(cfg.Store)
	}
	svc := newService(cfg.Engine, opener)
	opts := []connect.HandlerOption{
		connect.WithReadMaxBytes(int(cfg.MaxBytes)),
		// Compressing small responses costs more than it saves, above all
		// on loopback; large ones (snapshots, big views) are still gzipped
		// for clients that accept it.
		connect.WithCompressMinBytes(compressMinBytes),
	}
	opts = append(opts, strictJSONCodecs...)
	obs := &observer{log: cfg.Logger, metrics: cfg.Metrics, replica: cfg.Replica}
	authed := append(append([]connect.HandlerOption(nil), opts...), connect.WithInterceptors(obs, agentInterceptor{}))
	if cfg.Token != "" {
		authed = append(append([]connect.HandlerOption(nil), opts...),
			connect.WithInterceptors(obs, &authInterceptor{want: cfg.Token}, agentInterceptor{}))
	}
	mux := http.NewServeMux()
	mux.Handle(nogginv1connect.NewNogginServiceHandler(svc, authed...))
	// Reflection lists every service this port serves, so `grpcurl list`
	// shows health and reflection next to the noggin service.
	reflector := grpcreflect.NewStaticReflector(nogginv1connect.NogginServiceName,
		grpchealth.HealthV1ServiceName, grpcreflect.ReflectV1ServiceName, grpcreflect.ReflectV1AlphaServiceName)
	mux.Handle(grpcreflect.NewHandlerV1(reflector, authed...))
	mux.Handle(grpcreflect.NewHandlerV1Alpha(reflector, authed...))
	mux.Handle(grpchealth.NewHandler(grpchealth.NewStaticChecker(nogginv1connect.NogginServiceName), opts...))
	// The web view: static files only; every noggin datum it shows comes
	// through the service above, with the token.
	page := ui.Handler()
	mux.Handle("GET /ui", page)
	mux.Handle("GET /ui/", page)
	// Health and readiness for load balancers and service managers, and
	// the metrics: no token, no noggin data.
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok\n") })
	ready := cfg.Ready
	if ready == nil {
		root := cfg.Store.Root
		ready = func(context.Context) error {
			d, err := os.Open(root)
			if err == nil {
				_, err = d.Readdirnames(1)
				_ = d.Close()
				if errors.Is(err, io.EOF) {
					err = nil
				}
			}
			if err != nil {
				return errors.New("the root directory cannot be read")
			}
			return nil
		}
	}
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := ready(ctx); err != nil {
			http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(w, "ready\n")
	})
	if cfg.Metrics != nil {
		cfg.Metrics.Gauge("noggin_rpc_watch_streams", "Watch streams open now.", func() float64 { return float64(svc.watchers()) })
		if !cfg.MetricsElsewhere {
			mux.Handle("GET /metrics", cfg.Metrics.Handler())
		}
	}
	max := cfg.MaxBytes
	checkHost := cfg.Token == ""
	errw := connect.NewErrorWriter()
	refuse := func(w http.ResponseWriter, r *http.Request, err *connect.Error, status int) {
		if errw.IsSupported(r) {
			_ = errw.Write(w, r, err)
		} else {
			http.Error(w, err.Message(), status)
		}
	}
	unknown := &budget{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Without a token the server trusts every local client; a request
		// naming another host can only come through DNS rebinding (a web
		// page whose domain now resolves to 127.0.0.1), so refuse it.
		if checkHost && !loopbackHost(r.Host) {
			refuse(w, r, connect.NewError(connect.CodePermissionDenied, errors.New("host "+r.Host+" refused: without a token only loopback host names are served")), http.StatusForbidden)
			return
		}
		// A body declared over the limit is refused unread.
		if r.ContentLength > max {
			refuse(w, r, connect.NewError(connect.CodeResourceExhausted, tooLarge(r.ContentLength, max)), http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, max)
		if r.ContentLength < 0 && r.Method != http.MethodGet && !enveloped(r) {
			b := &budgeted{ReadCloser: r.Body, b: unknown}
			defer b.release()
			r.Body = b
		}
		mux.ServeHTTP(w, r)
	})
	return &Server{svc: svc, handler: h}, nil
}

// ServeHTTP serves every endpoint of noggin-rpc.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Close ends every open Watch stream (call it before http.Server.Shutdown,
// which waits for handlers to return). Later Watch calls end at once.
func (s *Server) Close() { s.svc.close() }

// Watchers returns the number of Watch streams currently open.
func (s *Server) Watchers() int { return s.svc.watchers() }

// loopbackHost reports whether a Host header names the loopback interface
// (localhost, 127.0.0.0/8, ::1), with or without a port.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// authInterceptor checks the bearer token of every call, and records the
// writes of the calls it lets in as made by "token:" and the first eight
// hex digits of the token's SHA-256 (which token, never the token).
type authInterceptor struct{ want string }

func (a *authInterceptor) principal() string {
	sum := sha256.Sum256([]byte(a.want))
	return "token:" + hex.EncodeToString(sum[:4])
}

var errUnauthenticated = errors.New("missing or invalid bearer token: send the header 'Authorization: Bearer <token>' (the server's --token-file or $NOGGIN_RPC_TOKEN)")

// check accepts "Authorization: Bearer <token>"; the scheme is matched
// case-insensitively (RFC 9110), the token exactly.
func (a *authInterceptor) check(h http.Header) error {
	scheme, got, _ := strings.Cut(h.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(got), []byte(a.want)) != 1 {
		return connect.NewError(connect.CodeUnauthenticated, errUnauthenticated)
	}
	return nil
}

func (a *authInterceptor) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		if req.Spec().IsClient {
			return next(ctx, req)
		}
		if err := a.check(req.Header()); err != nil {
			return nil, err
		}
		return next(request.WithPrincipal(ctx, a.principal()), req)
	}
}

func (a *authInterceptor) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return next
}

func (a *authInterceptor) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return func(ctx context.Context, conn connect.StreamingHandlerConn) error {
		if err := a.check(conn.RequestHeader()); err != nil {
			return err
		}
		return next(ctx, conn)
	}
}

// watchRegistry tracks open Watch streams so Close can end them.
type watchRegistry struct {
	mu     sync.Mutex
	done   chan struct{}
	closed bool
	n      int
}

func (w *watchRegistry) enter() (<-chan struct{}, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil, false
	}
	w.n++
	return w.done, true
}

func (w *watchRegistry) leave() {
	w.mu.Lock()
	w.n--
	w.mu.Unlock()
}

func (w *watchRegistry) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.closed = true
		close(w.done)
	}
}

func (w *watchRegistry) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}
