package remote

// One HTTP/1.1 POST over a fresh connection (TLS for https), written out
// here instead of taken from net/http: linking net/http costs every start
// of the CLI its package initialisation (bench/mechanisms.md), and the CLI
// makes one call per process anyway.

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// maxAnswer bounds the answer read from a server.
const maxAnswer = 256 << 20

// post sends body to rawURL (http or https) with the headers and returns
// the status code and the answer's body. The whole exchange is bounded by
// timeout and by ctx.
func post(ctx context.Context, rawURL string, timeout time.Duration, headers [][2]string, body []byte) (int, []byte, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return 0, nil, err
	}
	host := u.Host
	if u.Port() == "" {
		port := "80"
		if u.Scheme == "https" {
			port = "443"
		}
		host = net.JoinHostPort(u.Hostname(), port)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", host)
	if err != nil {
		return 0, nil, err
	}
	defer func() { _ = conn.Close() }()
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	if u.Scheme == "https" {
		tc := tls.Client(conn, &tls.Config{ServerName: u.Hostname(), MinVersion: tls.VersionTLS12})
		if err := tc.HandshakeContext(ctx); err != nil {
			return 0, nil, err
		}
		conn = tc
	}
	var req strings.Builder
	fmt.Fprintf(&req, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\nConnection: close\r\n", u.RequestURI(), u.Host, len(body))
	for _, h := range headers {
		if strings.ContainsAny(h[0]+h[1], "\r\n") {
			return 0, nil, errors.New("a header holds a line break")
		}
		req.WriteString(h[0] + ": " + h[1] + "\r\n")
	}
	req.WriteString("\r\n")
	if _, err := conn.Write(append([]byte(req.String()), body...)); err != nil {
		return 0, nil, err
	}
	return readAnswer(bufio.NewReader(conn))
}

// errMalformed is an answer that is not HTTP/1.x.
var errMalformed = errors.New("the answer is not HTTP")

// readAnswer reads an HTTP/1.x response: the status, then the body by
// Content-Length, chunked, or up to the end of the connection.
func readAnswer(r *bufio.Reader) (int, []byte, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return 0, nil, err
	}
	proto, rest, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
	code, _, _ := strings.Cut(rest, " ")
	status, cerr := strconv.Atoi(code)
	if !strings.HasPrefix(proto, "HTTP/1.") || cerr != nil {
		return 0, nil, errMalformed
	}
	length, chunked := -1, false
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return 0, nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimSpace(value)
		switch strings.ToLower(name) {
		case "content-length":
			if length, err = strconv.Atoi(value); err != nil || length < 0 || length > maxAnswer {
				return 0, nil, errMalformed
			}
		case "transfer-encoding":
			chunked = strings.EqualFold(value, "chunked")
		}
	}
	var b []byte
	switch {
	case chunked:
		b, err = readChunked(r)
	case length >= 0:
		b = make([]byte, length)
		_, err = io.ReadFull(r, b)
	default:
		b, err = io.ReadAll(io.LimitReader(r, maxAnswer))
	}
	return status, b, err
}

// readChunked reads a chunked body (trailers are skipped).
func readChunked(r *bufio.Reader) ([]byte, error) {
	var b []byte
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		size, _, _ := strings.Cut(strings.TrimRight(line, "\r\n"), ";")
		n, err := strconv.ParseInt(strings.TrimSpace(size), 16, 64)
		if err != nil || n < 0 || int64(len(b))+n > maxAnswer {
			return nil, errMalformed
		}
		if n == 0 {
			return b, nil
		}
		start := len(b)
		b = append(b, make([]byte, n)...)
		if _, err := io.ReadFull(r, b[start:]); err != nil {
			return nil, err
		}
		if _, err := r.Discard(2); err != nil { // the chunk's CRLF
			return nil, err
		}
	}
}
