package e2e

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// procKB is a field of /proc/PID/status in kB (VmRSS, VmHWM).
func procKB(t *testing.T, pid int, field string) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// zeros is an endless body of JSON-looking bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// TestBigBodiesBoundedMemory: 20 parallel 100 MB request bodies (half
// with a Content-Length, half chunked, without one) are refused, and
// the server's peak memory stays within 2x its idle size: a declared
// body over --max-bytes is refused unread, and bodies of unknown length
// share a small budget.
func TestBigBodiesBoundedMemory(t *testing.T) {
	const bodies, size = 20, 100 << 20
	srv := startTokenServer(t, t.TempDir())
	pid := srv.cmd.Process.Pid
	// Settle: one ordinary call, then the idle size.
	call := func(body io.Reader, length int64) (int, error) {
		req, err := http.NewRequest(http.MethodPost, "http://"+srv.Addr+"/noggin.v1.NogginService/Call", body)
		if err != nil {
			return 0, err
		}
		req.ContentLength = length
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+remoteToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, nil
	}
	small := []byte(`{"verb":"push","arguments":{"noggin":"a.yaml","title":"x"}}`)
	if code, err := call(bytes.NewReader(small), int64(len(small))); err != nil || code != http.StatusOK {
		t.Fatalf("an ordinary call: %d %v", code, err)
	}
	time.Sleep(200 * time.Millisecond)
	idle := procKB(t, pid, "VmRSS")
	var wg sync.WaitGroup
	codes := make([]int, bodies)
	for i := range bodies {
		wg.Go(func() {
			length := int64(size)
			if i%2 == 1 {
				length = -1 // chunked
			}
			// A server that stops reading may close the connection before
			// the client has sent all; the status is then unknown (0).
			codes[i], _ = call(io.LimitReader(zeros{}, size), length)
		})
	}
	wg.Wait()
	peak := procKB(t, pid, "VmHWM")
	t.Logf("idle %d kB, peak %d kB, statuses %v", idle, peak, codes)
	if peak > 2*idle {
		t.Errorf("peak %d kB is over 2x the idle %d kB", peak, idle)
	}
	for i, c := range codes {
		if c == http.StatusOK {
			t.Errorf("body %d was taken (status %d)", i, c)
		}
	}
	// The server still serves.
	if code, err := call(bytes.NewReader(small), int64(len(small))); err != nil || code != http.StatusOK {
		t.Fatalf("a call after the big bodies: %d %v", code, err)
	}
}
