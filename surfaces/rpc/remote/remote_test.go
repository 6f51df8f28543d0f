package remote

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/request"
)

// TestFailures: a server that never answers and a TLS server whose
// certificate is not trusted give these exact envelopes, after one
// attempt (neither is retried).
func TestFailures(t *testing.T) {
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			defer c.Close() // hold it open, say nothing
		}
	}()
	tlsSrv := httptest.NewTLSServer(http.NotFoundHandler())
	defer tlsSrv.Close()
	// The TLS case gets a generous timeout: its handshake under the race
	// detector on a loaded machine can take longer than 200ms, and it must
	// fail on the certificate, not on the clock.
	cases := []struct {
		name, base, want string
		timeout          time.Duration
	}{
		{"timeout", "http://" + silent.Addr().String(), `"detail": "no answer within 200ms: is the server overloaded or the address wrong?"`, 200 * time.Millisecond},
		{"untrusted certificate", tlsSrv.URL, `"detail": "TLS: the server's certificate is not trusted (x509: certificate signed by unknown authority)"`, 30 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cl := &Client{Attempts: 3, Backoff: time.Minute, Timeout: c.timeout}
			start := time.Now()
			env := cl.Run(context.Background(), c.base, &request.Request{Verb: "show", Location: request.String("team.yaml")})
			got := string(env.Encode())
			if !strings.Contains(got, `"code": "unavailable"`) || !strings.Contains(got, c.want) || env.ExitCode() != 1 {
				t.Errorf("envelope:\n%s\nwant %s", got, c.want)
			}
			if took := time.Since(start); took > c.timeout+4*time.Second {
				t.Errorf("took %v: retried a failure that is not worth retrying", took)
			}
		})
	}
}
