// Package remote is the client side of remote noggins: it runs a request
// whose noggin is http://HOST:PORT/NAME on the noggin-rpc server there
// (the Run method, Connect protocol with JSON, over a small HTTP/1.1
// client of its own, so the CLI links neither protobuf, Connect nor
// net/http) and returns the server's
// envelope, or an envelope that says why the server could not be used.
package remote

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
)

// runPath is the Connect path of NogginService.Run.
const runPath = "/noggin.v1.NogginService/Run"

// Timeout bounds one attempt of a call (a write waits for the server's
// lock of at most 5 s).
const Timeout = 30 * time.Second

// Client runs requests on noggin-rpc servers. It implements
// request.Remote.
type Client struct {
	// Creds say which token goes to which server.
	Creds *Credentials
	// OnlyKnown refuses (location-refused) a server that is not one of
	// Creds' ($NOGGIN_SERVER, a login, Creds.Servers) before connecting:
	// noggin-mcp, whose locations come from what an agent read.
	OnlyKnown bool
	// AllowHTTP lets a token cross the network in clear text (http:// to
	// a host other than this machine); $NOGGIN_ALLOW_HTTP=1.
	AllowHTTP bool
	// Attempts is how often a call is tried when the server could not be
	// reached or the connection broke (default 3). Every attempt carries
	// the same request id, so the server applies a write once.
	Attempts int
	// Backoff is the wait before the second attempt (doubled after).
	Backoff time.Duration
	// Timeout bounds one attempt (0: the package's Timeout).
	Timeout time.Duration
}

var _ request.Remote = (*Client)(nil)

// New returns a client whose credentials come from the environment and
// the file of `noggin login`.
func New(getenv func(string) string) *Client {
	return &Client{Creds: NewCredentials(getenv), AllowHTTP: getenv("NOGGIN_ALLOW_HTTP") == "1",
		Attempts: 3, Backoff: 200 * time.Millisecond}
}

// token is the token to send to base, after the checks that no location
// can get past: a server nobody configured (OnlyKnown), a token that is
// not a header value, a token in clear text across the network.
func (c *Client) token(base string) (string, error) {
	origin, err := Origin(base)
	if err != nil {
		return "", refused(base, err.Error())
	}
	creds := c.Creds
	if creds == nil {
		creds = NewCredentials(func(string) string { return "" })
	}
	token, known, err := creds.Token(origin)
	if err != nil {
		return "", noggin.Usage(noggin.CodeNogginError, 2, "credentials: "+err.Error())
	}
	if c.OnlyKnown && !known {
		return "", refused(base, "noggin-mcp reaches only the servers it is given: $NOGGIN_SERVER, a `noggin login`, or --server "+origin)
	}
	if token == "" {
		return "", nil
	}
	if !ValidToken(token) {
		return "", noggin.Usage(noggin.CodeNogginError, 2, "the token for "+origin+" holds a character that is not allowed in an HTTP header (a space, a line break, a control or non-ASCII character): nothing was sent")
	}
	u, _ := url.Parse(origin)
	if u.Scheme == "http" && !isLoopback(u.Hostname()) && !c.AllowHTTP {
		return "", refused(base, "its token would cross the network in clear text: use https://, or set NOGGIN_ALLOW_HTTP=1 to send it over plain HTTP on a network you trust")
	}
	return token, nil
}

func refused(loc, detail string) error {
	return noggin.NewError(noggin.CodeLocationRefused, noggin.F("location", loc), noggin.F("detail", detail))
}

// Run implements request.Remote.
func (c *Client) Run(ctx context.Context, base string, req *request.Request) envelope.Envelope {
	env, err := c.run(ctx, base, req)
	if err != nil {
		return envelope.Failure(req.Verb, err)
	}
	return env
}

