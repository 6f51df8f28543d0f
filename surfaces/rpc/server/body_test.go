package server_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/surfaces/rpc/server"
)

// TestRequestBodyLimits: a body declared over --max-bytes is refused
// before it is read (e2e TestBigBodiesBoundedMemory measures the memory);
// a body of unknown length is taken within the shared
// budget and refused past it, saying what to send instead.
func TestRequestBodyLimits(t *testing.T) {
	const max = 1 << 20
	ts := startServer(t, "", func(c *server.Config) { c.MaxBytes = max })
	push := []byte(`{"verb":"push","arguments":{"noggin":"a.yaml","title":"x"}}`)
	over := append(bytes.Repeat([]byte(" "), server.UnknownLengthBytes), push...)
	for _, tc := range []struct {
		name       string
		body       []byte
		length     int64
		wantStatus int
		wantText   string
	}{
		{name: "declared, small", body: push, length: int64(len(push)), wantStatus: http.StatusOK},
		{name: "unknown length, small", body: push, length: -1, wantStatus: http.StatusOK},
		{name: "declared over the limit", body: make([]byte, 8*max), length: 8 * max,
			wantStatus: http.StatusTooManyRequests, wantText: "over the server's limit"},
		{name: "unknown length over the budget", body: over, length: -1,
			wantStatus: http.StatusTooManyRequests, wantText: "send the request's Content-Length"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, ts.url+"/noggin.v1.NogginService/Call", bytes.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			req.ContentLength = tc.length
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.wantStatus || !strings.Contains(string(got), tc.wantText) {
				t.Errorf("status %d, body %.300s", resp.StatusCode, got)
			}
		})
	}
}
