package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode"

	"connectrpc.com/connect"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/request"
)

// Metrics are the Prometheus metrics of one server, in a registry of its
// own (see Handler).
type Metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	storeTime *prometheus.HistogramVec
}

// NewMetrics makes the metrics: requests by method and code, their
// latency, the store's lock waits and writes, open Watch streams (once
// Watch is given), the Go runtime and the process.
func NewMetrics() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "noggin_rpc_requests_total", Help: "Calls answered, by method, verb (of Run, Call and the typed verbs; \"\" for the others) and code (ok, a Connect code, or the noggin error code of an error envelope).",
	}, []string{"method", "verb", "code"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "noggin_rpc_request_duration_seconds", Help: "Time to answer a call (a Watch: its whole life), by method.",
		Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16),
	}, []string{"method"})
	m.storeTime = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "noggin_store_seconds", Help: "Store steps: lock-wait (for a noggin's lock or row) and write (a whole write; on a team database, a group of writes committed together), by step.",
		Buckets: prometheus.ExponentialBuckets(0.0001, 2, 18),
	}, []string{"step"})
	m.reg.MustRegister(m.requests, m.latency, m.storeTime,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Observe records a store step (store.Options.Observe, pgstore).
func (m *Metrics) Observe(step string, d time.Duration) {
	m.storeTime.WithLabelValues(step).Observe(d.Seconds())
}

// Gauge registers a gauge read when the metrics are scraped.
func (m *Metrics) Gauge(name, help string, value func() float64) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, value))
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// observer logs a line per call and counts it. It never logs a token, a
// title or a note; a noggin's name only when it is a plain name below the
// root (loggable).
type observer struct {
	log     *slog.Logger
	metrics *Metrics
	replica string
}

var _ connect.Interceptor = (*observer)(nil)

// callInfo is what a call did, filled in by the service: the verb it ran
// and the code of the envelope it answered.
type callInfo struct{ verb, code string }

type callInfoKey struct{}

// answered records on ctx's call the verb run and its envelope's error
// code ("" for a success).
func answered(ctx context.Context, verb string, env envelope.Envelope) {
	info, ok := ctx.Value(callInfoKey{}).(*callInfo)
	if !ok {
		return
	}
	if request.Lookup(verb) == nil {
		verb = "unknown" // a client's word: the metrics' labels stay bounded
	}
	info.verb = verb
	if !env.OK() {
		info.code = env.Err.Code
	}
}

func (o *observer) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		start := time.Now()
		info := &callInfo{}
		res, err := next(context.WithValue(ctx, callInfoKey{}, info), req)
		o.done(ctx, req.Spec().Procedure, req.Any(), req.Header(), err, info, time.Since(start))
		return res, err
	}
}

func (o *observer) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return next
}

func (o *observer) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return func(ctx context.Context, conn connect.StreamingHandlerConn) error {
		start := time.Now()
		err := next(ctx, conn)
		o.done(ctx, conn.Spec().Procedure, nil, conn.RequestHeader(), err, &callInfo{}, time.Since(start))
		return err
	}
}

// done logs and counts one call.
func (o *observer) done(ctx context.Context, procedure string, msg any, h http.Header, err error, info *callInfo, d time.Duration) {
	method := procedure[strings.LastIndexByte(procedure, '/')+1:]
	code := "ok"
	switch {
	case err != nil:
		code = connect.CodeOf(err).String()
	case info.code != "":
		code = info.code // an error envelope answered as a success of the transport
	}
	if o.metrics != nil {
		o.metrics.requests.WithLabelValues(method, info.verb, code).Inc()
		o.metrics.latency.WithLabelValues(method).Observe(d.Seconds())
	}
	if o.log == nil {
		return
	}
	attrs := []slog.Attr{slog.String("method", method), slog.String("verb", info.verb), slog.String("code", code),
		slog.Float64("ms", float64(d.Microseconds())/1000), slog.String("replica", o.replica)}
	if l, ok := msg.(interface{ GetLocation() string }); ok && loggable(l.GetLocation()) {
		attrs = append(attrs, slog.String("noggin", l.GetLocation()))
	}
	if r, ok := msg.(interface{ GetRequestId() string }); ok && loggable(r.GetRequestId()) {
		attrs = append(attrs, slog.String("request_id", r.GetRequestId()))
	} else if id := h.Get("X-Request-Id"); loggable(id) {
		attrs = append(attrs, slog.String("request_id", id))
	}
	level := slog.LevelInfo
	var ce *connect.Error
	if errors.As(err, &ce) && (ce.Code() == connect.CodeInternal || ce.Code() == connect.CodeUnknown) {
		level = slog.LevelError
		attrs = append(attrs, slog.String("cause", ce.Message()))
	}
	o.log.LogAttrs(ctx, level, "call", attrs...)
}

// loggable reports whether s can go to the log: a short plain name that
// leaves nothing out of the root (no absolute path, "..", "~", scheme or
// control character, and no space: not a title).
func loggable(s string) bool {
	if s == "" || len(s) > 200 || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") ||
		strings.Contains(s, "..") || strings.Contains(s, "://") || strings.Contains(s, "\\") {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.IsSpace(r) || r == unicode.ReplacementChar || r > unicode.MaxASCII {
			return false
		}
	}
	return true
}