func (c *Client) run(ctx context.Context, base string, req *request.Request) (envelope.Envelope, error) {
	token, err := c.token(base)
	if err != nil {
		return envelope.Envelope{}, err
	}
	reqJSON, err := req.MarshalJSON()
	if err != nil {
		return envelope.Envelope{}, err
	}
	body, err := json.Marshal(map[string]string{"request": string(reqJSON), "requestId": newID()})
	if err != nil {
		return envelope.Envelope{}, err
	}
	attempts := max(c.Attempts, 1)
	wait := c.Backoff
	var last error
	for i := 0; i < attempts; i++ {
		if i > 0 {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return envelope.Envelope{}, noggin.Cancelled(ctx)
			}
			wait *= 2
		}
		env, retry, err := c.attempt(ctx, base, token, body)
		if err == nil || !retry {
			return env, err
		}
		last = err
	}
	return envelope.Envelope{}, last
}

// attempt makes one call; retry says whether trying again may help.
func (c *Client) attempt(ctx context.Context, base, token string, body []byte) (env envelope.Envelope, retry bool, err error) {
	headers := [][2]string{{"Content-Type", "application/json"}, {"Connect-Protocol-Version", "1"}}
	if token != "" {
		headers = append(headers, [2]string{"Authorization", "Bearer " + token})
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = Timeout
	}
	status, b, err := post(ctx, base+runPath, timeout, headers, body)
	if err != nil {
		if ctx.Err() != nil {
			return env, false, noggin.Cancelled(ctx)
		}
		detail, retry := transportDetail(err, timeout)
		return env, retry, unavailable(base, detail)
	}
	if status != 200 {
		return env, status == 503 || status == 502, connectError(base, status, b)
	}
	var out struct {
		Envelope string `json:"envelope"`
	}
	if err := json.Unmarshal(b, &out); err != nil || out.Envelope == "" {
		return env, false, unavailable(base, "the answer is not a noggin-rpc answer: is it a noggin-rpc server?")
	}
	env, err = request.DecodeEnvelope([]byte(out.Envelope))
	if err != nil {
		return env, false, unavailable(base, "the server answered an envelope this client cannot read ("+err.Error()+"): use noggin-rpc and clients of the same version")
	}
	return env, false, nil
}

func unavailable(base, detail string) error {
	return noggin.NewError(noggin.CodeUnavailable, noggin.F("server", base), noggin.F("detail", detail))
}

// transportDetail says in words what went wrong before an answer, and
// whether another attempt may help.
func transportDetail(err error, timeout time.Duration) (string, bool) {
	var ne net.Error
	if errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		return "no answer within " + timeout.String() + ": is the server overloaded or the address wrong?", false
	}
	var certErr *tls.CertificateVerificationError
	var recErr tls.RecordHeaderError
	switch {
	case errors.As(err, &certErr):
		return "TLS: the server's certificate is not trusted (" + certErr.Err.Error() + ")", false
	case errors.As(err, &recErr):
		return "TLS: the server does not speak TLS here: use http://, or the address of a TLS proxy in front of it", false
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused: is noggin-rpc running there (noggin-rpc serve --addr …)?", true
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection broke before an answer", true
	case errors.Is(err, errMalformed):
		return "the answer is not HTTP: is it a noggin-rpc server?", false
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return "unknown host " + dnsErr.Name, dnsErr.IsTemporary
	}
	msg := err.Error()
	if strings.Contains(msg, "tls") || strings.Contains(msg, "x509") {
		return "TLS: " + msg, false
	}
	return msg, true
}

// connectError maps a Connect error response to a noggin error.
func connectError(base string, status int, body []byte) error {
	var ce struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(body, &ce)
	switch {
	case ce.Code == "unauthenticated" || status == 401:
		return noggin.NewError(noggin.CodeUnauthenticated, noggin.F("server", base))
	case ce.Code == "unimplemented" || status == 404:
		return unavailable(base, "the server does not offer remote noggins (NogginService/Run): it is an older noggin-rpc or not noggin-rpc; upgrade it")
	case ce.Code == "permission_denied":
		return unavailable(base, "the server refused the request: "+ce.Message)
	case ce.Message != "":
		return unavailable(base, ce.Code+": "+ce.Message)
	}
	return unavailable(base, "HTTP "+strconv.Itoa(status)+": is it a noggin-rpc server?")
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
